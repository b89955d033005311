package input

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// IsSiteStart reports whether name is a site to find the sitemaps of
// rather than a document: an http(s) URL whose path is empty or "/" (a
// homepage), or /robots.txt. What [Discover] takes. A URL of a directory
// below the root (https://www.example.com/feed/) is a document: feeds and
// some sitemaps are served at such URLs.
func IsSiteStart(name string) bool {
	if !urlnorm.IsHTTP(name) {
		return false
	}
	u, err := url.Parse(name)
	if err != nil || u.Host == "" {
		return false
	}
	return u.Path == "" || u.Path == "/" || strings.EqualFold(u.Path, "/robots.txt")
}

// Discover returns the URLs of the sitemaps the site start (IsSiteStart)
// leads to, as package fetch finds them and without reading them: the
// Sitemap: lines of its robots.txt, else the well-known paths that answer
// with a sitemap (fetch.Options.Discover). Each URL is given once, in the
// order found. o.Client makes the requests. What the search says goes to
// diag (which may be nil): robots.txt problems, retries, and a FETCH-NONE
// error when it finds no sitemap (the result is then empty). A site where
// nothing answered (DNS, connection refused, TLS) is an [*OpenError];
// other errors are ctx's.
func Discover(ctx context.Context, start string, o Options, diag func(sitemap.Diagnostic)) ([]string, error) {
	doc := &Doc{Name: start, URL: start}
	if o.Client == nil {
		return nil, &OpenError{Doc: doc, Err: errors.New("http(s) input needs an HTTP client (input.Options.Client)")}
	}
	type hit struct {
		url  string
		rank int
	}
	var hits []hit
	seen := map[string]bool{}
	sum, err := fetch.Walk(ctx, start, fetch.Options{HTTP: o.Client, Discover: true}, func(ev fetch.Event) error {
		switch {
		case ev.Kind == fetch.EventDiagnostic && ev.Diagnostic != nil:
			if diag != nil {
				d := *ev.Diagnostic
				if d.URL == "" && d.File == "" {
					d.URL = start
				}
				diag(d)
			}
		case ev.Kind == fetch.EventNodeEnd && ev.Node.Kind == fetch.NodeSitemap:
			u := ev.Node.FinalURL
			if u == "" {
				u = ev.Node.URL
			}
			if !seen[u] {
				seen[u] = true
				hits = append(hits, hit{u, discoverRank(ev.Node)})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The walk reads at once and reports as each ends: put the sitemaps in
	// the order robots.txt names them, then the well-known paths' order.
	slices.SortStableFunc(hits, func(a, b hit) int { return a.rank - b.rank })
	found := make([]string, len(hits))
	for i, h := range hits {
		found[i] = h.url
	}
	if sum.StartErr != nil && len(found) == 0 {
		return nil, &OpenError{Doc: doc, Err: fmt.Errorf("the site did not answer: %w", sum.StartErr)}
	}
	return found, nil
}

// discoverRank orders the sitemaps Discover finds: those robots.txt names
// (or the start, a sitemap) by their place there, then the well-known
// paths in the order they are tried.
func discoverRank(n *fetch.Node) int {
	if !n.Probe {
		return n.Seq
	}
	u := n.URL
	for i, p := range fetch.ProbePaths() {
		if strings.HasSuffix(u, p) {
			return 1<<20 + i
		}
	}
	return 1 << 21
}
