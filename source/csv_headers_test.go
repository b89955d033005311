package source

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestCSVOtherToolsHeaders: the exports of other tools are read as they
// come: Screaming Frog (Address, Last Modified, dozens of other columns),
// Ahrefs and Sitebulb (URL), Google Search Console (Top pages, Page); the
// entry record's own name wins over another tool's for the same field.
func TestCSVOtherToolsHeaders(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		loc, mod string
		warn     string
	}{
		{"screaming frog", `"Address","Content Type","Status Code","Status","Indexability","Title 1","Last Modified","Crawl Depth"` + "\n" +
			`"https://a.example/","text/html; charset=utf-8","200","OK","Indexable","Home","2026-01-02 10:11:12","0"` + "\n",
			"https://a.example/", "2026-01-02T10:11:12", `ignoring column(s) "Content Type", "Status Code", "Status", "Indexability", "Title 1", "Crawl Depth"`},
		{"screaming frog, HTTP date", "Address,Last Modified\nhttps://a.example/,\"Thu, 01 Jan 2026 03:04:05 GMT\"\n",
			"https://a.example/", "2026-01-01T03:04:05Z", ""},
		{"ahrefs", "\"URL\",\"Traffic\",\"Keywords\"\n\"https://a.example/\",\"12\",\"3\"\n", "https://a.example/", "", `"Traffic"`},
		{"search console pages", "Top pages,Clicks,Impressions,CTR,Position\nhttps://a.example/,10,100,10%,3.1\n", "https://a.example/", "", `"Clicks"`},
		{"search console page", "Page\tClicks\nhttps://a.example/\t10\n", "https://a.example/", "", `"Clicks"`},
		{"own name wins", "URL,loc,last_modified\nhttps://other.example/,https://a.example/,2026-03-04\n", "https://a.example/", "2026-03-04", `"URL"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warns []string
			if f := sniffString(tc.in); f != FormatCSV {
				t.Errorf("sniffed as %v, want csv", f)
			}
			_, recs, err := drain(t, NewCSV(strings.NewReader(tc.in), Options{Name: "x.csv", Warn: func(e *Error) { warns = append(warns, e.Error()) }}))
			if err != nil || len(recs) != 1 {
				t.Fatalf("recs %+v, err %v", recs, err)
			}
			if u := recs[0].URL; u.Loc != tc.loc || !strings.HasPrefix(u.LastMod.String(), tc.mod) || (tc.mod == "" && !u.LastMod.IsZero()) {
				t.Errorf("loc %q lastmod %q, want %q %q", u.Loc, u.LastMod, tc.loc, tc.mod)
			}
			found := tc.warn == ""
			for _, w := range warns {
				found = found || strings.Contains(w, "ignoring column(s)") && strings.Contains(w, tc.warn)
			}
			if !found {
				t.Errorf("warnings %q, want one ignoring %s", warns, tc.warn)
			}
		})
	}
	// A list of URLs stays text.
	for _, in := range []string{"https://a.example/page,1\n", "https://a.example/\nURL\n"} {
		if f := sniffString(in); f != FormatText {
			t.Errorf("%q sniffed as %v, want text", in, f)
		}
	}
}

func sniffString(in string) Format {
	r, err := New(strings.NewReader(in), Options{})
	if err != nil {
		return FormatAuto
	}
	switch r.(type) {
	case *csvReader:
		return FormatCSV
	case *textReader:
		return FormatText
	}
	return FormatJSONL
}

// TestCSVColumns: a column mapping reads a field from the column it
// names, whatever that is called; a mapped column that is not there, and
// a header with no loc column at all, say which columns there are.
func TestCSVColumns(t *testing.T) {
	cols, err := ParseColumns(`loc=Page Address, lastmod="Modified, UTC"`)
	if err != nil {
		t.Fatal(err)
	}
	in := "Title,Page Address,\"Modified, UTC\"\nHome,https://a.example/,2026-05-06\n"
	_, recs, err := drain(t, NewCSV(strings.NewReader(in), Options{Columns: cols}))
	if err != nil || len(recs) != 1 || recs[0].URL.Loc != "https://a.example/" || recs[0].URL.LastMod.String() != "2026-05-06" {
		t.Fatalf("recs %+v, err %v", recs, err)
	}
	for _, tc := range []struct {
		in, cols, want string
	}{
		{"Title,Link\nHome,https://a.example/\n", "", `h.csv:1:1: the header row has no loc column (it has "Title", "Link"); name it loc (or URL, Address, Page), or say which column holds the URLs with a column mapping (--columns loc=NAME) (SRC-02)`},
		{"Title,Link\nHome,https://a.example/\n", "loc=Href", `h.csv:1:1: column mapping loc="Href": the header row has no column "Href"; it has "Title", "Link" (SRC-02)`},
	} {
		cols, err := ParseColumns(tc.cols)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = drain(t, NewCSV(strings.NewReader(tc.in), Options{Name: "h.csv", Columns: cols}))
		var e *Error
		if err == nil || errors.As(err, &e) || !errors.Is(err, ErrFormat) || err.Error() != tc.want {
			t.Errorf("%q with %q: err %v\nwant %s", tc.in, tc.cols, err, tc.want)
		}
	}
}

func TestParseColumns(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []ColumnMap
		err  string
	}{
		{"", nil, ""},
		{"loc=Address", []ColumnMap{{"loc", "Address"}}, ""},
		{`loc=Address,lastmod="Last Modified"`, []ColumnMap{{"loc", "Address"}, {"lastmod", "Last Modified"}}, ""},
		{`LOC = Address , lastmod=Last Modified`, []ColumnMap{{"loc", "Address"}, {"lastmod", "Last Modified"}}, ""},
		{`loc="a ""b"", c"`, []ColumnMap{{"loc", `a "b", c`}}, ""},
		{"Address", nil, `"Address" is not FIELD=HEADER`},
		{"title=Title", nil, `"title" is not a field`},
		{"loc=", nil, "loc=: give the name"},
		{`loc="Address`, nil, "not closed"},
		{`loc="A"x`, nil, "text after the closing quote"},
		{"loc=A,loc=B", nil, "loc is mapped twice"},
	} {
		got, err := ParseColumns(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseColumns(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("ParseColumns(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("ParseColumns(%q) = %v; want %v", tc.in, got, tc.want)
			}
		}
	}
}

// FuzzCSVColumns: any mapping ParseColumns accepts, over any CSV, reads
// without a panic and with sane positions; every mapping it accepts
// names fields only and each once.
func FuzzCSVColumns(f *testing.F) {
	f.Add([]byte("Address,Last Modified\nhttps://a.example/,2026-01-01\n"), `loc=Address,lastmod="Last Modified"`)
	f.Add([]byte("\"Top pages\",Clicks\nhttps://a.example/,1\n"), "")
	f.Add([]byte("a,b\n1,2\n"), "loc=b,priority=a")
	f.Add([]byte("URL;loc\nx;y\n"), `loc="URL"`)
	f.Fuzz(func(t *testing.T, in []byte, cols string) {
		ms, err := ParseColumns(cols)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, m := range ms {
			if colIndex(m.Field) < 0 || seen[m.Field] || m.Header == "" {
				t.Fatalf("ParseColumns(%q) = %v", cols, ms)
			}
			seen[m.Field] = true
		}
		fuzzRead(t, in, func(r io.Reader, o Options) Reader { o.Columns = ms; return NewCSV(r, o) }, 0)
	})
}
