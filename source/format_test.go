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

// A loc that is already XML-escaped ("&amp;", copied from a sitemap) is
// read as given (E-05: input URLs are plain) with one warning that says
// the sitemap would then carry "&amp;amp;".
func TestWarnXMLEscapedLoc(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"urls.txt", "https://a.example/x?a=1&amp;b=2\nhttps://a.example/y?a=1&b=2\n"},
		{"urls.csv", "loc\nhttps://a.example/x?a=1&amp;b=2\nhttps://a.example/y?a=1&b=2\n"},
		{"urls.jsonl", `{"loc":"https://a.example/x?a=1&amp;b=2"}` + "\n" + `{"loc":"https://a.example/y?a=1&b=2"}` + "\n"},
	} {
		var warns []*Error
		r, err := New(strings.NewReader(tc.in), Options{Name: tc.name, Warn: func(e *Error) { warns = append(warns, e) }})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := drain(t, r)
		if err != nil || len(got) != 2 || got[0].loc != "https://a.example/x?a=1&amp;b=2" {
			t.Fatalf("%s: %+v, %v", tc.name, got, err)
		}
		if len(warns) != 1 || warns[0].Line != got[0].line || warns[0].Rule != "E-05" || !strings.Contains(warns[0].Error(), "&amp;amp;") {
			t.Errorf("%s: warnings %+v, want one E-05 warning on line %d", tc.name, warns, got[0].line)
		}
	}
}

// A column mapping applies to CSV: New warns once (SRC-05) that it is
// ignored for a URL list or a JSONL input, whose entries it reads as
// without a mapping, and says nothing for a CSV input.
func TestColumnsOnlyForCSV(t *testing.T) {
	cols := []ColumnMap{{Field: "loc", Header: "Link"}}
	for _, tc := range []struct{ name, in, want string }{
		{"urls.txt", "https://a.example/x\nhttps://a.example/y\n", "a URL list"},
		{"urls.jsonl", `{"loc":"https://a.example/x"}` + "\n" + `{"loc":"https://a.example/y"}` + "\n", "JSONL"},
		{"urls.csv", "Link\nhttps://a.example/x\nhttps://a.example/y\n", ""},
	} {
		var warns []*Error
		r, err := New(strings.NewReader(tc.in), Options{Name: tc.name, Columns: cols, Warn: func(e *Error) { warns = append(warns, e) }})
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := drain(t, r)
		if err != nil || len(got) != 2 || got[0].loc != "https://a.example/x" {
			t.Fatalf("%s: %+v, %v", tc.name, got, err)
		}
		if tc.want == "" {
			if len(warns) != 0 {
				t.Errorf("%s: warnings %+v, want none", tc.name, warns)
			}
			continue
		}
		if len(warns) != 1 || warns[0].Rule != "SRC-05" || !strings.Contains(warns[0].Message, tc.want) {
			t.Errorf("%s: warnings %+v, want one SRC-05 warning naming %s", tc.name, warns, tc.want)
		}
	}
}
