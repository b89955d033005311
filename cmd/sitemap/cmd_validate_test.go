package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const samples = "../../testdata/samples/"

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gzipped(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

func urlset(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		b.WriteString("  <url><loc>" + l + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

func sitemapIndex(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		b.WriteString("  <sitemap><loc>" + l + "</loc></sitemap>\n")
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

// ruleIDs extracts "RULE" from text diagnostics "file:l:c: severity RULE: msg".
func ruleIDs(out string) []string {
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		for _, sev := range []string{": error ", ": warning ", ": info "} {
			if i := strings.Index(line, sev); i >= 0 {
				rest := line[i+len(sev):]
				ids = append(ids, strings.TrimSpace(sev[2:])+" "+rest[:strings.IndexByte(rest, ':')])
				break
			}
		}
	}
	return ids
}

func TestValidateSamples(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want []string // "severity RULE" that must appear on stdout
	}{
		{[]string{"basic.xml"}, exitOK, nil},
		{[]string{"basic.xml.gz"}, exitOK, nil},
		{[]string{"empty.xml"}, exitProblems, []string{"error X-07"}},
		{[]string{"bad.xml"}, exitProblems, []string{"error X-06", "error L-01"}},
		{[]string{"ns084.xml"}, exitOK, []string{"warning LG-02"}},
		{[]string{"--strict", "ns084.xml"}, exitProblems, []string{"warning LG-02"}},
		{[]string{"--now", "2008-12-24T12:00:00+01:00", "newsold.xml"}, exitProblems, []string{"error N-03"}},
		{[]string{"--now", "2026-11-22", "newsold.xml"}, exitProblems, []string{"error N-03", "warning N-06"}},
		{[]string{"novideoloc.xml"}, exitProblems, []string{"error V-01"}},
		{[]string{"--no-children", "index.xml"}, exitOK, nil},
		{[]string{"--base", "https://www.example.com/", "basic.xml"}, exitOK, nil},
		{[]string{"--base", "https://example.org/", "basic.xml"}, exitProblems, []string{"error L-09"}},
		{[]string{"--base", "https://example.org/", "--cross-submit", "basic.xml"}, exitOK, []string{"warning L-09"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			args := append([]string{"validate"}, tt.args...)
			last := len(args) - 1
			args[last] = samples + args[last]
			code, out, errOut := runCLI(t, "", args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			ids := ruleIDs(out)
			for _, w := range tt.want {
				if !slices.Contains(ids, w) {
					t.Errorf("missing %q in %v", w, ids)
				}
			}
			if tt.want == nil && out != "" {
				t.Errorf("unexpected output:\n%s", out)
			}
			if !strings.Contains(errOut, filepath.Base(args[last])+": ") {
				t.Errorf("no summary on stderr: %q", errOut)
			}
		})
	}
	// The newsold.xml case with a Now one day after publication has no N-06.
	_, out, _ := runCLI(t, "", "validate", "--now", "2008-12-24T12:00:00+01:00", samples+"newsold.xml")
	if strings.Contains(out, "N-06") {
		t.Errorf("N-06 with a recent --now: %s", out)
	}
}

func TestValidateTextFormat(t *testing.T) {
	_, out, _ := runCLI(t, "", "validate", samples+"empty.xml")
	want := samples + "empty.xml:2:1: error X-07: "
	if !strings.HasPrefix(out, want) {
		t.Errorf("got %q, want prefix %q", out, want)
	}
}

func TestValidateJSONFormats(t *testing.T) {
	keys := []string{"col", "file", "line", "message", "rule", "severity"}
	check := func(t *testing.T, obj map[string]any) {
		t.Helper()
		var got []string
		for k := range obj {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, keys) {
			t.Errorf("fields %v, want %v", got, keys)
		}
	}
	code, out, _ := runCLI(t, "", "validate", "--format", "jsonl", samples+"bad.xml")
	if code != exitProblems {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 5 {
		t.Fatalf("jsonl: %q", out)
	}
	for _, l := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(l), &obj); err != nil {
			t.Fatalf("jsonl line %q: %v", l, err)
		}
		check(t, obj)
	}
	if !strings.Contains(out, `"message":"<loc>`) {
		t.Errorf("HTML-escaped messages: %s", out)
	}

	_, out, _ = runCLI(t, "", "validate", "--format", "json", samples+"bad.xml", samples+"empty.xml")
	var arr []map[string]any
	if err := json.Unmarshal([]byte(out), &arr); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if len(arr) != len(lines)+1 {
		t.Errorf("json array has %d diagnostics, want %d", len(arr), len(lines)+1)
	}
	for _, obj := range arr {
		check(t, obj)
	}
	code, out, _ = runCLI(t, "", "validate", "--format", "json", samples+"basic.xml")
	if code != exitOK || strings.TrimSpace(out) != "[]" {
		t.Errorf("clean json: exit %d, %q", code, out)
	}
}

func TestValidateUsage(t *testing.T) {
	for _, args := range [][]string{
		{"validate"},
		{"validate", "--format", "xml", samples + "basic.xml"},
		{"validate", "--now", "yesterday", samples + "basic.xml"},
		{"validate", "--base", "example.com", samples + "basic.xml"},
		{"validate", "no-such-file.xml"},
		{"validate", "-", "-"},
	} {
		code, _, errOut := runCLI(t, "", args...)
		if code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestValidateTrustedHostNotHost: a --trusted-host that is no host name
// (a URL, a host with a port or path) would never match a loc's host; it
// was accepted and silently ignored, the L-09 errors it was meant to turn
// into warnings left as they were.
func TestValidateTrustedHostNotHost(t *testing.T) {
	for _, h := range []string{"https://cdn.example.net/", "cdn.example.net:443", "cdn.example.net/img", "cdn example.net"} {
		code, out, errOut := runCLI(t, "", "validate", "--trusted-host", h, samples+"basic.xml")
		if code != exitUsage || out != "" || !strings.Contains(errOut, "--trusted-host") || !strings.Contains(errOut, "host name") {
			t.Errorf("--trusted-host %q: exit %d, stdout %q, stderr %q", h, code, out, errOut)
		}
	}
	for _, h := range []string{"cdn.example.net", "CDN.Example.NET", "[2001:db8::1]", "192.0.2.1", "bücher.example"} {
		if code, _, errOut := runCLI(t, "", "validate", "--trusted-host", h, samples+"basic.xml"); code != exitOK {
			t.Errorf("--trusted-host %q: exit %d, %s", h, code, errOut)
		}
	}
}

func TestValidateStdin(t *testing.T) {
	code, out, _ := runCLI(t, urlset("https://www.example.com/a", "https://www.example.com/a"), "validate", "--base", "https://www.example.com/sitemap.xml", "-")
	if code != exitOK || !strings.HasPrefix(out, "<stdin>:4:8: warning L-17: ") {
		t.Errorf("exit %d, out %q", code, out)
	}
}

func TestValidateLocalIndex(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "sitemap.xml"), sitemapIndex(
		"https://www.example.com/maps/sitemap-1.xml.gz",
		"https://www.example.com/maps/sub/sitemap-2.xml",
		"https://www.example.com/maps/sitemap-3.xml",
		"https://www.example.com/maps/nested.xml",
	))
	writeFile(t, filepath.Join(dir, "sitemap-1.xml.gz"), gzipped(urlset("https://www.example.com/maps/a", "https://www.example.com/other/b")))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	writeFile(t, filepath.Join(dir, "sub", "sitemap-2.xml"), urlset("https://www.example.com/maps/sub/c"))
	writeFile(t, filepath.Join(dir, "nested.xml"), sitemapIndex("https://www.example.com/maps/sitemap-1.xml.gz"))

	code, out, errOut := runCLI(t, "", "validate", "--base", "https://www.example.com/maps/", filepath.Join(dir, "sitemap.xml"))
	if code != exitProblems {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	ids := ruleIDs(out)
	// sitemap-1.xml.gz: /other/b is outside the child's directory (L-09);
	// sub/sitemap-2.xml is found through --base; sitemap-3.xml is missing
	// (VAL-01); nested.xml is an index (I-07).
	want := []string{"error L-09", "error VAL-01", "error I-07"}
	if !slices.Equal(ids, want) {
		t.Errorf("rules %v, want %v\n%s", ids, want, out)
	}
	if !strings.Contains(out, filepath.Join(dir, "sitemap-1.xml.gz")+":4:8: error L-09") {
		t.Errorf("child diagnostic not placed in the child file:\n%s", out)
	}
	if !strings.Contains(errOut, "4 documents") {
		t.Errorf("stderr: %s", errOut)
	}

	// --max-children bounds the children read (VAL-02).
	_, out, _ = runCLI(t, "", "validate", "--max-children", "1", "--base", "https://www.example.com/maps/", filepath.Join(dir, "sitemap.xml"))
	if ids := ruleIDs(out); !slices.Equal(ids, []string{"error L-09", "warning VAL-02"}) {
		t.Errorf("--max-children 1: %v\n%s", ids, out)
	}

	// Without --base children are found by file name: sub/sitemap-2.xml is
	// then looked for beside the index and missing.
	_, out, _ = runCLI(t, "", "validate", filepath.Join(dir, "sitemap.xml"))
	if n := strings.Count(out, "VAL-01"); n != 2 {
		t.Errorf("by file name: %d VAL-01, want 2\n%s", n, out)
	}
}

func TestValidateHTTP(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base := srv.URL
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(sitemapIndex(base+"/sitemap-1.xml.gz", base+"/sitemap-2.xml")))
	})
	mux.HandleFunc("/sitemap-1.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/gzip")
		w.Write([]byte(gzipped(urlset(base+"/a", "https://elsewhere.example.com/b"))))
	})
	// /sitemap-2.xml: 404 from the mux.

	code, out, errOut := runCLI(t, "", "validate", base+"/sitemap.xml")
	if code != exitProblems {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if ids := ruleIDs(out); !slices.Equal(ids, []string{"error L-09", "error VAL-01"}) {
		t.Errorf("rules %v\n%s", ids, out)
	}
	if !strings.Contains(out, base+"/sitemap-1.xml.gz:4:8: error L-09") || !strings.Contains(out, "404") {
		t.Errorf("out:\n%s", out)
	}
	if !strings.Contains(errOut, base+"/sitemap-1.xml.gz: urlset, 2 URLs") {
		t.Errorf("stderr:\n%s", errOut)
	}

	code, _, errOut = runCLI(t, "", "validate", base+"/missing.xml")
	if code != exitUsage || !strings.Contains(errOut, "404") {
		t.Errorf("top-level 404: exit %d, %q", code, errOut)
	}
}

func TestValidateHelp(t *testing.T) {
	code, out, _ := runCLI(t, "", "validate", "--help")
	if code != exitOK || !strings.Contains(out, "sitemap validate testdata/samples/basic.xml") || !strings.Contains(out, "--strict") {
		t.Errorf("help: %d %q", code, out)
	}
	// The examples with local files work as written (from the repository
	// root).
	t.Chdir("../..")
	for _, ex := range [][]string{
		{"validate", "testdata/samples/basic.xml"},
		{"validate", "--base", "https://www.example.com/", "--strict", "testdata/samples/basic.xml"},
	} {
		if code, out, errOut := runCLI(t, "", ex...); code != exitOK {
			t.Errorf("%v: exit %d\n%s%s", ex, code, out, errOut)
		}
	}
	if code, _, _ := runCLI(t, "", "validate", "--format", "jsonl", "--now", "2026-11-22T12:00:00Z", "testdata/samples/newsold.xml"); code != exitProblems {
		t.Errorf("newsold example: exit %d", code)
	}
}
