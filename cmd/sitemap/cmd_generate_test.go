package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/xmllint"
	"github.com/sitemapkit/sitemap/xsl"
)

const genBase = "https://www.example.com/"

// genRead returns the uncompressed bytes of a published file.
func genRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return string(b)
}

var genLocRE = regexp.MustCompile(`<url><loc>([^<]*)</loc>`)

// genLocs returns the <url> locs of a urlset, XML-unescaped.
func genLocs(doc string) []string {
	var out []string
	for _, m := range genLocRE.FindAllStringSubmatch(doc, -1) {
		out = append(out, strings.ReplaceAll(m[1], "&amp;", "&"))
	}
	return out
}

// genPublished lists the files of dir, the children's names without the
// content hash (site-1.xml.gz for site-1-0123456789ab.xml.gz).
func genPublished(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, genHashRE.ReplaceAllString(e.Name(), "$1$2"))
	}
	sort.Strings(names)
	return names
}

// genHashRE is the content hash of a child's name (NAME-N-HASH.xml).
var genHashRE = regexp.MustCompile(`^(.*-[1-9][0-9]*)-[0-9a-f]{12}(\.xml(\.gz)?)$`)

// genFile returns the path of the file of dir whose name, without the
// content hash of a child's name, is name ("sitemap-1.xml").
func genFile(t *testing.T, dir, name string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if genHashRE.ReplaceAllString(e.Name(), "$1$2") == name {
			return filepath.Join(dir, e.Name())
		}
	}
	t.Fatalf("no file %s in %s", name, dir)
	return ""
}

func genGzipFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// End to end from each input format (and gzip-compressed input, and
// standard input) to files on disk, valid against the XSDs (testdata/xsd).
func TestGenerateFormats(t *testing.T) {
	tmp := t.TempDir()
	genGzipFile(t, "../../examples/urls.jsonl", filepath.Join(tmp, "in.jsonl.gz"))
	stdin, err := os.ReadFile("../../examples/urls.csv")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  int
		gz    bool
	}{
		{"text", []string{"../../examples/urls.txt"}, "", 9, false},
		{"csv", []string{"../../examples/urls.csv"}, "", 8, false},
		{"jsonl with extensions, gzip output", []string{"--gzip", "../../examples/urls.jsonl"}, "", 8, true},
		{"gzip-compressed input", []string{filepath.Join(tmp, "in.jsonl.gz")}, "", 8, false},
		{"stdin with --input-format", []string{"--input-format", "csv", "-"}, string(stdin), 8, false},
		// The two examples share 3 URLs: each is published once (L-17),
		// the first copy kept (the entry list with alternates first, so
		// that the hreflang cluster of / is complete: a copy of / without
		// them, read first, would cost /de/ its links to /).
		{"several inputs", []string{"../../examples/urls.jsonl", "../../examples/urls.txt"}, "", 14, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"generate", "--base-url", genBase, "--out", out}, tt.args...)
			code, stdout, stderr := runCLI(t, tt.stdin, args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing (results only with --json)", stdout)
			}
			name := "sitemap.xml"
			if tt.gz {
				name += ".gz"
			}
			if got := genPublished(t, out); len(got) != 1 || got[0] != name {
				t.Fatalf("published %v, want [%s]", got, name)
			}
			doc := genRead(t, filepath.Join(out, name))
			if n := len(genLocs(doc)); n != tt.want {
				t.Errorf("%d <url> entries, want %d:\n%s", n, tt.want, doc)
			}
			// The summary table: the file with its URL count, then totals.
			if !regexp.MustCompile(`(?m)^\s*`+regexp.QuoteMeta(name)+`\s+`+strconv.Itoa(tt.want)+`\s`).MatchString(stderr) ||
				!strings.Contains(stderr, "total") || !strings.Contains(stderr, "URLs/s") {
				t.Errorf("summary table missing from stderr:\n%s", stderr)
			}
			xmllint.Validate(t, filepath.Join(out, name), xmllint.All)
		})
	}
}

// The JSONL record carries every extension to the output (docs/CONVENTIONS.md).
func TestGenerateExtensions(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--news-max-age", "0", "../../examples/urls.jsonl")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	doc := genRead(t, filepath.Join(out, "sitemap.xml"))
	for _, want := range []string{
		`<image:loc>https://www.example.com/img/trail-runner-2-side.jpg</image:loc>`,
		`<video:duration>412</video:duration>`,
		`<news:name>Example Outdoor News</news:name>`,
		`hreflang="x-default"`,
		`<loc>https://www.example.com/docs/search?q=sitemap&amp;lang=en</loc>`, // E-01/E-05
		`<lastmod>2026-10-12T14:20:00+02:00</lastmod>`,                         // M-01 kept as written
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("output lacks %s", want)
		}
	}
}

// More entries than --max-urls: numbered children and an index, valid
// against siteindex.xsd, with locs under --base-url (I-02).
func TestGenerateIndex(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--base-url", "https://www.example.com/maps/", "--site-url", genBase,
		"--out", out, "--max-urls", "3", "--gzip", "--name", "site", "../../examples/urls.txt")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := []string{"site-1.xml.gz", "site-2.xml.gz", "site-3.xml.gz", "site.xml"}
	if got := genPublished(t, out); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("published %v, want %v", got, want)
	}
	idx := genRead(t, filepath.Join(out, "site.xml"))
	if !strings.Contains(idx, "<loc>https://www.example.com/maps/"+filepath.Base(genFile(t, out, "site-2.xml.gz"))+"</loc>") {
		t.Errorf("index:\n%s", idx)
	}
	xmllint.Validate(t, filepath.Join(out, "site.xml"), xmllint.SiteIndex)
	xmllint.ValidateFiles(t, xmllint.All, genFile(t, out, "site-1.xml.gz"), genFile(t, out, "site-3.xml.gz"))
	if !strings.Contains(stderr, "(index)") {
		t.Errorf("summary does not show the index:\n%s", stderr)
	}
}

// Bad input never corrupts output: invalid entries are skipped and
// reported with their positions, the valid ones are published, exit 1.
func TestGenerateSkipAndReport(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	txt := write("urls.txt", "https://www.example.com/a\n# comment\nwww.example.com/relative/path\nhttps://other.example.org/x\nhttps://www.example.com/b\n")
	csv := write("urls.csv", "loc,lastmod,priority\nhttps://www.example.com/c,2026-02-30,\nhttps://www.example.com/d,,1.5\nhttps://www.example.com/e,2026-02-01,0.4\n")
	jsonl := write("urls.jsonl", `{"loc":"https://www.example.com/f"}`+"\n"+`{"loc":"https://www.example.com/g",}`+"\n"+`{"loc":"https://www.example.com/h","changefreq":"sometimes"}`+"\n")
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, txt, csv, jsonl)
	if code != exitProblems {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{
		txt + `:3: loc "www.example.com/relative/path" is not an absolute URL`,                          // L-01, the docs/CONVENTIONS.md example
		txt + `:4: loc "https://other.example.org/x"`,                                                   // L-09 scope
		csv + `:2:27: lastmod dropped, the page kept: lastmod is not a W3C Datetime`,                    // M-01 from the source, with column
		csv + `:3: priority "1.5" is outside 0.0–1.0 (P-01); priority dropped, the page kept (warning)`, // P-01 from the encoder
		jsonl + `:2:`,                        // bad JSON
		jsonl + `:3: changefreq "sometimes"`, // C-01
		"3 invalid entries skipped",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml")))
	want := []string{"https://www.example.com/a", "https://www.example.com/b", "https://www.example.com/c", "https://www.example.com/d",
		"https://www.example.com/e", "https://www.example.com/f", "https://www.example.com/h"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("published %v, want %v", got, want)
	}
	xmllint.Validate(t, filepath.Join(out, "sitemap.xml"), xmllint.Sitemap)
}

// --strict stops at the first invalid entry, exits 1 and publishes
// nothing: the previous set stays byte for byte.
func TestGenerateStrict(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--max-urls", "4", "../../examples/urls.txt")
	if code != exitOK {
		t.Fatalf("first run: exit %d: %s", code, stderr)
	}
	before := snapshot(t, out)
	in := "https://www.example.com/new\nhttps://www.example.com/new2\nwww.example.com/relative\nhttps://www.example.com/new3\n"
	code, _, stderr = runCLI(t, in, "generate", "--base-url", genBase, "--out", out, "--strict", "--input-format", "text", "-")
	if code != exitProblems {
		t.Fatalf("strict: exit %d, want 1: %s", code, stderr)
	}
	if !strings.Contains(stderr, `<stdin>:3: loc "www.example.com/relative"`) || !strings.Contains(stderr, "nothing published") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if after := snapshot(t, out); !equalSnapshots(before, after) {
		t.Errorf("--strict changed the genPublished set:\nbefore %v\nafter  %v", snapshotNames(before), snapshotNames(after))
	}
	// Also with --xsl: the stylesheet is not written by a failed strict run.
	code, _, _ = runCLI(t, in, "generate", "--base-url", genBase, "--out", out, "--strict", "--xsl", "-")
	if _, err := os.Stat(filepath.Join(out, xsl.DefaultName)); code != exitProblems || err == nil {
		t.Errorf("strict --xsl: exit %d, stylesheet written (%v)", code, err)
	}
}

// Exit codes (docs/CONVENTIONS.md): 2 when the run cannot run, 1 when it ran
// but found problems.
func TestGenerateExitCodes(t *testing.T) {
	tmp := t.TempDir()
	notDir := filepath.Join(tmp, "file")
	os.WriteFile(notDir, []byte("x"), 0o644)
	bad := filepath.Join(tmp, "bad.txt")
	os.WriteFile(bad, []byte("www.example.com/only/relative\n"), 0o644)
	noLoc := filepath.Join(tmp, "noloc.csv")
	os.WriteFile(noLoc, []byte("url2,lastmod\nx,y\n"), 0o644)
	out := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no --base-url", []string{"generate", "--out", out, "../../examples/urls.txt"}, exitUsage, "--base-url is required"},
		{"no input", []string{"generate", "--base-url", genBase}, exitUsage, "requires at least 1 arg"},
		{"unreadable input", []string{"generate", "--base-url", genBase, "--out", out, filepath.Join(tmp, "missing.txt")}, exitUsage, "cannot read input"},
		{"input is a directory", []string{"generate", "--base-url", genBase, "--out", out, tmp}, exitUsage, "is a directory"},
		{"unwritable output", []string{"generate", "--base-url", genBase, "--out", notDir, "../../examples/urls.txt"}, exitUsage, "--out"},
		{"bad --index", []string{"generate", "--base-url", genBase, "--index", "sometimes", "../../examples/urls.txt"}, exitUsage, "--index"},
		{"bad --input-format", []string{"generate", "--base-url", genBase, "--input-format", "xml", "../../examples/urls.txt"}, exitUsage, "--input-format"},
		{"relative --base-url", []string{"generate", "--base-url", "/maps/", "--out", out, "../../examples/urls.txt"}, exitUsage, `--base-url "/maps/" is not an absolute http(s) URL`},
		{"CSV without loc column", []string{"generate", "--base-url", genBase, "--out", out, noLoc}, exitUsage, "no loc column"},
		{"--index never with too many URLs", []string{"generate", "--base-url", genBase, "--out", out, "--index", "never", "--max-urls", "2", "../../examples/urls.txt"}, exitUsage, ""},
		{"no valid entry", []string{"generate", "--base-url", genBase, "--out", out, bad}, exitProblems, "nothing published"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.msg) {
				t.Errorf("exit %d, want %d; stderr %q should contain %q", code, tt.code, stderr, tt.msg)
			}
		})
	}
	if got := genPublished(t, out); len(got) != 0 {
		t.Errorf("failed runs genPublished %v", got)
	}
}

// --robots adds the Sitemap: line of the top file, keeps every other byte
// (RB-13), never duplicates the line, and creates a missing file.
func TestGenerateRobots(t *testing.T) {
	out := t.TempDir()
	robotsFile := filepath.Join(out, "robots.txt")
	orig := "User-agent: *\r\nDisallow: /private/\r\n# keep me\r\nAllow: /"
	os.WriteFile(robotsFile, []byte(orig), 0o640)
	args := []string{"generate", "--base-url", genBase, "--out", out, "--robots", robotsFile, "../../examples/urls.txt"}
	code, _, stderr := runCLI(t, "", args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _ := os.ReadFile(robotsFile)
	// The file has no final line ending, so neither has the line added.
	if string(got) != orig+"\r\n\r\nSitemap: https://www.example.com/sitemap.xml" {
		t.Fatalf("robots.txt:\n%q", got)
	}
	if strings.Count(string(got), "Sitemap:") != 1 {
		t.Errorf("robots.txt has several Sitemap lines:\n%q", got)
	}
	if st, _ := os.Stat(robotsFile); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", st.Mode().Perm())
	}
	// Idempotent: a second run leaves the file byte for byte.
	code, _, stderr = runCLI(t, "", args...)
	again, _ := os.ReadFile(robotsFile)
	if code != exitOK || !bytes.Equal(again, got) || !strings.Contains(stderr, "already lists") {
		t.Errorf("second run: exit %d, changed %v, stderr %s", code, !bytes.Equal(again, got), stderr)
	}
	// A missing file is created; with an index, the index is listed.
	fresh := filepath.Join(t.TempDir(), "robots.txt")
	code, _, stderr = runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--max-urls", "5", "--robots", fresh, "../../examples/urls.txt")
	b, _ := os.ReadFile(fresh)
	if code != exitOK || string(b) != "Sitemap: https://www.example.com/sitemap.xml\n" {
		t.Errorf("created robots.txt: exit %d, %q, %s", code, b, stderr)
	}
}

// --xsl writes the default stylesheet and both the index and its children
// reference it.
func TestGenerateXSL(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--xsl", "--max-urls", "5", "../../examples/urls.jsonl")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, xsl.DefaultName))
	if err != nil || !bytes.Equal(b, xsl.Default()) {
		t.Fatalf("stylesheet not written as is: %v", err)
	}
	pi := `<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>`
	for _, f := range []string{"sitemap.xml", "sitemap-1.xml", "sitemap-2.xml"} {
		if doc := genRead(t, genFile(t, out, f)); !strings.Contains(doc, pi) {
			t.Errorf("%s does not reference the stylesheet:\n%.300s", f, doc)
		}
	}
	xmllint.Validate(t, filepath.Join(out, "sitemap.xml"), xmllint.SiteIndex)
	xmllint.Validate(t, genFile(t, out, "sitemap-1.xml"), xmllint.All)
}

// --dry-run writes nothing; --json puts the summary on stdout as JSON.
func TestGenerateDryRunJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	code, stdout, stderr := runCLI(t, "", "generate", "--base-url", genBase, "--out", out, "--dry-run", "--json", "--xsl",
		"--robots", filepath.Join(out, "robots.txt"), "../../examples/urls.csv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("dry run created %s (%v)", out, err)
	}
	var sum struct {
		URLs  int  `json:"urls"`
		Dry   bool `json:"dry_run"`
		Files []struct {
			Name  string `json:"name"`
			URLs  int    `json:"urls"`
			Bytes int64  `json:"bytes"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, stdout)
	}
	if sum.URLs != 8 || !sum.Dry || len(sum.Files) != 1 || sum.Files[0].Name != "sitemap.xml" || sum.Files[0].Bytes == 0 {
		t.Errorf("summary %+v", sum)
	}
}

// --site-url on another host: entries are scoped to it, and a warning
// explains cross-submission (O-03).
func TestGenerateCrossSubmit(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--base-url", "https://cdn.example.net/maps/", "--site-url", genBase,
		"--out", out, "--gzip", "../../examples/urls.txt")
	if code != exitOK || !strings.Contains(stderr, "O-03") || !strings.Contains(stderr, "https://www.example.com/robots.txt") ||
		!strings.Contains(stderr, `"Sitemap: https://cdn.example.net/maps/sitemap.xml.gz"`) {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

func TestGenerateHelp(t *testing.T) {
	code, stdout, _ := runCLI(t, "", "generate", "--help")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"sitemap generate --base-url https://www.example.com/ --out public/ --gzip examples/urls.jsonl",
		`--out string`, `(default ".")`, `(default "sitemap")`, `(default "auto")`, "(default 50000)", "(default 52428800)",
		"--strict", "--dry-run", "--json", "--legacy", "--robots FILE", "--xsl", "--gzip-index", "--site-url",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}

// The examples in --help work as written from the repository root.
func TestGenerateHelpExamplesRun(t *testing.T) {
	root, _ := filepath.Abs("../..")
	out := t.TempDir()
	for _, args := range [][]string{
		{"generate", "--base-url", genBase, "--out", out, "--gzip", filepath.Join(root, "examples/urls.jsonl")},
		{"generate", "--base-url", genBase, "--out", out, "--xsl", "--robots", filepath.Join(out, "robots.txt"),
			filepath.Join(root, "examples/urls.csv"), filepath.Join(root, "examples/urls.txt")},
	} {
		if code, _, stderr := runCLI(t, "", args...); code != exitOK {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
}

// The stylesheet works in a real browser: headless Chromium opens the
// generated sitemap and index over HTTP (127.0.0.1) and renders the tables.
func TestGenerateXSLBrowser(t *testing.T) {
	chromium := genChromium(t)
	out := t.TempDir()
	code, _, stderr := runCLI(t, "", "generate", "--base-url", "http://127.0.0.1/", "--out", out, "--xsl", "--index", "always", "--news-max-age", "0",
		"--site-url", genBase, "../../examples/urls.jsonl")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files := http.FileServer(http.Dir(out))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, ".xsl"):
			w.Header().Set("Content-Type", "text/xsl; charset=utf-8")
		case strings.HasSuffix(r.URL.Path, ".xml"):
			w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()

	child := filepath.Base(genFile(t, out, "sitemap-1.xml"))
	dom := genDumpDOM(t, chromium, srv.URL+"/"+child)
	for _, want := range []string{"<table", "<th>URL</th>", "https://www.example.com/products/trail-runner-2/",
		`href="https://www.example.com/docs/search?q=sitemap&amp;lang=en"`, "Our first store opens in Bergen", ">8</strong> URLs"} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered sitemap lacks %q; XSLT not applied?\n%.2000s", want, dom)
		}
	}
	// The images column counts the two images of the product page.
	if !regexp.MustCompile(`trail-runner-2/</a></td>(?s:.*?)<td class="n">2</td>`).MatchString(dom) {
		t.Errorf("image count not rendered:\n%.3000s", dom)
	}
	idx := genDumpDOM(t, chromium, srv.URL+"/sitemap.xml")
	if !strings.Contains(idx, "Sitemap index") || !strings.Contains(idx, `<a href="http://127.0.0.1/`+child+`">`) {
		t.Errorf("rendered index lacks the child link:\n%.2000s", idx)
	}
}

func genChromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("SITEMAP_REQUIRE_BROWSER") == "1" {
		t.Fatal("chromium not found; install it with `apt-get install -y chromium` (or `make deps`)")
	}
	t.Skip("chromium not found; skipping the browser test (SITEMAP_REQUIRE_BROWSER=1 makes it fail instead)")
	return ""
}

func genDumpDOM(t *testing.T, chromium, url string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--dump-dom", url)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, genTail(stderr.String(), 2000))
	}
	return stdout.String()
}

func genTail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
