package source

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
	ctl "github.com/sitemapkit/sitemap/internal/check"
)

// WriterFormats are the formats a [Writer] writes: "txt" (one loc a
// line), "csv" (a header row, then one row per entry) and "jsonl" (the
// entry record, [JSONLWriter]).
var WriterFormats = []string{"txt", "csv", "jsonl"}

// WriterOptions tune a [Writer].
type WriterOptions struct {
	// Format is one of WriterFormats.
	Format string
	// Source adds a "source" column to CSV rows: the sitemap that listed
	// the entry (its control characters escaped, one record a line).
	// JSONL records carry it whenever it is set.
	Source bool
	// Mixed says urlsets and indexes may be written together: every CSV
	// row then has the columns of a URL (an index entry leaves changefreq
	// and priority empty), so the CSV stays rectangular. Without it, a
	// CSV of index entries has the columns loc and lastmod.
	Mixed bool
}

// Writer writes entries, buffered, in one of [WriterFormats]: what
// `sitemap parse` and `sitemap fetch` print, and what `sitemap generate`
// and the other readers of this package read back. The CSV header row is
// written before the first row (or by WriteHeader); Flush writes what is
// buffered.
type Writer struct {
	o       WriterOptions
	bw      *bufio.Writer
	jw      *JSONLWriter
	cw      *csv.Writer
	started bool
	row     []string
	buf     []byte
	// The last source written and its CSV form.
	src, srcOut string
}

// NewWriter returns a Writer to w; an unknown format is an error naming
// the three.
func NewWriter(w io.Writer, o WriterOptions) (*Writer, error) {
	ew := &Writer{o: o, bw: bufio.NewWriterSize(w, 256<<10)}
	switch o.Format {
	case "txt":
	case "jsonl":
		ew.jw = NewJSONLWriter(ew.bw)
	case "csv":
		ew.cw = csv.NewWriter(ew.bw)
	default:
		return nil, fmt.Errorf("--format %q: want txt, jsonl or csv", o.Format)
	}
	return ew, nil
}

// WriteHeader writes the CSV header row of URLs now, unless a row was
// written (nothing in the other formats): a CSV with no entry then
// still names its columns.
func (w *Writer) WriteHeader() error { return w.header(false) }

func (w *Writer) header(index bool) error {
	if w.cw == nil || w.started {
		return nil
	}
	w.started = true
	h := []string{"loc", "lastmod", "changefreq", "priority"}
	if index {
		h = h[:2]
	}
	if w.o.Source {
		h = append(h, "source")
	}
	w.row = make([]string, len(h))
	return w.cw.Write(h)
}

// Write writes the entry of a URL.
func (w *Writer) Write(u *sitemap.URL) error {
	switch w.o.Format {
	case "txt":
		w.bw.WriteString(u.Loc)
		return w.bw.WriteByte('\n')
	case "jsonl":
		return w.jw.Write(u)
	}
	if err := w.header(false); err != nil {
		return err
	}
	p := ""
	if u.Priority != nil {
		p = sitemap.FormatPriority(*u.Priority)
	}
	return w.csvRow(u.Loc, u.LastMod, string(u.ChangeFreq), p, u.Source)
}

// WriteIndex writes the entry of a sitemap an index lists.
func (w *Writer) WriteIndex(x *sitemap.IndexEntry) error {
	switch w.o.Format {
	case "txt":
		w.bw.WriteString(x.Loc)
		return w.bw.WriteByte('\n')
	case "jsonl":
		return w.jw.WriteIndex(x)
	}
	if err := w.header(!w.o.Mixed); err != nil {
		return err
	}
	return w.csvRow(x.Loc, x.LastMod, "", "", x.Source)
}

// WriteItem writes what a Decoder read: a URL or an index entry.
func (w *Writer) WriteItem(it *sitemap.Item) error {
	if it.Kind == sitemap.ItemIndex {
		return w.WriteIndex(&it.Index)
	}
	return w.Write(&it.URL)
}

// csvRow writes one row of the columns the header named.
func (w *Writer) csvRow(loc string, lastmod sitemap.Date, changefreq, priority, src string) error {
	w.buf = lastmod.AppendFormat(w.buf[:0])
	row := append(w.row[:0], loc, string(w.buf))
	if len(w.row) >= 4 {
		row = append(row, changefreq, priority)
	}
	if w.o.Source {
		if src != w.src {
			w.src, w.srcOut = src, ctl.EscapeControls(src)
		}
		row = append(row, w.srcOut)
	}
	return w.cw.Write(row)
}

// Flush writes what is buffered to the underlying writer.
func (w *Writer) Flush() error {
	if w.cw != nil {
		w.cw.Flush()
		if err := w.cw.Error(); err != nil {
			return err
		}
	}
	return w.bw.Flush()
}
