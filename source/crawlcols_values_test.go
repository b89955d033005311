package source

import (
	"slices"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/rules"
)

// TestCSVCrawlValuesSpelledOut: a status written with its reason phrase
// ("301 Moved Permanently", Screaming Frog's Status column, a custom
// export) is read by its code, and an indexability column holding a
// robots directive or a crawler's reason ("noindex, follow",
// "Canonicalised", "Blocked by Robots.txt") says the page is not
// indexable; "index, follow", "Indexable" and "200 OK" are published.
func TestCSVCrawlValuesSpelledOut(t *testing.T) {
	cols, err := ParseColumns("status=Code,indexability=Robots")
	if err != nil {
		t.Fatal(err)
	}
	cols = append(cols, ColumnMap{Field: "loc", Header: "Page"})
	in := "Page,Code,Robots\n" +
		"https://a.example/ok,200 OK,\"index, follow\"\n" +
		"https://a.example/moved,301 Moved Permanently,\n" +
		"https://a.example/gone,HTTP 404 Not Found,\n" +
		"https://a.example/blocked,Blocked by robots.txt,\n" +
		"https://a.example/nofollow,200,\"noindex, follow\"\n" +
		"https://a.example/NOINDEX,200,NOINDEX\n" +
		"https://a.example/canon,200,Canonicalised\n" +
		"https://a.example/robots,200,Blocked by Robots.txt\n" +
		"https://a.example/idx,200,Indexable\n"
	var omitted []rules.ID
	var msgs []string
	_, recs, err := drain(t, NewCSV(strings.NewReader(in), Options{Columns: cols, Omitted: func(e *Error) {
		omitted = append(omitted, e.Rule)
		msgs = append(msgs, e.Message)
	}}))
	if err != nil {
		t.Fatal(err)
	}
	var locs []string
	for _, r := range recs {
		locs = append(locs, r.URL.Loc)
	}
	if want := []string{"https://a.example/ok", "https://a.example/idx"}; !slices.Equal(locs, want) {
		t.Errorf("published %q, want %q", locs, want)
	}
	want := []rules.ID{rules.SRC07, rules.SRC07, rules.SRC07, rules.SRC08, rules.SRC08, rules.SRC08, rules.SRC08}
	if !slices.Equal(omitted, want) {
		t.Errorf("omitted %v, want %v\n%s", omitted, want, strings.Join(msgs, "\n"))
	}
	if len(msgs) > 0 && !strings.Contains(msgs[0], "status 301") {
		t.Errorf("message %q does not give the code", msgs[0])
	}
}
