package view

import (
	"context"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// An entry's own title (a CSV or JSONL title column) is the link text,
// white space collapsed and control characters out; it wins over
// PageOptions.Titles, which serves the entries without one.
func TestPagesEntryTitles(t *testing.T) {
	files := memFiles{}
	entries := []sitemap.URL{
		{Loc: "https://www.example.com/faq?x=1&y=2", Title: " Frequently\n asked\x00 questions "},
		{Loc: "https://www.example.com/about", Title: "About us"},
		{Loc: "https://www.example.com/contact"},
	}
	titles := func(_ context.Context, loc string) (string, error) {
		return "Crawled " + loc[strings.LastIndexByte(loc, '/')+1:], nil
	}
	if _, err := Pages(context.Background(), list(entries...), files.create, PageOptions{Titles: titles}); err != nil {
		t.Fatal(err)
	}
	text, _ := parse(t, files["index.html"].Bytes())
	for _, want := range []string{"Frequently asked questions", "About us", "Crawled contact"} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Faq (x=1") || strings.Contains(text, "Crawled about") {
		t.Errorf("a path or the crawl's title stood for the entry's:\n%s", text)
	}
}
