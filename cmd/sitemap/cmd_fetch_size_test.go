package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
)

// --dedup-memory at its smallest (1MiB, about 49,000 URLs in memory): the
// hashes go to the spill file, and
// every URL of overlapping sitemaps is still printed once; a bad size
// cannot run (exit 2).
func TestFetchDedupMemory(t *testing.T) {
	const per = 30000
	mux := http.NewServeMux()
	var idx strings.Builder
	idx.WriteString(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for k := range 3 {
		fmt.Fprintf(&idx, "<sitemap><loc>%s/s%d.xml</loc></sitemap>", srv.URL, k)
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := range per {
			fmt.Fprintf(&b, "<url><loc>https://www.example.com/p/%d</loc></url>", k*per/2+i)
		}
		b.WriteString("</urlset>")
		body := b.String()
		mux.HandleFunc("/s"+strconv.Itoa(k)+".xml", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(body))
		})
	}
	idx.WriteString("</sitemapindex>")
	mux.HandleFunc("/i.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Write([]byte(idx.String()))
	})
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	code, out, stderr := runCLI(t, "", "fetch", "--dedup-memory", "1MiB", srv.URL+"/i.xml")
	if code != exitOK {
		t.Fatalf("code %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l] {
			t.Fatalf("%s printed twice", l)
		}
		seen[l] = true
	}
	if want := per + 2*per/2; len(seen) != want {
		t.Fatalf("%d URLs printed, want %d", len(seen), want)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in $TMPDIR: %v", left)
	}
	if code, _, stderr := runCLI(t, "", "fetch", "--dedup-memory", "lots", srv.URL+"/i.xml"); code != exitUsage || !strings.Contains(stderr, "16MiB") {
		t.Errorf("bad size: code %d %s", code, stderr)
	}
}
