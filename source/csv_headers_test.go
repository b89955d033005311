package source

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
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
			"https://a.example/", "2026-01-02T10:11:12", `ignoring column(s) "Content Type", "Status", "Crawl Depth"`},
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
		{"tags=Tags", nil, `"tags" is not a field`},
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

// TestCSVCrawlerExports: the exports of crawlers in testdata/exports are
// read as their authors meant them: only the rows that answer 200, are
// indexable and are their own canonical are entries; the others are left
// out, each once with its rule (SRC-07, SRC-08, SRC-09), and AllRows
// keeps them.
func TestCSVCrawlerExports(t *testing.T) {
	for _, tc := range []struct {
		file    string
		locs    []string
		omitted []rules.ID // in row order
	}{
		{"screaming-frog-internal-all.csv", []string{"https://www.example.com/", "https://www.example.com/a"},
			[]rules.ID{rules.SRC07, rules.SRC07, rules.SRC08, rules.SRC08}},
		{"ahrefs-site-audit.csv", []string{"https://www.example.com/", "https://www.example.com/a"},
			[]rules.ID{rules.SRC07, rules.SRC07, rules.SRC08, rules.SRC09}},
		{"sitebulb-url-explorer.csv", []string{"https://www.example.com/", "https://www.example.com/a"},
			[]rules.ID{rules.SRC07, rules.SRC07, rules.SRC08, rules.SRC09}},
		{"semrush-site-audit-crawled-pages.csv", []string{"https://www.example.com/", "https://www.example.com/a"},
			[]rules.ID{rules.SRC07, rules.SRC07, rules.SRC08, rules.SRC09}},
		{"search-console-performance-pages.csv", []string{"https://www.example.com/", "https://www.example.com/a"}, nil},
		{"search-console-page-indexing.csv", []string{"https://www.example.com/", "https://www.example.com/a"}, nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join("testdata", "exports", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, all := range []bool{false, true} {
				var omitted []rules.ID
				r, err := New(bytes.NewReader(in), Options{Name: tc.file, AllRows: all, Omitted: func(e *Error) {
					if e.Severity != sitemap.SeverityInfo || e.Line < 2 || !strings.Contains(e.Message, "--all-rows") {
						t.Errorf("omitted: %+v", e)
					}
					omitted = append(omitted, e.Rule)
				}})
				if err != nil {
					t.Fatal(err)
				}
				_, recs, err := drain(t, r)
				if err != nil {
					t.Fatal(err)
				}
				var locs []string
				for _, rec := range recs {
					locs = append(locs, rec.URL.Loc)
				}
				if hasTitles := !strings.HasPrefix(tc.file, "search-console"); hasTitles && recs[0].URL.Title != "Home" {
					t.Errorf("title %q, want the export's Home", recs[0].URL.Title)
				}
				want, wantOmitted := tc.locs, tc.omitted
				if all {
					want, wantOmitted = nil, nil
					if len(tc.omitted) == 0 {
						want = tc.locs
					}
				}
				if all && len(tc.omitted) > 0 {
					if len(locs) != len(tc.locs)+len(tc.omitted) {
						t.Errorf("AllRows: %d rows, want %d", len(locs), len(tc.locs)+len(tc.omitted))
					}
				} else if !slices.Equal(locs, want) {
					t.Errorf("AllRows %v: locs %q, want %q", all, locs, want)
				}
				if !slices.Equal(omitted, wantOmitted) {
					t.Errorf("AllRows %v: omitted %v, want %v", all, omitted, wantOmitted)
				}
			}
		})
	}
}

// TestCSVCrawlColumnsMapped: --columns names a crawl column a tool calls
// otherwise; a relative canonical resolves against the row's loc, and a
// canonical spelled differently (case of the host) is the page itself.
func TestCSVCrawlColumnsMapped(t *testing.T) {
	cols, err := ParseColumns("status=Code,indexability=Index?,canonical=Rel Canonical")
	if err != nil {
		t.Fatal(err)
	}
	in := "Link,Code,Index?,Rel Canonical\n" +
		"https://a.example/x,200,yes,/x\n" +
		"https://a.example/y,200,Yes,https://A.example/y\n" +
		"https://a.example/z,200,no,\n" +
		"https://a.example/w,410,,\n" +
		"https://a.example/v,,,/x\n"
	cols = append(cols, ColumnMap{Field: "loc", Header: "Link"})
	var omitted []rules.ID
	_, recs, err := drain(t, NewCSV(strings.NewReader(in), Options{Columns: cols, Omitted: func(e *Error) { omitted = append(omitted, e.Rule) }}))
	if err != nil || len(recs) != 2 || recs[1].URL.Loc != "https://a.example/y" {
		t.Fatalf("%v %+v", err, recs)
	}
	if !slices.Equal(omitted, []rules.ID{rules.SRC08, rules.SRC07, rules.SRC09}) {
		t.Errorf("omitted %v", omitted)
	}
}
