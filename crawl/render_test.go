package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// failingRenderer renders the pages of its map and fails the others, and
// records the URLs it was asked for.
type failingRenderer struct {
	pages map[string]string // path → rendered HTML
	mu    sync.Mutex
	asked []string
}

func (f *failingRenderer) Render(ctx context.Context, pageURL string) (Rendered, error) {
	f.mu.Lock()
	f.asked = append(f.asked, pageURL)
	f.mu.Unlock()
	for p, h := range f.pages {
		if strings.HasSuffix(pageURL, p) {
			return Rendered{HTML: []byte(h)}, nil
		}
	}
	return Rendered{}, errors.New("the browser crashed")
}

// TestRenderRules: only 200 HTML pages allowed by robots.txt are
// rendered (not a redirect, a 404, a PDF, a disallowed URL); a page the
// renderer fails on is read from its raw HTML and counted as not
// rendered; an empty rendered page is not listed.
func TestRenderRules(t *testing.T) {
	mux := http.NewServeMux()
	html := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>"+body+"</body></html>")
		}
	}
	mux.HandleFunc("/{$}", html(`<a href="/crash">c</a> <a href="/empty">e</a> <a href="/r">r</a> <a href="/gone">g</a> <a href="/doc.pdf">d</a> <a href="/no/x">n</a>`))
	mux.HandleFunc("/crash", html(`<p>raw text</p><a href="/raw-link">raw</a>`))
	mux.HandleFunc("/raw-link", html(`<p>a page</p>`))
	mux.HandleFunc("/empty", html(`<div id="root"></div>`))
	mux.HandleFunc("/r", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/", http.StatusMovedPermanently) })
	mux.HandleFunc("/doc.pdf", func(w http.ResponseWriter, r *http.Request) { w.Header().Set("Content-Type", "application/pdf") })
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "User-agent: *\nDisallow: /no/\n") })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	fr := &failingRenderer{pages: map[string]string{
		"/":         `<html><body><p>home</p><a href="/crash">c</a> <a href="/empty">e</a> <a href="/r">r</a> <a href="/gone">g</a> <a href="/doc.pdf">d</a> <a href="/no/x">n</a></body></html>`,
		"/raw-link": `<html><body><p>a page</p></body></html>`,
		"/empty":    `<html><head></head><body><div id="root"></div></body></html>`,
	}}
	ctx := context.Background()
	c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), srv.URL+"/", Options{Rate: -1, Render: fr})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Outcome{}
	_ = c.Outcomes(ctx, func(o Outcome) error { got[strings.TrimPrefix(o.URL, srv.URL)] = o; return nil })
	if len(fr.asked) != 4 {
		t.Errorf("rendered %v, want /, /crash, /empty and /raw-link only", fr.asked)
	}
	if o := got["/crash"]; !o.Included || o.Render == nil || o.Render.Error != "the browser crashed" {
		t.Errorf("/crash: %+v, want listed from its raw HTML with the error", o)
	}
	if o := got["/raw-link"]; o.Status != 200 {
		t.Errorf("/raw-link: %+v, want fetched: a link of the raw HTML of a page that failed to render", o)
	}
	if o := got["/empty"]; o.Reason != ReasonEmpty || o.Render == nil || !o.Render.Empty {
		t.Errorf("/empty: %+v, want reason empty", o)
	}
	if r := sum.Render; r == nil || r.Rendered != 4 || r.Failed != 1 || r.Empty != 1 {
		t.Errorf("summary %+v", sum.Render)
	}
}
