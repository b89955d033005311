package crawl

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestBigPageIsReported: a page over MaxBodyBytes is read up to it and
// listed, and the links past it are not followed; the summary says so,
// naming the page, instead of losing those links in silence. A single
// token over the tokenizer's buffer (a text run of megabytes) stops the
// read the same way and is reported too.
func TestBigPageIsReported(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/":
			w.Write([]byte(`<a href="/big">big</a> <a href="/token">token</a> <a href="/small">small</a>`))
		case "/big":
			w.Write([]byte("<title>big</title>" + strings.Repeat("<p>lorem ipsum</p>", 10_000) + `<a href="/after">after</a>`))
		case "/token":
			w.Write([]byte("<title>token</title><p>" + strings.Repeat("x", 2<<20) + `</p><a href="/after2">after</a>`))
		default:
			w.Write([]byte("<p>page</p>"))
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	o := siteOptions()
	o.MaxBodyBytes = 50_000
	// One request at a time: the pages are read in the order the home
	// page links them, so /big is the first one read in part (with 4 at
	// once, /token could end first, one run in a few under -race).
	o.Concurrency = 1
	c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), srv.URL+"/", o)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Listed != 4 {
		t.Errorf("listed %d; want 4 (/, /big, /token, /small)", sum.Listed)
	}
	found := false
	for _, w := range sum.Warnings {
		if strings.Contains(w, "2 pages") && strings.Contains(w, srv.URL+"/big") && strings.Contains(w, "not followed") {
			found = true
		}
	}
	if !found {
		t.Errorf("warnings %q; want one counting the 2 pages read in part, naming %s/big", sum.Warnings, srv.URL)
	}
}
