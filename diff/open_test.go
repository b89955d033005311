package diff

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

func urlset(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		lm := ""
		if i := strings.IndexByte(l, ' '); i >= 0 {
			l, lm = l[:i], "<lastmod>"+l[i+1:]+"</lastmod>"
		}
		fmt.Fprintf(&b, "<url><loc>%s</loc>%s</url>\n", l, lm)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

func index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>\n", l)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

func gz(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// read drains Entries into "loc source" lines, sorted.
func read(t *testing.T, e Entries) ([]string, error) {
	t.Helper()
	var out []string
	err := e(context.Background(), func(u *sitemap.URL) error {
		out = append(out, u.Loc+" "+filepath.Base(u.Source))
		return nil
	})
	slices.Sort(out)
	return out, err
}

func TestOpenLocal(t *testing.T) {
	const site = "https://example.com/"
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"sitemap.xml":      index(site+"sitemap-1.xml", site+"sitemap-2.xml.gz"),
		"sitemap-1.xml":    urlset(site+"a", site+"b"),
		"sitemap-2.xml.gz": gz(urlset(site + "c")),
		"extra.txt":        site + "t1\n" + site + "t2\n",
		"robots.txt":       "User-agent: *\nSitemap: " + site + "sitemap.xml\n",
		"entries.jsonl":    `{"loc":"` + site + `j","lastmod":"2026-01-01"}` + "\n",
		"notes.md":         "not read",
	})
	var diags []sitemap.Diagnostic
	o := OpenOptions{OnDiagnostic: func(d sitemap.Diagnostic) { diags = append(diags, d) }}
	tests := []struct {
		name string
		arg  string
		want []string
	}{
		{"I-10 an index file follows its children beside it", filepath.Join(dir, "sitemap.xml"),
			[]string{site + "a sitemap-1.xml", site + "b sitemap-1.xml", site + "c sitemap-2.xml.gz"}},
		{"a plain urlset", filepath.Join(dir, "sitemap-1.xml"), []string{site + "a sitemap-1.xml", site + "b sitemap-1.xml"}},
		{"T-01 a text sitemap", filepath.Join(dir, "extra.txt"), []string{site + "t1 extra.txt", site + "t2 extra.txt"}},
		{"JSONL entry records", filepath.Join(dir, "entries.jsonl"), []string{site + "j entries.jsonl"}},
		{"a directory: each file once, index not followed twice, robots.txt skipped", dir, []string{
			site + "a sitemap-1.xml", site + "b sitemap-1.xml", site + "c sitemap-2.xml.gz",
			site + "t1 extra.txt", site + "t2 extra.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := read(t, Open(tt.arg, o))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
	if len(diags) != 0 {
		t.Errorf("unexpected diagnostics: %v", diags)
	}
}

func TestOpenLocalProblems(t *testing.T) {
	const site = "https://example.com/"
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"idx.xml":       index(site+"present.xml", site+"missing.xml"),
		"present.xml":   urlset(site + "a"),
		"truncated.xml": urlset(site + "a")[:120],
		"nested.xml":    index(site + "idx.xml"),
		"page.html":     "<!doctype html><html><body>hi</body></html>",
	})
	if _, err := read(t, Open(filepath.Join(dir, "idx.xml"), OpenOptions{})); err == nil || !strings.Contains(err.Error(), "missing.xml") {
		t.Errorf("missing child: err = %v, want one naming missing.xml", err)
	}
	if _, err := read(t, Open(filepath.Join(dir, "truncated.xml"), OpenOptions{})); err == nil {
		t.Error("a truncated sitemap read without error: a partial side would show false removals")
	}
	if _, err := read(t, Open(filepath.Join(dir, "page.html"), OpenOptions{})); err == nil {
		t.Error("an HTML page read as a sitemap")
	}
	if _, err := read(t, Open(filepath.Join(dir, "nope.xml"), OpenOptions{})); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	// I-07: an index whose child is an index: the nested one is reported,
	// not followed.
	writeFiles(t, dir, map[string]string{"top.xml": index(site + "nested.xml")})
	var diags []string
	_, err := read(t, Open(filepath.Join(dir, "top.xml"), OpenOptions{OnDiagnostic: func(d sitemap.Diagnostic) { diags = append(diags, string(d.Rule)) }}))
	if err != nil || !slices.Contains(diags, "I-07") {
		t.Errorf("nested index: err %v, diagnostics %v; want an I-07 error", err, diags)
	}
}

func TestOpenStdin(t *testing.T) {
	got, err := read(t, Open("-", OpenOptions{Stdin: strings.NewReader(urlset("https://example.com/s"))}))
	if err != nil || len(got) != 1 || !strings.HasPrefix(got[0], "https://example.com/s ") {
		t.Errorf("stdin: %q %v", got, err)
	}
	got, err = read(t, Open("-", OpenOptions{Stdin: strings.NewReader(`{"loc":"https://example.com/j"}` + "\n")}))
	if err != nil || len(got) != 1 || !strings.HasPrefix(got[0], "https://example.com/j ") {
		t.Errorf("stdin JSONL: %q %v", got, err)
	}
}

func TestOpenHTTP(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux) // 127.0.0.1
	defer srv.Close()
	site := srv.URL + "/"
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, index(site+"s1.xml", site+"s2.xml"))
	})
	mux.HandleFunc("/s1.xml", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, urlset(site+"a", site+"b")) })
	mux.HandleFunc("/s2.xml", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, urlset(site+"c")) })
	mux.HandleFunc("/broken-index.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, index(site+"s1.xml", site+"gone.xml"))
	})
	got, err := read(t, Open(site+"sitemap.xml", OpenOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{site + "a s1.xml", site + "b s1.xml", site + "c s2.xml"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if _, err := read(t, Open(site+"broken-index.xml", OpenOptions{})); err == nil || !strings.Contains(err.Error(), "gone.xml") {
		t.Errorf("a child answering 404: err = %v, want one naming gone.xml", err)
	}
}

// TestOpenJSONLRecordWithoutLoc: a JSONL entry record without "loc" is an
// X-04 error at its line and is not an entry; it was compared as a page
// whose URL is "" ("- " in the text output).
func TestOpenJSONLRecordWithoutLoc(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"e.jsonl": `{"loc":"https://example.com/a"}` + "\n" + `{"lastmod":"2026-01-01"}` + "\n",
	})
	var diags []string
	o := OpenOptions{OnDiagnostic: func(d sitemap.Diagnostic) {
		diags = append(diags, fmt.Sprintf("%d %s %s", d.Line, d.Severity, d.Rule))
	}}
	got, err := read(t, Open(filepath.Join(dir, "e.jsonl"), o))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"https://example.com/a e.jsonl"}) || !slices.Equal(diags, []string{"2 error X-04"}) {
		t.Errorf("entries %q, diagnostics %q; want the one page and an X-04 error on line 2", got, diags)
	}
}
