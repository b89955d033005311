package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// graphSite writes an index and its two children into a directory.
func graphSite(t *testing.T) string {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "sitemap.xml"), sitemapIndex("https://www.example.com/sitemap-1.xml", "https://www.example.com/sitemap-2.xml"))
	writeFile(t, filepath.Join(dir, "sitemap-1.xml"), urlset("https://www.example.com/", "https://www.example.com/blog/a", "https://www.example.com/blog/b"))
	writeFile(t, filepath.Join(dir, "sitemap-2.xml"), urlset("https://www.example.com/shop/x", "https://www.example.com/blog/2026/c"))
	return dir
}

func TestGraphIndexWithChildrenBeside(t *testing.T) {
	dir := graphSite(t)
	code, out, errs := runCLI(t, "", "graph", filepath.Join(dir, "sitemap.xml"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		URLs     int `json:"urls"`
		Sections int `json:"sections"`
		Tree     struct {
			Name     string `json:"name"`
			Children []struct {
				Name  string              `json:"name"`
				Total struct{ Pages int } `json:"total"`
			} `json:"children"`
		} `json:"tree"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.URLs != 5 || got.Sections != 4 || got.Tree.Name != "https://www.example.com" || len(got.Tree.Children) != 2 ||
		got.Tree.Children[0].Name != "blog" || got.Tree.Children[0].Total.Pages != 3 {
		t.Errorf("tree %+v", got)
	}
	for _, f := range []string{"site.html", "site.svg", "site.dot", "site.json"} {
		p := filepath.Join(dir, f)
		if code, _, errs := runCLI(t, "", "graph", dir, "-o", p); code != exitOK {
			t.Fatalf("-o %s: exit %d: %s", f, code, errs)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"site.html": `<script type="application/json" id="data">`, "site.svg": "<svg ", "site.dot": "digraph sitemap {", "site.json": `"urls": 5`}[f]
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q", f, want)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestGraphHomepageFindsSitemaps(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nSitemap: " + srv.URL + "/maps/s.xml\n"))
		case "/maps/s.xml":
			w.Write([]byte(urlset(srv.URL+"/docs/a", srv.URL+"/docs/b", srv.URL+"/")))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "site.svg")
	code, _, errs := runCLI(t, "", "graph", srv.URL+"/", "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), `>docs/ <tspan class="c">2</tspan>`) {
		t.Errorf("the SVG lacks docs/ with 2 pages:\n%s", b)
	}
}

func TestGraphErrors(t *testing.T) {
	dir := graphSite(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"graph", dir, "-o", filepath.Join(dir, "site.png")}, "does not say the format"},
		{[]string{"graph", dir, "--format", "pdf"}, `--format "pdf"`},
		{[]string{"graph", dir, "--max-nodes", "0"}, "--max-nodes"},
		{[]string{"graph", dir, "--max-links", "0"}, "--max-links"},
		{[]string{"graph", dir, "-o", filepath.Join(dir, "no", "such", "site.svg")}, "such does not exist; create it first"},
		{[]string{"graph", filepath.Join(dir, "missing.xml")}, "missing.xml"},
	} {
		code, _, errs := runCLI(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	// A child that is missing is an error of the sitemaps: drawn, exit 1.
	os.Remove(filepath.Join(dir, "sitemap-2.xml"))
	code, out, errs := runCLI(t, "", "graph", filepath.Join(dir, "sitemap.xml"))
	if code != exitProblems || !strings.Contains(out, `"urls": 3`) || !strings.Contains(errs, "sitemap-2.xml") {
		t.Errorf("missing child: exit %d, %q, %q", code, out, errs)
	}
}

func TestGraphLinksFromCrawlState(t *testing.T) {
	srv := exampleSite(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "crawl.db")
	if code, _, errs := runCLI(t, "", "crawl", srv.URL+"/", "--out", filepath.Join(dir, "out"), "--state", db); code != exitOK && code != exitProblems {
		t.Fatalf("crawl: exit %d: %s", code, errs)
	}
	out := filepath.Join(dir, "links.json")
	code, _, errs := runCLI(t, "", "graph", "--state", db, "-o", out)
	if code != exitOK {
		t.Fatalf("graph --state: exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(out)
	var got struct {
		URLs  int    `json:"urls"`
		Start string `json:"start"`
		Edges []struct {
			From, To string
			Links    int
		} `json:"edges"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if got.URLs == 0 || got.Start != srv.URL+"/" || len(got.Edges) == 0 {
		t.Errorf("link graph of the crawl: %s", b)
	}
	html := filepath.Join(dir, "links.html")
	if code, _, errs := runCLI(t, "", "graph", "--state", db, "-o", html); code != exitOK {
		t.Fatalf("graph --state -o links.html: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "", "graph", "-o", html); code != exitUsage || !strings.Contains(errs, "--state") {
		t.Errorf("no INPUT and no --state: exit %d %q", code, errs)
	}
	if code, _, _ := runCLI(t, "", "graph", "--state", filepath.Join(dir, "none.db")); code != exitUsage {
		t.Errorf("a missing state: exit %d", code)
	}
}

// TestGraphAndHTMLFromAHomepage: graph and html find a site's sitemaps
// from its homepage; a site with none is a problem found (exit 1, as
// fetch and validate say), not a failure to run.
func TestGraphAndHTMLFromAHomepage(t *testing.T) {
	var srv *httptest.Server
	var none atomic.Bool // the site has no sitemap
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/sitemap.xml" && !none.Load():
			w.Write([]byte(urlset(srv.URL+"/docs/a", srv.URL+"/docs/b", srv.URL+"/")))
		case r.URL.Path == "/":
			w.Write([]byte("<!doctype html><title>Home</title>"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	if code, _, errs := runCLI(t, "", "html", srv.URL+"/", "-o", filepath.Join(dir, "pages")); code != exitOK {
		t.Fatalf("html of a homepage: exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "pages", "index.html"))
	if !strings.Contains(string(b), `<a href="`+srv.URL+`/docs/b">B</a>`) {
		t.Errorf("the site map of the homepage lacks docs/b:\n%s", b)
	}
	none.Store(true)
	for _, args := range [][]string{
		{"graph", srv.URL + "/", "-o", filepath.Join(dir, "site.svg")},
		{"html", srv.URL + "/", "-o", filepath.Join(dir, "pages2")},
	} {
		code, _, errs := runCLI(t, "", args...)
		if code != exitProblems || !strings.Contains(errs, "FETCH-NONE") || !strings.Contains(errs, "no URL read from "+srv.URL+"/") {
			t.Errorf("%s of a site without sitemaps: exit %d, %q; want 1, FETCH-NONE and no URL read", args[0], code, errs)
		}
	}
	// An empty sitemap: nothing drawn, exit 1 too.
	empty := filepath.Join(dir, "empty.xml")
	writeFile(t, empty, urlset())
	if code, _, errs := runCLI(t, "", "graph", empty, "-o", filepath.Join(dir, "e.svg")); code != exitProblems || !strings.Contains(errs, "nothing to draw") {
		t.Errorf("graph of an empty sitemap: exit %d, %q", code, errs)
	}
}

// TestGraphLinksMarksPlantedPages crawls a site on 127.0.0.1 and draws
// its link graph against its sitemap: the planted orphan (listed, linked
// from nowhere), the planted missing page (linked, not listed) and the
// page robots.txt disallows are in the JSON with why.
func TestGraphLinksMarksPlantedPages(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		links := map[string]string{
			"/":       `<a href="/blog/a">A</a> <a href="/docs/x">X</a> <a href="/private/p">P</a>`,
			"/blog/a": `<a href="/">Home</a>`,
			"/docs/x": `<a href="/docs/y">Y</a>`,
			"/docs/y": `<a href="/docs/x">X</a>`,
			"/lonely": `nobody links here`,
		}
		switch body, ok := links[r.URL.Path]; {
		case r.URL.Path == "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
		case ok:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(`<!doctype html><html lang="en"><head><title>Page ` + r.URL.Path + `</title></head><body>` + body + `</body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "crawl.db")
	if code, _, errs := runCLI(t, "", "crawl", srv.URL+"/", "--out", filepath.Join(dir, "out"), "--state", db); code != exitOK && code != exitProblems {
		t.Fatalf("crawl: exit %d: %s", code, errs)
	}
	sm := filepath.Join(dir, "sitemap.xml")
	writeFile(t, sm, urlset(srv.URL+"/", srv.URL+"/blog/a", srv.URL+"/docs/x", srv.URL+"/lonely"))
	out := filepath.Join(dir, "links.json")
	if code, _, errs := runCLI(t, "", "graph", "--state", db, sm, "-o", out); code != exitOK {
		t.Fatalf("graph --state: exit %d: %s", code, errs)
	}
	svg := filepath.Join(dir, "links.svg")
	if code, _, errs := runCLI(t, "", "graph", "--state", db, sm, "--max-links", "1", "-o", svg); code != exitOK {
		t.Fatalf("graph --state --max-links 1: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(svg); strings.Count(string(b), `<path class="k"`) != 1 {
		t.Errorf("--max-links 1 drew %d arcs:\n%s", strings.Count(string(b), `<path class="k"`), b)
	}
	b, _ := os.ReadFile(out)
	var got struct {
		Tree json.RawMessage `json:"tree"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	type node struct {
		Path  string `json:"path"`
		Marks []struct {
			Loc, Title, Kind, Why string
		} `json:"marks"`
		Children []node `json:"children"`
	}
	var root node
	if err := json.Unmarshal(got.Tree, &root); err != nil {
		t.Fatal(err)
	}
	var marks []string
	var walk func(n node)
	walk = func(n node) {
		for _, m := range n.Marks {
			marks = append(marks, strings.TrimPrefix(m.Loc, srv.URL)+" "+m.Kind+" ("+m.Why+")")
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	want := "/lonely orphan (orphan: the crawl never reached it) | /docs/y missing (missing: linked and indexable, not in the sitemap) | /private/p left (left out: robots)"
	if g := strings.Join(marks, " | "); g != want {
		t.Errorf("marks:\n got %s\nwant %s", g, want)
	}
}

// TestGraphLinksOfAnUnfinishedCrawl: a crawl that was stopped is drawn
// as far as it went, with a warning that says what is missing and how to
// finish it.
func TestGraphLinksOfAnUnfinishedCrawl(t *testing.T) {
	db := crawlStateFile(t, false)
	code, _, errs := runCLI(t, "", "graph", "--state", db, "-o", filepath.Join(t.TempDir(), "links.json"))
	if code != exitOK || !strings.Contains(errs, "the crawl has not finished (2 URLs still to fetch)") {
		t.Errorf("exit %d, %q; want 0 and a warning that the crawl has not finished", code, errs)
	}
	if _, _, errs := runCLI(t, "", "graph", "--quiet", "--state", db, "-o", filepath.Join(t.TempDir(), "links.json")); errs != "" {
		t.Errorf("--quiet: %q", errs)
	}
	// A sitemap of another host than the crawl's: nothing of it reached.
	sm := filepath.Join(t.TempDir(), "sitemap.xml")
	writeFile(t, sm, urlset("https://example.org/", "https://example.org/a"))
	code, _, errs = runCLI(t, "", "graph", "--state", db, sm, "-o", filepath.Join(t.TempDir(), "links.json"))
	if code != exitOK || !strings.Contains(errs, "the crawl of https://www.example.com/ reached none of the 2 URLs of "+sm) {
		t.Errorf("a sitemap of another host: exit %d, %q", code, errs)
	}
}

// TestGraphAndHTMLSayWhatTheyWrote: on success graph and html say in one
// line on standard error what they wrote (the file or directory, the
// URLs and sections or the pages and links); --quiet leaves it out.
func TestGraphAndHTMLSayWhatTheyWrote(t *testing.T) {
	dir := graphSite(t)
	sm := filepath.Join(dir, "sitemap.xml")
	out := t.TempDir()
	svg, pages, view := filepath.Join(out, "site.svg"), filepath.Join(out, "pages"), filepath.Join(out, "view.html")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"graph", sm, "-o", svg}, "sitemap: wrote " + svg + " (svg): 5 URLs in "},
		{[]string{"graph", sm}, "sitemap: wrote json to standard output: 5 URLs in "},
		{[]string{"html", sm, "-o", pages, "--per-page", "2"}, "sitemap: wrote 3 pages into " + pages + ": 5 links\n"},
		{[]string{"html", "--document", sm, "-o", view}, "sitemap: wrote the view of 2 sitemaps to " + view + "\n"},
	} {
		code, _, errs := runCLI(t, "", c.args...)
		if code != exitOK || !strings.HasPrefix(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want 0 and one line %q", c.args, code, errs, c.want)
		}
		if code, _, errs := runCLI(t, "", append(c.args, "--quiet")...); code != exitOK || errs != "" {
			t.Errorf("%v --quiet: exit %d, %q; want 0 and nothing", c.args, code, errs)
		}
	}
}
