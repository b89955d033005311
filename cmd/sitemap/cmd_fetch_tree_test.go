package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/fetch"
)

// TestFetchTreeIndexOrder: --tree lists an index's children in the
// index's order, whatever order they were read in (concurrently, so the
// first to finish came first), nor sorted by URL. The index lists s3,
// s2, s1, while they were read (IDs) and sort by URL as s1, s2, s3.
func TestFetchTreeIndexOrder(t *testing.T) {
	tr := newFetchTree()
	tr.node(&fetch.Node{ID: 1, Kind: fetch.NodeSitemap, URL: "https://www.example.com/index.xml", Format: "sitemapindex"})
	for i := 3; i >= 1; i-- {
		tr.node(&fetch.Node{ID: 10 + i, Parent: 1, Seq: 4 - i, Kind: fetch.NodeSitemap, Depth: 2, URL: fmt.Sprintf("https://www.example.com/s%d.xml", i), Format: "urlset"})
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	tr.write(w)
	w.Flush()
	i1, i2, i3 := strings.Index(b.String(), "s3.xml"), strings.Index(b.String(), "s2.xml"), strings.Index(b.String(), "s1.xml")
	if i1 < 0 || i1 > i2 || i2 > i3 {
		t.Errorf("children not in index order:\n%s", b.String())
	}
}

// TestFetchNodeSeq: fetch gives each child of an index its position in
// the index (Node.Seq), which the tree sorts by.
func TestFetchNodeSeq(t *testing.T) {
	var base string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/c.xml</loc></sitemap><sitemap><loc>%[1]s/a.xml</loc></sitemap><sitemap><loc>%[1]s/b.xml</loc></sitemap></sitemapindex>`, base)
			return
		}
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s%s</loc></url></urlset>`, base, strings.TrimSuffix(r.URL.Path, ".xml"))
	}))
	defer srv.Close()
	base = srv.URL
	seq := map[string]int{}
	_, err := fetch.Walk(t.Context(), srv.URL+"/index.xml", fetch.Options{}, func(ev fetch.Event) error {
		if ev.Kind == fetch.EventNodeEnd && ev.Node != nil {
			seq[strings.TrimPrefix(ev.Node.URL, base)] = ev.Node.Seq
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seq["/c.xml"] != 1 || seq["/a.xml"] != 2 || seq["/b.xml"] != 3 {
		t.Errorf("Seq %v, want c.xml 1, a.xml 2, b.xml 3", seq)
	}
}

// TestFetchTreeJSON: --tree --format json prints the tree as one JSON
// object: the start, robots.txt, the index and its children in order,
// each with its counts and problems (the text tree had no JSON form).
func TestFetchTreeJSON(t *testing.T) {
	srv := fetchSite(t)
	code, out, errOut := runCLI(t, "", "fetch", "--tree", "--format", "json", srv.URL+"/")
	if code != exitProblems { // P-01 in a.xml
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var root fetchTreeJSON
	if err := json.Unmarshal([]byte(out), &root); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if root.Kind != "start" || len(root.Children) != 1 || root.Children[0].Kind != "robots" {
		t.Fatalf("tree:\n%s", out)
	}
	idx := root.Children[0].Children
	if len(idx) != 1 || idx[0].Format != "sitemapindex" || len(idx[0].Children) != 2 ||
		!strings.HasSuffix(idx[0].Children[0].URL, "/a.xml") || !strings.HasSuffix(idx[0].Children[1].URL, "/b.xml") ||
		idx[0].Children[0].URLs != 2 || idx[0].Children[0].Errors != 1 || len(idx[0].Children[0].Problems) != 1 {
		t.Errorf("tree:\n%s", out)
	}
	if code, _, _ := runCLI(t, "", "fetch", "--tree", "--format", "csv", srv.URL+"/"); code != exitUsage {
		t.Errorf("--tree --format csv: exit %d, want 2", code)
	}
}

// TestFetchTreeURLs: --tree --urls lists each sitemap's URLs beneath it,
// grouped by the sitemap that listed them, sitemaps in the index's order
// whatever order they were read in; --urls without --tree, or with
// --format json, is refused.
func TestFetchTreeURLs(t *testing.T) {
	var base string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/index.xml":
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/b.xml</loc></sitemap><sitemap><loc>%[1]s/a.xml</loc></sitemap></sitemapindex>`, base)
		case "/a.xml", "/b.xml":
			p := strings.TrimSuffix(r.URL.Path, ".xml")
			fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s%[2]s/1</loc></url><url><loc>%[1]s%[2]s/2</loc></url></urlset>`, base, p)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	base = srv.URL
	code, out, errb := runCLI(t, "", "fetch", "--tree", "--urls", srv.URL+"/index.xml")
	want := srv.URL + "/index.xml  [sitemapindex, 2 sitemaps]\n" +
		"    " + srv.URL + "/b.xml  [urlset, 2 URLs]\n" +
		"        " + srv.URL + "/b/1\n" +
		"        " + srv.URL + "/b/2\n" +
		"    " + srv.URL + "/a.xml  [urlset, 2 URLs]\n" +
		"        " + srv.URL + "/a/1\n" +
		"        " + srv.URL + "/a/2\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d, output:\n%s\nwant:\n%s\n%s", code, out, want, errb)
	}
	for _, args := range [][]string{{"fetch", "--urls", srv.URL + "/index.xml"}, {"fetch", "--tree", "--urls", "--format", "json", srv.URL + "/index.xml"}} {
		if code, _, errb := runCLI(t, "", args...); code != exitUsage || !strings.Contains(errb, "--urls") {
			t.Errorf("%v: exit %d\n%s", args, code, errb)
		}
	}
}
