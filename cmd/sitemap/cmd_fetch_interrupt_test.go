package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Ctrl-C (the context ends) in the middle of a walk: what was read is on
// standard output (the --tree so far, or the URLs), the summary is on
// standard error with a line saying the output is partial, and the exit
// status is 2. The message must not claim that nothing partial was
// written, as it is for generate.
func TestFetchInterruptedKeepsPartialOutput(t *testing.T) {
	for _, tree := range []bool{false, true} {
		started := make(chan struct{}, 1)
		mux := http.NewServeMux()
		var base string
		mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("Sitemap: " + base + "/a.xml\nSitemap: " + base + "/slow.xml\n"))
		})
		mux.HandleFunc("/a.xml", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/a</loc></url></urlset>`))
		})
		mux.HandleFunc("/slow.xml", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/s</loc></url>`))
			w.(http.Flusher).Flush()
			started <- struct{}{}
			<-r.Context().Done()
		})
		srv := httptest.NewServer(mux)
		base = srv.URL
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; cancel() }()
		var out, errb bytes.Buffer
		o := &fetchOptions{Start: srv.URL + "/"}
		o.KnownPaths, o.Format, o.Tree, o.Concurrency, o.PerHost = "never", "txt", tree, 1, 1
		err := runFetch(ctx, o, &streams{Out: &out, Err: &errb})
		cancel()
		srv.Close()
		ee, ok := err.(*exitError)
		if !ok || ee.Code != exitUsage || ee.Err == nil || !strings.Contains(ee.Err.Error(), "interrupted") || strings.Contains(ee.Err.Error(), "nothing partial") {
			t.Fatalf("tree=%v: err %v", tree, err)
		}
		want := "https://e.com/a\n"
		if tree {
			want = srv.URL + "/a.xml  [urlset, 1 URL]"
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("tree=%v: partial output lost: %q", tree, out.String())
		}
		if !strings.Contains(errb.String(), "fetch: ") || !strings.Contains(errb.String(), "sitemaps read") {
			t.Errorf("tree=%v: no summary: %q", tree, errb.String())
		}
	}
}
