package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// TestGetCallerValidators: with GetOptions.IfNoneMatch and
// IfModifiedSince the request is conditional on them, and a 304 is a
// Response of Status 304 with an empty body (no cache needed).
func TestGetCallerValidators(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("If-None-Match")+"|"+r.Header.Get("If-Modified-Since"))
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.Header().Set("ETag", `"v1"`)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v2"`)
		w.Write([]byte("body"))
	}))
	defer srv.Close()
	c, err := NewClient(ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		etag, since string
		status      int
		body, tag   string
	}{
		{`"v1"`, "Sun, 01 Nov 2026 10:00:00 GMT", 304, "", `"v1"`},
		{`"v0"`, "", 200, "body", `"v2"`},
		{"", "", 200, "body", `"v2"`},
	} {
		r, err := c.Get(context.Background(), srv.URL, GetOptions{IfNoneMatch: tt.etag, IfModifiedSince: tt.since})
		if err != nil {
			t.Fatalf("%s: %v", tt.etag, err)
		}
		b, _ := io.ReadAll(r)
		r.Close()
		if r.Status != tt.status || string(b) != tt.body || r.ETag != tt.tag || r.Cached {
			t.Errorf("%s: status %d, body %q, ETag %s, cached %v; want %d, %q, %s", tt.etag, r.Status, b, r.ETag, r.Cached, tt.status, tt.body, tt.tag)
		}
	}
	if want := []string{`"v1"|Sun, 01 Nov 2026 10:00:00 GMT`, `"v0"|`, "|"}; !slices.Equal(got, want) {
		t.Errorf("requests' validators %q, want %q", got, want)
	}
}

// revisit is an Options.Revisit that skips the children it is told to
// and knows an ETag per URL.
type revisit struct {
	mu    sync.Mutex
	etags map[string]string
	skip  map[string]bool
	asked []string // loc lastmod, as Skip was asked
}

func (r *revisit) Validators(u string) (string, string) { return r.etags[u], "" }

func (r *revisit) Skip(_, loc string, lastmod sitemap.Date) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, loc+" "+lastmod.String())
	return r.skip[loc]
}

// TestWalkRevisit: a child Revisit skips is not requested, a sitemap
// whose ETag still holds ends as NotModified with no entries, and the
// others are read as always, their validators on the node.
func TestWalkRevisit(t *testing.T) {
	var mu sync.Mutex
	requests := map[string]int{}
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests[r.URL.Path]++
		mu.Unlock()
		if r.URL.Path == "/index.xml" {
			w.Write([]byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
				`<sitemap><loc>` + srv.URL + `/1.xml</loc><lastmod>2026-11-01</lastmod></sitemap>` +
				`<sitemap><loc>` + srv.URL + `/2.xml</loc></sitemap><sitemap><loc>` + srv.URL + `/3.xml</loc></sitemap></sitemapindex>`))
			return
		}
		if r.Header.Get("If-None-Match") == `"same"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"new"`)
		w.Write([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + srv.URL + r.URL.Path + `/p</loc></url></urlset>`))
	}))
	defer srv.Close()
	rv := &revisit{etags: map[string]string{srv.URL + "/2.xml": `"same"`, srv.URL + "/3.xml": `"old"`}, skip: map[string]bool{srv.URL + "/1.xml": true}}
	var urls []string
	nodes := map[string]Node{}
	_, err := Walk(context.Background(), srv.URL+"/index.xml", Options{Revisit: rv}, func(ev Event) error {
		switch ev.Kind {
		case EventURL:
			urls = append(urls, ev.URL.Loc)
		case EventNodeEnd:
			nodes[ev.Node.URL] = *ev.Node
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(urls, []string{srv.URL + "/3.xml/p"}) {
		t.Errorf("entries %v, want only 3.xml's", urls)
	}
	if requests["/1.xml"] != 0 || requests["/2.xml"] != 1 || requests["/3.xml"] != 1 {
		t.Errorf("requests %v: want 1.xml skipped, 2.xml and 3.xml once", requests)
	}
	if n := nodes[srv.URL+"/2.xml"]; !n.NotModified || n.Status != 304 || n.URLs != 0 {
		t.Errorf("2.xml: %+v, want NotModified, 304, no URLs", n)
	}
	if n := nodes[srv.URL+"/3.xml"]; n.NotModified || n.ETag != `"new"` || n.URLs != 1 {
		t.Errorf("3.xml: %+v, want read, ETag \"new\"", n)
	}
	slices.Sort(rv.asked)
	if want := []string{srv.URL + "/1.xml 2026-11-01", srv.URL + "/2.xml ", srv.URL + "/3.xml "}; !slices.Equal(rv.asked, want) {
		t.Errorf("Skip asked %q, want %q", rv.asked, want)
	}
}
