package source

import (
	"io"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/record"
)

// JSONLWriter writes JSONL entry records, the format [NewJSONL] reads:
// one JSON object per line, field names from the protocol ("loc",
// "lastmod", "images", "alternates", …, and "source"), empty fields left
// out. The bytes are those of encoding/json with HTML escaping off (a URL
// keeps its & and <), written several times faster for the fields nearly
// every entry has.
//
// Each Write is one call to the underlying writer: wrap it in a
// bufio.Writer for many records.
type JSONLWriter struct {
	w   io.Writer
	buf []byte
}

// NewJSONLWriter returns a JSONLWriter writing to w.
func NewJSONLWriter(w io.Writer) *JSONLWriter { return &JSONLWriter{w: w} }

// Write writes the record of u and a newline. A NaN or infinite priority,
// which JSON cannot hold (and no reader produces), is left out.
func (j *JSONLWriter) Write(u *sitemap.URL) error {
	j.buf = record.AppendURL(j.buf[:0], u)
	_, err := j.w.Write(j.buf)
	return err
}

// WriteIndex writes the record of an index entry ({"loc", "lastmod",
// "source"}) and a newline.
func (j *JSONLWriter) WriteIndex(x *sitemap.IndexEntry) error {
	j.buf = record.AppendIndex(j.buf[:0], x)
	_, err := j.w.Write(j.buf)
	return err
}

// AppendJSONL appends the record of u and a newline to b, as
// [JSONLWriter.Write] writes it.
func AppendJSONL(b []byte, u *sitemap.URL) []byte { return record.AppendURL(b, u) }
