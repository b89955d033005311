package input

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/source"
)

// NewGetter returns the [fetch.Getter] that reads what o names the way
// [Resolve] and [Open] do: files, directories, standard input and S3
// objects, an index's children mapped to files by [Child] (a file of a
// directory input is read in its own turn, not again as a child). A
// document served at an http(s) URL is left to the walk, which requests
// it through its Client. With o.JSONL, a document of JSONL entry records
// is read as such.
func NewGetter(o Options) fetch.Getter { return &getter{o: o} }

type getter struct {
	o    Options
	docs []Doc // of WalkDocs: the name docRef+i stands for docs[i]
}

// docRef starts the names WalkDocs gives its documents in the walk.
const docRef = "\x00doc:"

func (g *getter) Starts(name string) ([]fetch.Doc, error) {
	if i, ok := strings.CutPrefix(name, docRef); ok && g.docs != nil {
		n, _ := strconv.Atoi(i)
		return []fetch.Doc{walkDoc(&g.docs[n])}, nil
	}
	docs, err := Resolve([]string{name}, g.o)
	if err != nil {
		return nil, err
	}
	out := make([]fetch.Doc, len(docs))
	for i := range docs {
		out[i] = walkDoc(&docs[i])
	}
	return out, nil
}

// walkDoc is d as a walk reads it: a Doc of the Getter's, or, served at
// an http(s) URL, one the walk requests itself.
func walkDoc(d *Doc) fetch.Doc {
	if d.IsHTTP() {
		return fetch.Doc{Name: d.Name, URL: d.URL}
	}
	return fetch.Doc{Name: d.Name, URL: d.URL, Key: d.Key(), Ref: d}
}

func (g *getter) Child(parent *fetch.Doc, loc string) (fetch.Doc, error) {
	p := parent.Ref.(*Doc)
	c, err := Child(p, loc, true) // I-05 is the walk's
	if err != nil {
		return fetch.Doc{}, err
	}
	if p.Sibling(&c) && !g.o.Siblings {
		return fetch.Doc{}, fetch.ErrSkip
	}
	return walkDoc(&c), nil
}

func (g *getter) Open(ctx context.Context, fd *fetch.Doc, report func(sitemap.Diagnostic)) (*fetch.Document, error) {
	d := fd.Ref.(*Doc)
	rc, err := Open(ctx, d, g.o)
	if err != nil {
		if d.Depth == 0 {
			return nil, err
		}
		if d.Path != "" && errors.Is(err, fs.ErrNotExist) {
			return nil, &childError{msg: NotFound(d), err: err}
		}
		return nil, &childError{msg: fmt.Sprintf("child sitemap %s cannot be read: %v", d.Loc, errors.Unwrap(err)), err: err}
	}
	if !g.o.JSONL {
		return &fetch.Document{Body: rc}, nil
	}
	br := bufio.NewReaderSize(rc, 64<<10)
	body := readCloser{br, rc}
	f := entryList(d.Name, br)
	if f == source.FormatAuto {
		return &fetch.Document{Body: body}, nil
	}
	src, err := source.New(br, entryListOptions(d.Name, f, report))
	if err != nil {
		rc.Close()
		return nil, &OpenError{Doc: d, Err: err}
	}
	return &fetch.Document{Body: body, Items: &records{src: src, name: d.Name, format: f.String(), report: report}}, nil
}

// childError is a child that cannot be opened: its message says which
// file was looked for, or why the read failed.
type childError struct {
	msg string
	err error
}

func (e *childError) Error() string { return e.msg }
func (e *childError) Unwrap() error { return e.err }

// records reads JSONL entry records as a walk's entries.
type records struct {
	src    source.Reader
	name   string
	format string // "jsonl" or "csv"
	report func(sitemap.Diagnostic)
	it     sitemap.Item
}

func (r *records) Format() string { return r.format }

func (r *records) Next() (*sitemap.Item, error) {
	for {
		rec, err := r.src.Next()
		if err == io.EOF {
			return nil, io.EOF
		}
		var se *source.Error
		if errors.As(err, &se) {
			r.report(se.WithSeverity(sitemap.SeverityError))
			continue
		}
		if err != nil {
			return nil, err
		}
		if d, ok := recordLoc(r.name, &rec); !ok {
			r.report(d)
			continue
		}
		if rec.URL.Source == "" {
			rec.URL.Source = r.name
		}
		r.it = sitemap.Item{Kind: sitemap.ItemURL, URL: rec.URL, Line: rec.Line}
		return &r.it, nil
	}
}
