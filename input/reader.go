package input

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Entry is one entry read by a [Reader]: a page (Kind ItemURL) or an
// index's <sitemap> entry (ItemIndex), with the document it came from.
// Its Source is Doc.Name.
type Entry struct {
	sitemap.Item
	// Doc is the document the entry is in; it stays valid after later
	// calls to Next.
	Doc *Doc
}

// Reader reads the entries of named inputs one after the other, each
// document as it is: an index's entries are returned, not followed
// ([Options.Follow] is for [Walk] and [Entries], the one traversal of
// index trees). Problems inside documents go to [Options.OnDiagnostic]
// and reading goes on; Next returns an error only when the run cannot go
// on (see [Reader.Next]).
type Reader struct {
	ctx    context.Context
	o      Options
	docs   []Doc
	next   int
	cur    *docState
	err    error
	n      int
	opened int   // documents opened
	e      Entry // what Next returns a pointer to
	// seen holds the locs returned, with Options.SkipDuplicates; dups
	// counts those skipped.
	seen *seen.Set
	dups int64
}

// docState is the open document of a Reader.
type docState struct {
	doc *Doc
	rc  io.ReadCloser
	dec *sitemap.Decoder
	src source.Reader
}

// NewReader returns a Reader of names, resolved by [Resolve] (whose
// errors it returns).
func NewReader(ctx context.Context, names []string, o Options) (*Reader, error) {
	docs, err := Resolve(names, o)
	if err != nil {
		return nil, err
	}
	return NewDocReader(ctx, docs, o), nil
}

// NewDocReader returns a Reader of documents already resolved.
func NewDocReader(ctx context.Context, docs []Doc, o Options) *Reader {
	return &Reader{ctx: ctx, o: o, docs: docs}
}

// Next returns the next entry, or io.EOF after the last one. The Entry is
// the Reader's own, overwritten by the next call: copy what you keep.
//
// Next returns an error, and keeps returning it, when the run cannot go
// on: a named input cannot be opened ([*OpenError]) or its reader fails
// (the error names it), ctx is done, or, with [Options.Complete], any
// document cannot be read to its end. Otherwise a document the decoder
// cannot read to its end is reported by the decoder, and reading goes on
// with the next document.
func (r *Reader) Next() (*Entry, error) {
	for {
		if r.err != nil {
			return nil, r.err
		}
		if r.n++; r.n&255 == 0 {
			if err := r.ctx.Err(); err != nil {
				r.fail(err)
				continue
			}
		}
		if r.cur == nil {
			if err := r.advance(); err != nil {
				r.fail(err)
			}
			continue
		}
		ok, err := r.read()
		if err != nil {
			r.fail(err)
			continue
		}
		if ok {
			if r.o.SkipDuplicates && r.e.Kind == sitemap.ItemURL {
				if r.seen == nil {
					r.seen = seen.New(r.o.DedupMemory, "")
				}
				isNew, err := r.seen.Add(urlnorm.Key(r.e.URL.Loc)) // spellings of one URL are one
				if err != nil {
					r.fail(fmt.Errorf("remembering the URLs read: %w", err))
					continue
				}
				if !isNew {
					r.dups++
					continue
				}
			}
			return &r.e, nil
		}
	}
}

// Duplicates is how many URL entries [Options.SkipDuplicates] skipped
// because their loc was returned before.
func (r *Reader) Duplicates() int64 { return r.dups }

// Close releases the open document, if any. Next returns io.EOF after it.
func (r *Reader) Close() error {
	r.closeCur()
	if r.seen != nil {
		r.seen.Close()
		r.seen = nil
	}
	if r.err == nil {
		r.err = io.EOF
	}
	return nil
}

func (r *Reader) fail(err error) {
	r.closeCur()
	r.err = err
}

func (r *Reader) closeCur() {
	if r.cur != nil {
		r.cur.rc.Close()
		r.cur = nil
	}
}

// read returns the next entry of the open document; ok is false when it
// had none to return (the document ended, or an index entry was kept as a
// child).
func (r *Reader) read() (bool, error) {
	c := r.cur
	if c.src != nil {
		return r.readRecord()
	}
	// Straight into r.e: an Item is some 300 bytes with pointers, and
	// each copy of it costs (write barriers) at hundreds of MB/s.
	var err error
	r.e.Item, err = c.dec.Next()
	if err != nil {
		if err == io.EOF {
			r.end()
			return false, nil
		}
		if cerr := r.ctx.Err(); cerr != nil {
			return false, cerr
		}
		// The decoder reported the problem (OnDiagnostic) already.
		if c.doc.Depth == 0 && readFailed(err) {
			var de *sitemap.DecodeError
			if errors.As(err, &de) && de.Err != nil {
				err = de.Cause()
			}
			return false, fmt.Errorf("%s: %w", c.doc.Name, err)
		}
		if r.o.Complete {
			return false, err
		}
		r.end()
		return false, nil
	}
	r.e.Doc = c.doc
	return true, nil
}

// end closes the open document.
func (r *Reader) end() { r.closeCur() }

// advance opens the next named input; io.EOF after the last.
func (r *Reader) advance() error {
	if r.next == len(r.docs) {
		return io.EOF
	}
	d := &r.docs[r.next]
	r.next++
	rc, err := Open(r.ctx, d, r.o)
	if err != nil {
		return err
	}
	return r.start(d, rc)
}

// Documents is how many documents the Reader has opened so far.
func (r *Reader) Documents() int { return r.opened }

// start makes d, opened as rc, the Reader's open document.
func (r *Reader) start(d *Doc, rc io.ReadCloser) error {
	r.opened++
	c := &docState{doc: d, rc: rc}
	var in io.Reader = rc
	if r.o.JSONL {
		br := bufio.NewReaderSize(rc, 64<<10)
		in = br
		if f := entryList(d.Name, br); f != source.FormatAuto {
			src, err := source.New(br, entryListOptions(d.Name, f, func(d sitemap.Diagnostic) { r.o.diag(d) }))
			if err != nil {
				rc.Close()
				return err
			}
			c.src = src
			r.cur = c
			return nil
		}
	}
	do := r.o.Decoder
	do.Name, do.BaseURL, do.OnDiagnostic = d.Name, d.URL, r.o.OnDiagnostic
	// The decoder stops within a read once ctx is done, however long a
	// document goes on without an entry (a file of junk lines).
	do.Context = r.ctx
	c.dec = sitemap.NewDecoder(in, do)
	r.cur = c
	return nil
}

// Key names the document d is, for telling whether it was read before
// (two names of one file, a child listed twice): its cleaned absolute
// path, or its URL; "" for standard input, which is never the same
// document twice. (&Doc{URL: d.FinalURL()}).Key() is the key of what
// answered for an HTTP document after redirects.
func (d *Doc) Key() string {
	switch {
	case d.Stdin:
		return ""
	case d.Path != "":
		p, err := filepath.Abs(d.Path)
		if err != nil {
			p = filepath.Clean(d.Path)
		}
		return "file:" + p
	}
	return urlKey(d.URL)
}

// urlKey is the Key of the document served at u.
func urlKey(u string) string { return "url:" + u }

// isJSONL reports whether a document is JSONL entry records: by its name,
// or its first character '{' (after a BOM and white space).
func isJSONL(name string, br *bufio.Reader) bool {
	l := strings.ToLower(strings.TrimSuffix(strings.ToLower(name), ".gz"))
	if strings.HasSuffix(l, ".jsonl") || strings.HasSuffix(l, ".ndjson") {
		return true
	}
	head, _ := br.Peek(512)
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	return len(head) > 0 && head[0] == '{'
}

// entryList is the format of a document that is an entry list rather
// than a sitemap: JSONL ([isJSONL]) or, by its name (.csv, .csv.gz), CSV
// with a header row; source.FormatAuto for a sitemap.
func entryList(name string, br *bufio.Reader) source.Format {
	switch {
	case isJSONL(name, br):
		return source.FormatJSONL
	case source.FormatOf(name) == source.FormatCSV:
		return source.FormatCSV
	}
	return source.FormatAuto
}

// entryListOptions are the options of the reader of an entry list in
// format f: remarks reported as warnings, a crawler export's rows left
// out (not 200, not indexable, canonicalised elsewhere) at info level.
func entryListOptions(name string, f source.Format, report func(sitemap.Diagnostic)) source.Options {
	return source.Options{Name: name, Format: f,
		Warn:    func(e *source.Error) { report(e.WithSeverity(sitemap.SeverityWarning)) },
		Omitted: func(e *source.Error) { report(e.WithSeverity(sitemap.SeverityInfo)) }}
}

// recordLoc checks the loc of an entry record read from the document
// name: a page needs its absolute URL. A record without one is skipped,
// as the decoder skips a <url> without <loc>, and so is a relative one
// ("/contact", which generate resolves against its site URL, L-19): ok
// is false, d says why.
func recordLoc(name string, rec *source.Record) (d sitemap.Diagnostic, ok bool) {
	switch loc := rec.URL.Loc; {
	case loc == "":
		return at(name, sitemap.Diagnostic{Rule: rules.X04, Severity: sitemap.SeverityError, Line: rec.Line,
			Message: `the record has no "loc" (the page's absolute URL); skipped`}), false
	case !urlnorm.IsHTTP(loc):
		return at(name, sitemap.Diagnostic{Rule: rules.L01, Severity: sitemap.SeverityError, Line: rec.Line,
			Message: "loc " + strconv.Quote(loc) + " is not an absolute http(s) URL; skipped: write it in full " +
				"(https://www.example.com/contact), or make sitemaps of the list first (sitemap generate resolves " +
				"relative URLs against its --base-url) and read those"}), false
	}
	return sitemap.Diagnostic{}, true
}

// readRecord returns the next JSONL record of the open document.
func (r *Reader) readRecord() (bool, error) {
	c := r.cur
	for {
		rec, err := c.src.Next()
		if err == io.EOF {
			r.end()
			return false, nil
		}
		var se *source.Error
		if errors.As(err, &se) {
			r.o.diag(se.WithSeverity(sitemap.SeverityError))
			continue
		}
		if err != nil {
			return false, err
		}
		if d, ok := recordLoc(c.doc.Name, &rec); !ok {
			r.o.diag(d)
			continue
		}
		if rec.URL.Source == "" {
			rec.URL.Source = c.doc.Name
		}
		r.e = Entry{Item: sitemap.Item{Kind: sitemap.ItemURL, URL: rec.URL, Line: rec.Line}, Doc: c.doc}
		return true, nil
	}
}

// readFailed reports whether a decoder error is a failure of the reader
// itself (an I/O error) rather than a finding about the document.
func readFailed(err error) bool {
	var de *sitemap.DecodeError
	if errors.As(err, &de) {
		return de.Diagnostic.Rule == sitemap.RuleRead
	}
	return true
}

// at places d in the document name: its URL field for an http(s) name,
// else its File field.
func at(name string, d sitemap.Diagnostic) sitemap.Diagnostic {
	if urlnorm.IsHTTP(name) {
		d.URL = name
	} else {
		d.File = name
	}
	return d
}

// Entries returns the page entries of names as a [sitemap.Entries], the
// push stream the module's packages pass one another (diff.Diff and
// generate read one): a [Reader] run to its end at each call, its Next
// errors returned as they are. Index entries are not pages: set
// o.Follow to read an index's children instead, through [Walk] (without
// it, they are skipped). With o.Follow, a named input that cannot be
// read is an error at the end (the others are read), and, with
// o.Complete, a document that cannot be read to its end stops the walk
// with an error (a [*ChildError] for a child).
func Entries(names []string, o Options) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		if o.Follow {
			return walkEntries(ctx, names, nil, o, yield)
		}
		r, err := NewReader(ctx, names, o)
		if err != nil {
			return err
		}
		defer r.Close()
		return r.urls(yield)
	}
}

// DocEntries is [Entries] of documents already resolved ([Resolve]).
func DocEntries(docs []Doc, o Options) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		if o.Follow {
			return walkEntries(ctx, nil, docs, o, yield)
		}
		r := NewDocReader(ctx, docs, o)
		defer r.Close()
		return r.urls(yield)
	}
}

// urls calls yield with each page entry of r to its end.
func (r *Reader) urls(yield func(*sitemap.URL) error) error {
	for {
		e, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if e.Kind != sitemap.ItemURL {
			continue
		}
		if err := yield(&e.URL); err != nil {
			return err
		}
	}
}
