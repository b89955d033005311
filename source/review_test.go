package source

import (
	"strings"
	"testing"
)

// A CSV file without a telling extension (standard input, .tsv) is
// recognised by its header row whatever separator New's doc and NewCSV
// allow: comma, semicolon or tab, and with a BOM or CRLF line ends.
func TestSniffCSVHeaders(t *testing.T) {
	for _, in := range []string{
		"loc,lastmod\nhttps://a.example/x,2026-01-02\n",
		"loc;lastmod\nhttps://a.example/x;2026-01-02\n",
		"loc\tlastmod\nhttps://a.example/x\t2026-01-02\n",
		"\ufeffLOC\tlastmod\r\nhttps://a.example/x\t2026-01-02\r\n",
		"\"loc\",\"lastmod\"\nhttps://a.example/x,2026-01-02\n",
	} {
		for _, name := range []string{"-", "urls.tsv"} {
			r, err := New(strings.NewReader(in), Options{Name: name})
			if err != nil {
				t.Fatalf("%q: %v", in, err)
			}
			rec, err := r.Next()
			if err != nil || rec.URL.Loc != "https://a.example/x" || rec.URL.LastMod.IsZero() {
				t.Errorf("%s %q: got %+v, %v; want the CSV record with its lastmod", name, in, rec.URL, err)
			}
		}
	}
}
