package diff

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
	jsonrec "github.com/sitemapkit/sitemap/internal/record"
)

// Formats are the output formats of a [Writer]: "text", one line for
// people per change, and "jsonl", one [Change] as JSON per line.
var Formats = []string{"text", "jsonl"}

// Writer writes changes, buffered, in one of [Formats]; Flush writes what
// is buffered. It is what `sitemap diff` prints.
type Writer struct {
	bw    *bufio.Writer
	jsonl bool // else text
	line  []byte
}

// NewWriter returns a Writer of format to w; an unknown format is an
// error that names the known ones.
func NewWriter(w io.Writer, format string) (*Writer, error) {
	dw := &Writer{bw: bufio.NewWriterSize(w, 64<<10)}
	switch format {
	case "text":
	case "jsonl":
		dw.jsonl = true
	default:
		return nil, fmt.Errorf("--format %q: want text or jsonl", format)
	}
	return dw, nil
}

// Write writes one change: as JSON on one line, or as [Change.String]
// and a newline.
func (w *Writer) Write(c Change) error {
	if w.jsonl {
		w.line = appendChange(w.line[:0], &c)
		_, err := w.bw.Write(w.line)
		return err
	}
	w.line = append(append(w.line[:0], c.String()...), '\n')
	_, err := w.bw.Write(w.line)
	return err
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() error { return w.bw.Flush() }

// String is the change as one line for people: "+ LOC" for an added
// entry, "- LOC" for a removed one, and "~ LOC  FIELD OLD → NEW; …" for a
// modified one ("FIELD changed (N)" when a list changed but kept its
// length). An absent value is "-".
func (c Change) String() string {
	switch c.Change {
	case Added:
		return "+ " + c.Loc
	case Removed:
		return "- " + c.Loc
	}
	parts := make([]string, 0, len(c.Fields))
	for _, f := range c.Fields {
		a, b := fieldText(c.Old, f), fieldText(c.New, f)
		if a == b { // same count of images, videos or alternates
			parts = append(parts, f+" changed ("+b+")")
			continue
		}
		parts = append(parts, f+" "+a+" → "+b)
	}
	return "~ " + c.Loc + "  " + strings.Join(parts, "; ")
}

// fieldText renders one field of u briefly; "-" when absent.
func fieldText(u *sitemap.URL, field string) string {
	count := func(n int, one, many string) string {
		if n == 0 {
			return "-"
		}
		return plural.Of(n, one, many)
	}
	switch field {
	case "lastmod":
		if u.LastMod.IsZero() {
			return "-"
		}
		return u.LastMod.String()
	case "changefreq":
		if u.ChangeFreq == "" {
			return "-"
		}
		return string(u.ChangeFreq)
	case "priority":
		if u.Priority == nil {
			return "-"
		}
		return sitemap.FormatPriority(*u.Priority)
	case "images":
		return count(len(u.Images), "image", "images")
	case "videos":
		return count(len(u.Videos), "video", "videos")
	case "alternates":
		return count(len(u.Alternates), "alternate", "alternates")
	case "news":
		if u.News == nil {
			return "-"
		}
		return fmt.Sprintf("%q", u.News.Title)
	case "content_hash":
		if u.ContentHash == "" {
			return "-"
		}
		return u.ContentHash
	}
	return "?"
}

// appendChange appends c as JSON and a newline, byte for byte what
// encoding/json writes with HTML escaping off (the entries through
// internal/record, which is).
func appendChange(b []byte, c *Change) []byte {
	b = append(b, `{"change":`...)
	b = jsonrec.AppendString(b, string(c.Change))
	b = append(b, `,"loc":`...)
	b = jsonrec.AppendString(b, c.Loc)
	if len(c.Fields) > 0 {
		b = append(b, `,"fields":[`...)
		for i, f := range c.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonrec.AppendString(b, f)
		}
		b = append(b, ']')
	}
	for _, side := range []struct {
		key string
		u   *sitemap.URL
	}{{`,"old":`, c.Old}, {`,"new":`, c.New}} {
		if side.u != nil {
			b = append(b, side.key...)
			b = jsonrec.AppendURL(b, side.u)
			b = b[:len(b)-1] // its newline
		}
	}
	return append(b, '}', '\n')
}
