package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func diffURLSet(entries ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, e := range entries {
		b.WriteString("<url>" + e + "</url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

func writeDiffFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDiffCommand(t *testing.T) {
	dir := t.TempDir()
	old := writeDiffFile(t, dir, "old.xml", diffURLSet(
		"<loc>https://example.com/a</loc><lastmod>2026-01-01</lastmod>",
		"<loc>https://example.com/b</loc>",
		"<loc>https://example.com/gone</loc>",
	))
	new := writeDiffFile(t, dir, "new.xml", diffURLSet(
		"<loc>https://example.com/a</loc><lastmod>2026-02-01</lastmod>",
		"<loc>https://example.com/b</loc>",
		"<loc>https://example.com/fresh</loc><priority>0.7</priority>",
	))
	same := writeDiffFile(t, dir, "same.xml", diffURLSet(
		"<loc>https://example.com/b</loc>",
		"<loc>https://example.com/gone</loc>",
		"<loc>https://example.com/a</loc><lastmod>2026-01-01T00:00:00Z</lastmod>",
	))

	tests := []struct {
		name       string
		args       []string
		stdin      string
		wantCode   int
		wantOut    string
		wantErrHas string
	}{
		{
			name:     "text: + added, - removed, ~ modified, in loc order",
			args:     []string{"diff", old, new},
			wantCode: exitProblems,
			wantOut: "~ https://example.com/a  lastmod 2026-01-01 → 2026-02-01\n" +
				"+ https://example.com/fresh\n" +
				"- https://example.com/gone\n",
			wantErrHas: "1 added, 1 removed, 1 modified, 1 unchanged (old 3 URLs, new 3 URLs)",
		},
		{
			name:     "M-08 a precision change is a modification",
			args:     []string{"diff", old, same},
			wantCode: exitProblems,
			wantOut:  "~ https://example.com/a  lastmod 2026-01-01 → 2026-01-01T00:00:00Z\n",
		},
		{
			name:     "identical: exit 0, no output",
			args:     []string{"diff", old, old},
			wantCode: exitOK, wantOut: "", wantErrHas: "0 added, 0 removed, 0 modified, 3 unchanged",
		},
		{
			name:     "--ignore lastmod",
			args:     []string{"diff", "--ignore", "lastmod", old, same},
			wantCode: exitOK, wantOut: "",
		},
		{
			name:     "standard input as one side",
			args:     []string{"diff", "-", old},
			stdin:    diffURLSet("<loc>https://example.com/a</loc><lastmod>2026-01-01</lastmod>", "<loc>https://example.com/b</loc>"),
			wantCode: exitProblems, wantOut: "+ https://example.com/gone\n",
		},
		{
			name:       "missing input: trouble",
			args:       []string{"diff", old, filepath.Join(dir, "nope.xml")},
			wantCode:   exitUsage,
			wantErrHas: "nope.xml: no such file",
		},
		{
			name:       "bad --format",
			args:       []string{"diff", "--format", "xml", old, new},
			wantCode:   exitUsage,
			wantErrHas: `--format "xml"`,
		},
		{
			name:       "bad --ignore",
			args:       []string{"diff", "--ignore", "colour", old, new},
			wantCode:   exitUsage,
			wantErrHas: `--ignore "colour"`,
		},
		{
			name:     "one argument",
			args:     []string{"diff", old},
			wantCode: exitUsage,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.stdin, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.wantCode, errOut)
			}
			if tt.wantCode != exitUsage && out != tt.wantOut {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, tt.wantOut)
			}
			if !strings.Contains(errOut, tt.wantErrHas) {
				t.Errorf("stderr %q, want it to contain %q", errOut, tt.wantErrHas)
			}
		})
	}
}

func TestDiffJSONLOverHTTP(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	site := srv.URL + "/"
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>`+site+`s1.xml</loc></sitemap>
</sitemapindex>
`)
	})
	mux.HandleFunc("/s1.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, diffURLSet("<loc>"+site+"a</loc><changefreq>daily</changefreq>", "<loc>"+site+"b</loc>"))
	})
	dir := t.TempDir()
	local := writeDiffFile(t, dir, "local.xml", diffURLSet("<loc>"+site+"a</loc><changefreq>weekly</changefreq>", "<loc>"+site+"b</loc>"))

	code, out, errOut := runCLI(t, "", "diff", "--format", "jsonl", local, site+"sitemap.xml")
	if code != exitProblems {
		t.Fatalf("exit %d; stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one change, got %q", out)
	}
	var c struct {
		Change string   `json:"change"`
		Loc    string   `json:"loc"`
		Fields []string `json:"fields"`
		Old    struct {
			ChangeFreq string `json:"changefreq"`
			Source     string `json:"source"`
		} `json:"old"`
		New struct {
			ChangeFreq string `json:"changefreq"`
			Source     string `json:"source"`
		} `json:"new"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &c); err != nil {
		t.Fatal(err)
	}
	if c.Change != "modified" || c.Loc != site+"a" || strings.Join(c.Fields, ",") != "changefreq" ||
		c.Old.ChangeFreq != "weekly" || c.New.ChangeFreq != "daily" || c.New.Source != site+"s1.xml" || c.Old.Source != local {
		t.Errorf("change = %s", lines[0])
	}

	// A child that fails over HTTP is a problem found (exit 1, as in
	// fetch), not "everything removed": nothing is compared.
	mux.HandleFunc("/broken.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>`+site+`missing.xml</loc></sitemap></sitemapindex>`)
	})
	code, out, errOut = runCLI(t, "", "diff", local, site+"broken.xml")
	if code != exitProblems || out != "" || !strings.Contains(errOut, "missing.xml") || !strings.Contains(errOut, "nothing compared") {
		t.Errorf("broken child: exit %d, out %q, stderr %q", code, out, errOut)
	}
}

// TestDiffHelpExample runs the first --help example as written.
func TestDiffHelpExample(t *testing.T) {
	code, out, _ := runCLI(t, "", "diff", "--help")
	if code != exitOK || !strings.Contains(out, "sitemap diff testdata/samples/basic.xml testdata/samples/badorder.xml") {
		t.Fatalf("help: %d %q", code, out)
	}
	t.Chdir("../..") // the examples are relative to the repository root
	code, out, errOut := runCLI(t, "", "diff", "testdata/samples/basic.xml", "testdata/samples/badorder.xml")
	if code != exitProblems || !strings.Contains(out, "+ https://www.example.com/") {
		t.Errorf("example: exit %d, out %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "", "diff", "--format", "jsonl", "testdata/samples/basic.xml", "testdata/samples/basic.xml.gz")
	if code != exitOK || out != "" {
		t.Errorf("gzip example: exit %d, out %q", code, out)
	}
}

// TestDiffUnreadableSideSaidOnce: a side that is not a sitemap (empty,
// binary) stops diff with exit 1, as validate, parse and fetch
// exit for it (F-04); its diagnostic is printed once, then one
// line saying which side could not be compared.
func TestDiffUnreadableSideSaidOnce(t *testing.T) {
	dir := t.TempDir()
	empty, good := filepath.Join(dir, "empty.xml"), filepath.Join(dir, "good.xml")
	writeFile(t, empty, "")
	writeFile(t, good, urlset("https://www.example.com/a"))
	code, out, errOut := runCLI(t, "", "diff", good, empty)
	want := empty + ":1:1: error F-04: the document is empty: no XML root element and no URL lines\n" +
		"sitemap: new: " + empty + " cannot be compared (the error above)\n"
	if code != exitProblems || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out, errOut, want)
	}
}

// TestDiffJSONLSideProblems: a JSONL side's record without "loc" is an
// X-04 error, not a page "" (it printed "- "), and the summary does not
// send the user to 'sitemap validate', which does not read entry records.
func TestDiffJSONLSideProblems(t *testing.T) {
	dir := t.TempDir()
	old, cur := filepath.Join(dir, "old.jsonl"), filepath.Join(dir, "new.xml")
	writeFile(t, old, `{"loc":"https://www.example.com/a"}`+"\n"+`{"lastmod":"2026-01-01"}`+"\n")
	writeFile(t, cur, urlset("https://www.example.com/a"))
	code, out, errOut := runCLI(t, "", "diff", old, cur)
	want := old + ":2: error X-04: the record has no \"loc\" (the page's absolute URL); skipped\n" +
		"sitemap diff: 0 added, 0 removed, 0 modified, 1 unchanged (old 1 URL, new 1 URL)\n" +
		"sitemap diff: reading " + old + ": 1 error, 0 warnings\n"
	if code != exitOK || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out, errOut, want)
	}
}

// TestDiffTmpDirChecked: a --tmp-dir that does not exist or is a file is
// refused before anything is read, naming the flag; the message was the
// library's ("diff: temporary directory: mkdir x/sitemap-diff-4062112422:
// not a directory").
func TestDiffTmpDirChecked(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "file")
	writeFile(t, f, "x")
	for _, tmp := range []string{filepath.Join(dir, "none"), f} {
		code, _, stderr := runCLI(t, "", "diff", "--tmp-dir", tmp, samples+"basic.xml", samples+"basic.xml")
		if want := "sitemap: --tmp-dir " + tmp + ": no such directory; give an existing directory for the sort files\n"; code != exitUsage || stderr != want {
			t.Errorf("exit %d, stderr %q\nwant %q", code, stderr, want)
		}
	}
}
