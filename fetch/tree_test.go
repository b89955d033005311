package fetch_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/fetch"
)

// TestTreeIndexOrder: a Tree lists an index's children in the
// index's order, whatever order they were read in (concurrently, so the
// first to finish came first), nor sorted by URL. The index lists s3,
// s2, s1, while they were read (IDs) and sort by URL as s1, s2, s3.
func TestTreeIndexOrder(t *testing.T) {
	tr, _ := fetch.NewTree(fetch.TreeOptions{})
	node := func(n *fetch.Node) { tr.Event(fetch.Event{Kind: fetch.EventNodeEnd, NodeID: n.ID, Node: n}) }
	node(&fetch.Node{ID: 1, Kind: fetch.NodeSitemap, URL: "https://www.example.com/index.xml", Format: "sitemapindex"})
	for i := 3; i >= 1; i-- {
		node(&fetch.Node{ID: 10 + i, Parent: 1, Seq: 4 - i, Kind: fetch.NodeSitemap, Depth: 2, URL: fmt.Sprintf("https://www.example.com/s%d.xml", i), Format: "urlset"})
	}
	var b bytes.Buffer
	if err := tr.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	i1, i2, i3 := strings.Index(b.String(), "s3.xml"), strings.Index(b.String(), "s2.xml"), strings.Index(b.String(), "s1.xml")
	if i1 < 0 || i1 > i2 || i2 > i3 {
		t.Errorf("children not in index order:\n%s", b.String())
	}
}

// TestNodeSeq: a walk gives each child of an index its position in
// the index (Node.Seq), which the tree sorts by.
func TestNodeSeq(t *testing.T) {
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
