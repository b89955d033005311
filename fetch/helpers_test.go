package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

// site is a test web site on 127.0.0.1: path → handler; unknown paths 404.
type site struct {
	*httptest.Server
	mu     sync.Mutex
	routes map[string]http.HandlerFunc
	hits   map[string]int
}

func newSite(t *testing.T) *site {
	t.Helper()
	s := &site{routes: map[string]http.HandlerFunc{}, hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		h := s.routes[r.URL.Path]
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	s.routes[path] = h
	s.mu.Unlock()
}

func (s *site) hitCount(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// serve registers a fixed body with a content type (and optional extra
// headers as "Key: value").
func (s *site) serve(path, ctype string, body []byte, headers ...string) {
	s.handle(path, func(w http.ResponseWriter, r *http.Request) {
		for _, h := range headers {
			k, v, _ := strings.Cut(h, ": ")
			w.Header().Set(k, v)
		}
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		_, _ = w.Write(body)
	})
}

func urlset(locs ...string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "<url><loc>%s</loc></url>\n", l)
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func index(locs ...string) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>\n", l)
	}
	b.WriteString("</sitemapindex>\n")
	return b.Bytes()
}

func gz(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	_, _ = zw.Write(b)
	_ = zw.Close()
	return out.Bytes()
}

// result is everything a walk handed out.
type result struct {
	sum   Summary
	err   error
	urls  []sitemap.URL
	diags []sitemap.Diagnostic
	nodes map[int]Node // at NodeEnd
	order []int        // node IDs in start order
}

func (r *result) locs() []string {
	var s []string
	for _, u := range r.urls {
		s = append(s, u.Loc)
	}
	return s
}

// diag returns the first diagnostic with rule, or nil.
func (r *result) diag(rule string) *sitemap.Diagnostic {
	for i := range r.diags {
		if string(r.diags[i].Rule) == rule {
			return &r.diags[i]
		}
	}
	return nil
}

func (r *result) node(url string) (Node, bool) {
	for _, n := range r.nodes {
		if n.URL == url || n.FinalURL == url {
			return n, true
		}
	}
	return Node{}, false
}

// fastOpts are short timeouts so the failure tests stay quick (the idle one
// long enough for a server paused by a loaded machine under -race).
func fastOpts() Options {
	return Options{
		IdleTimeout:    2 * time.Second,
		SitemapTimeout: 3 * time.Second,
		HeaderTimeout:  2 * time.Second,
		RetryBase:      10 * time.Millisecond,
		RetryMax:       2 * time.Second,
	}
}

func walk(t *testing.T, start string, o Options) *result {
	t.Helper()
	r := &result{nodes: map[int]Node{}}
	started := map[int]bool{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r.sum, r.err = Walk(ctx, start, o, func(ev Event) error {
		switch ev.Kind {
		case EventURL:
			if !started[ev.NodeID] {
				t.Errorf("URL %s before the start of node %d", ev.URL.Loc, ev.NodeID)
			}
			r.urls = append(r.urls, *ev.URL)
		case EventDiagnostic:
			r.diags = append(r.diags, *ev.Diagnostic)
		case EventNodeStart:
			if ev.Node.Parent != 0 && !started[ev.Node.Parent] {
				t.Errorf("node %d (%s) started before its parent %d", ev.Node.ID, ev.Node.URL, ev.Node.Parent)
			}
			started[ev.NodeID] = true
			r.order = append(r.order, ev.NodeID)
		case EventNodeEnd:
			r.nodes[ev.NodeID] = *ev.Node
		}
		return nil
	})
	if t.Failed() {
		for _, d := range r.diags {
			t.Log(d.String())
		}
	}
	return r
}
