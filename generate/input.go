package generate

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/ctxio"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/source"
)

// InputOptions configure [Inputs].
type InputOptions struct {
	// Source says how an entry list is read (format, columns; see
	// [source.Options]). Its Name is set to each input's name.
	Source source.Options
	// Stdin is what the input "-" reads (default os.Stdin); an *os.File
	// is read so that an interrupt ends a wait for input.
	Stdin io.Reader
	// MaxErrors is the decoder's cap of errors per sitemap read as input
	// (see sitemap.DecoderOptions.MaxErrors).
	MaxErrors int
}

// Inputs is what `sitemap generate INPUT...` reads: the entries of every
// doc in turn (resolved by input.Resolve: files and "-"), each opened
// when its turn comes. A sitemap (XML, gzip or not: a urlset, an index
// and the children it lists, found beside it; RSS, Atom) is told from an
// entry list by its bytes, not its name ([input.IsSitemapHead]); anything
// else is read as text, CSV or JSONL ([Read]). With o.Source.Format set,
// every input is an entry list of that format.
//
// What the sitemap reader reports becomes a Problem item: an entry it
// skipped (a relative loc, L-01; a control character, L-07) an invalid
// entry, the rest warnings; every entry it keeps is checked again by Run.
// A document that cannot be read to its end (a file that cannot be
// opened, a child of an index missing, truncated XML) ends the source with
// an *[InputError]: publishing what was read would drop its URLs.
//
// The returned Progress says how many bytes of the input files were read,
// of their total size (standard input is not counted), for a progress
// line; it may be called from any goroutine.
func Inputs(docs []input.Doc, o InputOptions) (Source, Progress) {
	m := newInputMeter(docs)
	if o.Stdin == nil {
		o.Stdin = os.Stdin
	}
	src := func(ctx context.Context, yield func(*Item) error) error {
		for i := range docs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := readInput(ctx, &docs[i], o, m, yield); err != nil {
				return err
			}
			m.finish(&docs[i])
		}
		return nil
	}
	return src, m.measure
}

// Progress returns the bytes read so far and the total (see [Inputs]).
type Progress func() (done, total int64)

// InputError is an input [Inputs] could not read to its end. Lost, when
// set, is the reader's VAL-01 diagnostic of a child of an index that
// could not be read.
type InputError struct {
	Err  error
	Lost *sitemap.Diagnostic
}

func (e *InputError) Error() string {
	if e.Lost != nil {
		return e.Lost.String() + "; nothing published: the sitemaps would lack its URLs"
	}
	return "cannot read input: " + e.Err.Error()
}

func (e *InputError) Unwrap() error { return e.Err }

// readInput reads the input doc to its end (see Inputs).
func readInput(ctx context.Context, doc *input.Doc, o InputOptions, m *inputMeter, yield func(*Item) error) error {
	so := o.Source
	// Standard input is named <stdin> in messages, as in every command.
	so.Name = doc.Name
	if doc.Stdin {
		so.Name = input.StdinName
	}
	// Standard input as it is, not behind input.Open's io.NopCloser:
	// Read reads a regular file directly and anything else so that an
	// interrupt ends a wait for input (it looks for an *os.File).
	in := o.Stdin
	if !doc.Stdin {
		rc, err := input.Open(ctx, doc, input.Options{})
		if err != nil {
			return &InputError{Err: err}
		}
		defer rc.Close()
		in = rc
		if f, ok := rc.(*os.File); ok {
			m.reading(f)
			defer m.reading(nil)
		}
	}
	if f, ok := in.(*os.File); ok && so.Format == source.FormatAuto {
		// A regular file is looked at in place, and handed over as the
		// *os.File it is (Read reads it directly).
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			head := make([]byte, 4096)
			n, _ := f.ReadAt(head, 0)
			if input.IsSitemapHead(head[:n]) {
				return readSitemap(ctx, doc, f, o.MaxErrors, yield)
			}
			return Read(f, so)(ctx, yield)
		}
	}
	if so.Format == source.FormatAuto {
		ir := interruptible(ctx, in)
		br := bufio.NewReaderSize(ir, 64<<10)
		// What one read brings: a pipe may hold a first line and then
		// go silent, and the run must not wait for more to start.
		if _, err := br.Peek(1); err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		if head, _ := br.Peek(br.Buffered()); input.IsSitemapHead(head) {
			return readSitemap(ctx, doc, br, o.MaxErrors, yield)
		}
		// br reads the interruptible reader: not wrapped again.
		cr, _ := ir.(*ctxio.Reader)
		return readEntries(ctx, br, cr, so, yield)
	}
	return Read(in, so)(ctx, yield)
}

// readSitemap reads the sitemap doc, whose bytes are in (for standard
// input) or its file (read again by package input), and the children of
// an index, each found beside the index.
func readSitemap(ctx context.Context, doc *input.Doc, in io.Reader, maxErrors int, yield func(*Item) error) error {
	var lost *sitemap.Diagnostic // a child not read (VAL-01): the run ends at it
	var failed *fetch.Node       // a document not read to its end
	var cut *sitemap.DecodeError // why the decoder stopped reading it
	var it Item
	// held is a diagnostic that may be the one that stops the decoder
	// (an error that skipped nothing): it is yielded at the next event,
	// as the error that ended the reading when that event says so.
	var held *sitemap.Diagnostic
	release := func(stop bool) error {
		if held == nil {
			return nil
		}
		item := diagnosticItem(*held)
		held = nil
		if stop {
			item.Warning, item.stop = false, true
		}
		return yield(item)
	}
	o := input.Options{Stdin: in, Decoder: sitemap.DecoderOptions{MaxErrors: maxErrors}}
	sum, err := input.WalkDocs(ctx, []input.Doc{*doc}, o, func(ev fetch.Event) error {
		var dc *sitemap.DecodeError
		stops := ev.Kind == fetch.EventNodeEnd && ev.Node.Failed && errors.As(ev.Node.Cause, &dc) &&
			held != nil && dc.Diagnostic.Rule == held.Rule && dc.Diagnostic.Line == held.Line && dc.Diagnostic.Col == held.Col
		if err := release(stops); err != nil {
			return err
		}
		switch ev.Kind {
		case fetch.EventURL:
			it = Item{URL: *ev.URL, File: ev.URL.Source, Line: ev.Line}
			it.URL.Source = ""
			return yield(&it)
		case fetch.EventNodeEnd:
			if ev.Node.Kind == fetch.NodeSitemap && ev.Node.Failed {
				n := *ev.Node
				failed = &n
				return errIncomplete
			}
		case fetch.EventDiagnostic:
			d := *ev.Diagnostic
			if d.Severity == sitemap.SeverityInfo {
				return nil
			}
			if d.Rule == rules.VAL01 {
				lost = &d
				return nil
			}
			if d.Severity == sitemap.SeverityError && !d.Skipped {
				held = &d
				return nil
			}
			return yield(diagnosticItem(d))
		}
		return nil
	})
	if err == nil {
		err = release(false)
	}
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case lost != nil:
		return &InputError{Err: errIncomplete, Lost: lost}
	case failed != nil && errors.As(failed.Cause, &cut):
		// The decoder stopped: its diagnostic went out as an item,
		// position and all; said again, the same words would read as
		// a second problem.
		return &InputError{Err: fmt.Errorf("%s: not read to its end (%s above); nothing published: the sitemaps would lack the URLs after that point", failed.URL, cut.Diagnostic.Rule)}
	case sum.StartErr != nil:
		return &InputError{Err: sum.StartErr}
	case failed != nil:
		return &InputError{Err: fmt.Errorf("%s: %s", failed.URL, failed.Err)}
	}
	return err
}

// errIncomplete stops the walk of a sitemap input at a document that
// cannot be read to its end: publishing what was read would drop its
// URLs.
var errIncomplete = errors.New("a sitemap of the input could not be read to its end")

// diagnosticItem is the Problem item of the reader's diagnostic d: an
// entry the reader skipped (a relative loc, L-01; a control character,
// L-07) is an invalid entry of the input, counted as skipped like one the
// builder refuses; anything else is a warning (readSitemap makes the one
// that stopped the reading an error).
func diagnosticItem(d sitemap.Diagnostic) *Item {
	file := d.File
	if file == "" {
		file = d.URL
	}
	p := d // the one problem type: the diagnostic is the source.Error
	p.File, p.URL = file, ""
	return &Item{Problem: &p, Warning: !entrySkipped(d), File: file, Line: d.Line}
}

// entrySkipped reports whether the reader's diagnostic d is about an
// entry it skipped: an error with Skipped set.
func entrySkipped(d sitemap.Diagnostic) bool {
	return d.Severity == sitemap.SeverityError && d.Skipped
}

// inputMeter counts the bytes of the input files read so far, of their
// total size. A file read whole counts whole; the one being read counts
// to its offset (polled at each measure: the reader is not slowed by
// counting). Standard input has no size and is not counted.
type inputMeter struct {
	mu    sync.Mutex
	total int64
	done  int64
	sizes map[*input.Doc]int64
	cur   *os.File
}

func newInputMeter(docs []input.Doc) *inputMeter {
	m := &inputMeter{sizes: map[*input.Doc]int64{}}
	for i := range docs {
		if docs[i].Path == "" {
			continue
		}
		if st, err := os.Stat(docs[i].Path); err == nil && st.Mode().IsRegular() {
			m.sizes[&docs[i]] = st.Size()
			m.total += st.Size()
		}
	}
	return m
}

// reading says which file is being read now (nil: none).
func (m *inputMeter) reading(f *os.File) {
	m.mu.Lock()
	m.cur = f
	m.mu.Unlock()
}

// finish counts doc as read whole.
func (m *inputMeter) finish(doc *input.Doc) {
	m.mu.Lock()
	m.done += m.sizes[doc]
	m.mu.Unlock()
}

// measure returns the bytes read so far and the total.
func (m *inputMeter) measure() (done, total int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	done = m.done
	if m.cur != nil {
		if off, err := m.cur.Seek(0, io.SeekCurrent); err == nil {
			done += off
		}
	}
	return min(done, m.total), m.total
}
