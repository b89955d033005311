package fetch

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// benchSite serves an index of n gzip sitemaps of per URLs each (loc and
// lastmod, like bench/benchserve) from memory on 127.0.0.1.
func benchSite(b *testing.B, n, per int) *httptest.Server {
	b.Helper()
	var body bytes.Buffer
	zw := gzip.NewWriter(&body)
	zw.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n"))
	for k := range per {
		fmt.Fprintf(zw, "<url><loc>https://www.example.com/products/category-%d/item-%d.html</loc><lastmod>2026-%02d-%02dT10:00:00+00:00</lastmod></url>\n", k%97, k, 1+k%12, 1+k%28)
	}
	zw.Write([]byte("</urlset>\n"))
	zw.Close()
	gzBody := body.Bytes()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/sitemap_index.xml" {
			var locs []string
			for i := range n {
				locs = append(locs, srv.URL+"/sitemap-"+strconv.Itoa(i)+".xml.gz")
			}
			w.Write(index(locs...))
			return
		}
		if strings.HasPrefix(r.URL.Path, "/sitemap-") {
			w.Header().Set("Content-Type", "application/gzip")
			w.Write(gzBody)
			return
		}
		http.NotFound(w, r)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// BenchmarkWalk reads 8 sitemaps of 50,000 URLs through HTTP, end to end
// (decoder included, callback doing nothing); the URLs are the same in
// every sitemap, so NoDedup keeps the callback count honest.
func BenchmarkWalk(b *testing.B) {
	srv := benchSite(b, 8, 50000)
	b.ReportAllocs()
	var urls int64
	for b.Loop() {
		sum, err := Walk(b.Context(), srv.URL+"/sitemap_index.xml", Options{NoDedup: true, PerHost: 8}, func(Event) error { return nil })
		if err != nil || sum.URLs != 400000 {
			b.Fatal(err, sum)
		}
		urls += sum.URLs
	}
	b.ReportMetric(float64(urls)/b.Elapsed().Seconds(), "URLs/s")
}

// BenchmarkWalkDedup is BenchmarkWalk with deduplication on: every URL
// is listed 8 times, handed out once (each compared in its normal form).
func BenchmarkWalkDedup(b *testing.B) {
	srv := benchSite(b, 8, 50000)
	b.ReportAllocs()
	var urls int64
	for b.Loop() {
		sum, err := Walk(b.Context(), srv.URL+"/sitemap_index.xml", Options{PerHost: 8}, func(Event) error { return nil })
		if err != nil || sum.URLs != 50000 {
			b.Fatal(err, sum)
		}
		urls += 400000
	}
	b.ReportMetric(float64(urls)/b.Elapsed().Seconds(), "listed/s")
}
