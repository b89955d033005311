package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/fetch"
)

// TestFetchTreeJSON: --tree --format json prints the tree as one JSON
// object: the start, robots.txt, the index and its children in order,
// each with its counts and problems (the text tree had no JSON form).
func TestFetchTreeJSON(t *testing.T) {
	srv := fetchSite(t)
	code, out, errOut := runCLI(t, "", "fetch", "--tree", "--format", "json", srv.URL+"/")
	if code != exitProblems { // P-01 in a.xml
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var root fetch.TreeNode
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
