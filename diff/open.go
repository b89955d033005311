package diff

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/source"
)

// OpenOptions configures [Open].
type OpenOptions struct {
	// Stdin is read for the name "-".
	Stdin io.Reader
	// Decoder holds the caps for local documents (Name and OnDiagnostic
	// are set by Open).
	Decoder sitemap.DecoderOptions
	// Fetch configures reading http(s) inputs. Open sets NoDedup (Diff
	// counts duplicates itself, in bounded memory) and, when zero,
	// MaxDepth 2: a sitemap index and its children (I-10).
	Fetch fetch.Options
	// OnDiagnostic receives every problem seen while reading (may be nil).
	OnDiagnostic func(sitemap.Diagnostic)
}

func (o OpenOptions) diag(d sitemap.Diagnostic) {
	if o.OnDiagnostic != nil {
		o.OnDiagnostic(d)
	}
}

// IsURL reports whether name is an http(s) URL.
func IsURL(name string) bool {
	l := strings.ToLower(name)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// Open returns the entries of one side of a diff, named as on the command
// line:
//
//   - "-": standard input, one document (any format the decoder reads, or
//     JSONL entry records).
//   - an http(s) URL: a sitemap, an index and its children (depth 1, I-10),
//     a robots.txt or a homepage (discovery as fetch.Walk does it).
//   - a directory: every *.xml, *.xml.gz and *.txt file in it (not
//     robots.txt), in name order. Index files are not followed, since
//     their children are the directory's other files; an index child
//     missing from the directory is a warning.
//   - a file: a sitemap, or an index whose children are read from the
//     files beside it (the last path segment of each loc); a JSONL file of
//     entry records (*.jsonl, *.ndjson, or content starting with '{').
//
// A document that cannot be read to its end (missing, truncated, not a
// sitemap, HTTP error) stops the side with an error: a partial side
// would show false removals. Problems inside documents go to
// OnDiagnostic and reading goes on.
func Open(name string, o OpenOptions) Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		switch {
		case name == "-":
			if o.Stdin == nil {
				return errors.New("standard input is not available")
			}
			return readDoc(ctx, o.Stdin, "-", o, yield, nil)
		case IsURL(name):
			return walkURL(ctx, name, o, yield)
		}
		fi, err := os.Stat(name)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				return fmt.Errorf("%s: %w", name, pe.Err)
			}
			return err
		}
		if fi.IsDir() {
			return readDir(ctx, name, o, yield)
		}
		return readFile(ctx, name, o, yield, true)
	}
}

// readFile reads one local file; with follow, an index's children are
// read from beside it.
func readFile(ctx context.Context, name string, o OpenOptions, yield func(*sitemap.URL) error, follow bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	var children []string
	onIndex := func(x sitemap.IndexEntry) error {
		if !follow {
			o.diag(sitemap.Diagnostic{Rule: "I-07", Severity: sitemap.SeverityError, File: name,
				Message: fmt.Sprintf("an index inside an index: its child %s is not followed (sitemap indexes cannot be nested)", x.Loc)})
			return nil
		}
		children = append(children, x.Loc)
		return nil
	}
	if err := readDoc(ctx, f, name, o, yield, onIndex); err != nil {
		return err
	}
	dir := filepath.Dir(name)
	for _, loc := range children {
		p, err := childPath(dir, loc)
		if err != nil {
			return fmt.Errorf("%s: child %s: %w", name, loc, err)
		}
		if err := readFile(ctx, p, o, yield, false); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("%s lists %s, but %s does not exist; put the child sitemaps beside the index, or compare their URLs", name, loc, p)
			}
			return err
		}
	}
	return nil
}

// childPath is the file beside an index that holds the child loc: the
// last segment of its path.
func childPath(dir, loc string) (string, error) {
	u, err := url.Parse(loc)
	if err != nil {
		return "", err
	}
	base := path.Base(u.Path)
	if base == "/" || base == "." || base == "" || base == ".." {
		return "", errors.New("names no file")
	}
	return filepath.Join(dir, base), nil
}

// readDoc reads one document from r: JSONL entry records when it starts
// with '{' (after white space), else whatever the decoder reads. Index
// entries go to onIndex; nil onIndex reports them as I-07 errors.
func readDoc(ctx context.Context, r io.Reader, name string, o OpenOptions, yield func(*sitemap.URL) error, onIndex func(sitemap.IndexEntry) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	lower := strings.ToLower(name)
	if (len(head) > 0 && head[0] == '{') || strings.HasSuffix(lower, ".jsonl") || strings.HasSuffix(lower, ".ndjson") ||
		strings.HasSuffix(lower, ".jsonl.gz") || strings.HasSuffix(lower, ".ndjson.gz") {
		return readJSONL(ctx, br, name, o, yield)
	}
	do := o.Decoder
	do.Name = name
	do.OnDiagnostic = o.OnDiagnostic
	dec := sitemap.NewDecoder(br, do)
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		it, err := dec.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err // a *DecodeError names the file and position
		}
		switch it.Kind {
		case sitemap.ItemURL:
			if err := yield(&it.URL); err != nil {
				return err
			}
		case sitemap.ItemIndex:
			if onIndex == nil {
				o.diag(sitemap.Diagnostic{Rule: "I-07", Severity: sitemap.SeverityError, File: name, Line: it.Line, Col: it.Col,
					Message: fmt.Sprintf("index entry %s not followed here", it.Index.Loc)})
				continue
			}
			if err := onIndex(it.Index); err != nil {
				return err
			}
		}
	}
}

func readJSONL(ctx context.Context, r io.Reader, name string, o OpenOptions, yield func(*sitemap.URL) error) error {
	rd, err := source.New(r, source.Options{Name: name, Format: source.FormatJSONL,
		Warn: func(e *source.Error) { o.diag(e.Diagnostic(sitemap.SeverityWarning)) }})
	if err != nil {
		return err
	}
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		rec, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		var se *source.Error
		if errors.As(err, &se) {
			o.diag(se.Diagnostic(sitemap.SeverityError))
			continue
		}
		if err != nil {
			return err
		}
		if rec.URL.Source == "" {
			rec.URL.Source = name
		}
		if err := yield(&rec.URL); err != nil {
			return err
		}
	}
}

// readDir reads every sitemap file of a directory (see Open).
func readDir(ctx context.Context, dir string, o OpenOptions, yield func(*sitemap.URL) error) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var names []string
	have := map[string]bool{}
	for _, e := range ents {
		n := e.Name()
		l := strings.ToLower(n)
		if !e.Type().IsRegular() || l == "robots.txt" {
			continue
		}
		if strings.HasSuffix(l, ".xml") || strings.HasSuffix(l, ".xml.gz") || strings.HasSuffix(l, ".txt") {
			names = append(names, n)
			have[n] = true
		}
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(dir, n)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		onIndex := func(x sitemap.IndexEntry) error {
			// The children are this directory's own files, read in turn.
			if c, err := childPath(dir, x.Loc); err != nil || !have[filepath.Base(c)] {
				o.diag(sitemap.Diagnostic{Rule: "DIFF-01", Severity: sitemap.SeverityWarning, File: p,
					Message: fmt.Sprintf("the index lists %s, which is not in %s; its URLs are not compared", x.Loc, dir)})
			}
			return nil
		}
		err = readDoc(ctx, f, p, o, yield, onIndex)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// walkURL reads an http(s) input with fetch.Walk.
func walkURL(ctx context.Context, start string, o OpenOptions, yield func(*sitemap.URL) error) error {
	fo := o.Fetch
	fo.NoDedup = true
	if fo.MaxDepth == 0 {
		fo.MaxDepth = 2
	}
	var failed []string
	sum, err := fetch.Walk(ctx, start, fo, func(e fetch.Event) error {
		switch e.Kind {
		case fetch.EventURL:
			return yield(e.URL)
		case fetch.EventDiagnostic:
			o.diag(*e.Diagnostic)
		case fetch.EventNodeEnd:
			if e.Node != nil && e.Node.Failed && e.Node.Kind == fetch.NodeSitemap {
				failed = append(failed, fmt.Sprintf("%s: %s", e.Node.URL, e.Node.Err))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(failed) > 0 {
		more := ""
		if len(failed) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(failed)-1)
		}
		return fmt.Errorf("could not read %s%s", failed[0], more)
	}
	if sum.Sitemaps == 0 {
		return fmt.Errorf("%s: no sitemap found", start)
	}
	return nil
}
