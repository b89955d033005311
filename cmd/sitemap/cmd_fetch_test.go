package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/record"
)

// fetchSite serves a small site on 127.0.0.1: robots.txt → index → two
// sitemaps (one gzip), a URL listed twice, a bad priority (P-01), and a
// child that 404s.
func fetchSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	var base string
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow:\nSitemap: " + base + "/sitemap_index.xml\n"))
	})
	mux.HandleFunc("/sitemap_index.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>` + base + `/a.xml</loc></sitemap>
<sitemap><loc>` + base + `/b.xml</loc></sitemap>
</sitemapindex>`))
	})
	mux.HandleFunc("/a.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a?x=1&amp;y=2</loc><lastmod>2026-11-02</lastmod><priority>0.8</priority></url>
<url><loc>https://www.example.com/shared</loc><priority>7</priority></url>
</urlset>`))
	})
	mux.HandleFunc("/b.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/shared</loc></url>
<url><loc>https://www.example.com/b</loc><changefreq>weekly</changefreq></url>
</urlset>`))
	})
	srv := httptest.NewServer(mux)
	base = srv.URL
	t.Cleanup(srv.Close)
	return srv
}

func TestFetchFormats(t *testing.T) {
	srv := fetchSite(t)
	code, out, stderr := runCLI(t, "", "fetch", "--concurrency", "1", srv.URL+"/")
	if code != exitProblems { // P-01 is an error
		t.Fatalf("code %d, stderr %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || lines[0] != "https://www.example.com/a?x=1&y=2" {
		t.Fatalf("txt output %q", out)
	}
	if !strings.Contains(stderr, "error P-01") || !strings.Contains(stderr, "3 sitemaps read") || !strings.Contains(stderr, "3 URLs (1 duplicate dropped)") || !strings.Contains(stderr, "problems by rule: P-01 1") {
		t.Errorf("stderr %s", stderr)
	}

	_, out, _ = runCLI(t, "", "fetch", "--concurrency", "1", "--format", "jsonl", srv.URL+"/robots.txt")
	var recs []sitemap.URL
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var u sitemap.URL
		if err := json.Unmarshal([]byte(l), &u); err != nil {
			t.Fatalf("bad JSONL line %q: %v", l, err)
		}
		recs = append(recs, u)
	}
	if len(recs) != 3 || recs[0].Source != srv.URL+"/a.xml" || recs[0].LastMod.String() != "2026-11-02" || *recs[0].Priority != 0.8 {
		t.Fatalf("records %+v", recs)
	}
	if !strings.Contains(out, `"loc":"https://www.example.com/a?x=1&y=2"`) {
		t.Errorf("URL escaped in JSON: %s", out)
	}

	_, out, _ = runCLI(t, "", "fetch", "--concurrency", "1", "--format", "csv", srv.URL+"/sitemap_index.xml")
	if !strings.HasPrefix(out, "loc,lastmod,changefreq,priority,source\n") || !strings.Contains(out, "https://www.example.com/b,,weekly,,"+srv.URL+"/b.xml\n") {
		t.Errorf("csv %s", out)
	}
}

func TestFetchTree(t *testing.T) {
	srv := fetchSite(t)
	code, out, _ := runCLI(t, "", "fetch", "--tree", srv.URL+"/")
	if code != exitProblems {
		t.Fatalf("code %d", code)
	}
	want := []string{
		srv.URL + "/  [start]",
		"    " + srv.URL + "/robots.txt  [robots.txt, 1 sitemap]",
		"        " + srv.URL + "/sitemap_index.xml  [sitemapindex, 2 sitemaps]",
		"            " + srv.URL + "/a.xml  [urlset, 2 URLs, 1 error]",
		"                ! error P-01: line 4: ",
		"            " + srv.URL + "/b.xml  [urlset, 2 URLs]",
	}
	pos := 0
	for _, w := range want {
		i := strings.Index(out[pos:], w)
		if i < 0 {
			t.Fatalf("tree lacks %q after offset %d:\n%s", w, pos, out)
		}
		pos += i + len(w)
	}
}

func TestFetchExitCodes(t *testing.T) {
	srv := fetchSite(t)
	if code, _, stderr := runCLI(t, "", "fetch", "example.com"); code != exitUsage || !strings.Contains(stderr, "absolute http(s) URL") {
		t.Errorf("bad URL: code %d %s", code, stderr)
	}
	if _, _, stderr := runCLI(t, "", "fetch", "example.com"); !strings.Contains(stderr, "did you mean https://example.com/?") {
		t.Errorf("a host name: %s; want a suggestion of its homepage", stderr)
	}
	// A missing file is not taken for a host name ("did you mean
	// https://sitemap.xml.gz/?").
	for _, name := range []string{"sitemap.xml", "sitemap.xml.gz", "urls.txt", "old.jsonl"} {
		if code, _, stderr := runCLI(t, "", "fetch", name); code != exitUsage || !strings.Contains(stderr, "no such file") || strings.Contains(stderr, "did you mean") {
			t.Errorf("missing file %s: code %d %s", name, code, stderr)
		}
	}
	if code, _, _ := runCLI(t, "", "fetch", "--format", "xml", srv.URL); code != exitUsage {
		t.Errorf("bad format: code %d", code)
	}
	if code, _, _ := runCLI(t, "", "fetch", "--known-paths", "maybe", srv.URL); code != exitUsage {
		t.Errorf("bad known-paths: code %d", code)
	}
	code, _, stderr := runCLI(t, "", "fetch", srv.URL+"/b.xml")
	if code != exitOK || !strings.Contains(stderr, "1 sitemap read") {
		t.Errorf("clean sitemap: code %d %s", code, stderr)
	}
	// A start sitemap that answers 404 could not be read: exit 2, as in
	// validate, parse and diff, said in one line.
	code, _, stderr = runCLI(t, "", "fetch", "--attempts", "1", srv.URL+"/missing.xml")
	if code != exitUsage || stderr != "sitemap: "+srv.URL+"/missing.xml could not be read: HTTP 404 Not Found\n" {
		t.Errorf("404: code %d %s", code, stderr)
	}
	// A homepage on a site that answers nothing (connections refused)
	// could not be read: exit 2, not "no sitemap found" (exit 1).
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	code, _, stderr = runCLI(t, "", "fetch", "--attempts", "1", gone.URL+"/")
	if code != exitUsage || !strings.HasPrefix(stderr, "sitemap: "+gone.URL+"/ could not be read: ") || strings.Contains(stderr, "FETCH-NONE") {
		t.Errorf("unreachable site: code %d %s", code, stderr)
	}
	// The summary counts one URL as "1 URL"; a local run transfers no bytes
	// and does not say it did.
	local := filepath.Join(t.TempDir(), "one.txt")
	if err := os.WriteFile(local, []byte("https://www.example.com/a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "", "fetch", local)
	if code != exitOK || !strings.HasPrefix(stderr, "fetch: 1 sitemap read, 1 URL in ") || strings.Contains(stderr, "transferred") {
		t.Errorf("local, one URL: code %d, summary %q; want \"fetch: 1 sitemap read, 1 URL in …\"", code, stderr)
	}
	code, out, stderr := runCLI(t, "", "fetch", "--max-urls", "1", srv.URL+"/b.xml")
	if code != exitOK || strings.Count(out, "\n") != 1 || !strings.Contains(stderr, "caps: urls") {
		t.Errorf("max-urls: code %d out %q %s", code, out, stderr)
	}
	code, out, _ = runCLI(t, "", "fetch", "--no-dedup", "--concurrency", "1", srv.URL+"/sitemap_index.xml")
	if code != exitProblems || strings.Count(out, "https://www.example.com/shared\n") != 2 { // exit 1: a.xml has P-01
		t.Errorf("--no-dedup: code %d printed %q", code, out)
	}
}

// The JSONL fetch writes (internal/record) is byte-identical to
// encoding/json's, and dates come out as they were written.
func TestFetchJSONMatchesEncodingJSON(t *testing.T) {
	d, _ := sitemap.ParseDate("2026-11-02T10:00:00.5+02:00")
	for _, u := range []sitemap.URL{
		{Loc: "https://e.com/a"},
		{Loc: "https://e.com/a?x=1&y=<2>", Source: "https://e.com/s.xml", LastMod: d, ChangeFreq: "weekly", Priority: sitemap.Float64(0.5)},
		{Loc: "https://e.com/\"q\"\\\n\t\x01\u2028é\xff", Priority: sitemap.Float64(1), ContentHash: "h"},
		{Loc: "https://e.com/p", Priority: sitemap.Float64(0)},
		{Loc: "https://e.com/p", Priority: sitemap.Float64(0.123456789)},
		{Loc: "https://e.com/p", Images: []sitemap.Image{{Loc: "https://e.com/i.jpg"}}},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(&u)
		if got := record.AppendURL(nil, &u); string(got) != want.String() {
			t.Errorf("got  %s\nwant %s", got, want.String())
		}
	}
	for _, v := range []string{"2026-11-02", "2026-11-02T10:00Z", "2026-11-02T10:00:00Z", "2026-11-02T10:00:00+05:30",
		"2026-11-02T10:00:00-08:00", "2026-11-02T10:00:00.123Z", "2026", "2026-11", "0099-01-01", "2026-11-02T10:00+00:00"} {
		d, err := sitemap.ParseDate(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.String(); got != v {
			t.Errorf("date %s written as %s", v, got)
		}
	}
}

// TestFetchRefusesBadCounts: a count or time limit of zero or less that
// the help gives no meaning is refused, naming the flag; each was replaced
// by its default without a word (--max-depth 0 read five levels,
// --max-sitemaps 0 ten thousand sitemaps, --max-urls -5 every URL).
func TestFetchRefusesBadCounts(t *testing.T) {
	for _, args := range [][]string{
		{"--max-depth", "0"}, {"--max-depth", "-1"}, {"--max-sitemaps", "0"}, {"--max-sitemaps", "-2"},
		{"--attempts", "0"}, {"--per-host", "0"}, {"--concurrency", "-1"}, {"--concurrency", "0"},
		{"--max-urls", "-5"}, {"--max-bytes", "-1"}, {"--timeout", "-1s"},
		{"--sitemap-timeout", "0s"}, {"--idle-timeout", "-2s"},
	} {
		code, out, errOut := runCLI(t, "", append(append([]string{"fetch"}, args...), "https://www.example.com/")...)
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, "sitemap: "+args[0]+" ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 naming %s", args, code, out, errOut, args[0])
		}
	}
}

// TestFetchCacheIsAFile: --cache naming a file is refused, naming the
// flag; it failed with "cache directory: mkdir f: not a directory".
func TestFetchCacheIsAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "", "fetch", "--cache", f, "https://www.example.com/")
	if want := "sitemap: --cache " + f + " is a file; give a directory (made when missing)\n"; code != exitUsage || stderr != want {
		t.Errorf("exit %d, stderr %q\nwant %q", code, stderr, want)
	}
}
