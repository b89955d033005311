package serve

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

const dirSitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc></url>
</urlset>
`

// A published directory: only what a site serves, with the right headers.
func TestDir(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(dirSitemap))
	zw.Close()
	files := map[string]string{
		"sitemap.xml":                   dirSitemap,
		"sitemap-1-0123456789ab.xml.gz": gz.String(),
		"sitemap.xsl":                   "<xsl:stylesheet/>",
		"robots.txt":                    "User-agent: *\n",
		".sitemap.xml.0123.tmp":         "partial",
		"state.db":                      "SQLite format 3",
		".lock":                         "",
		"sub/.hidden/x.xml":             dirSitemap,
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink("/etc/passwd", filepath.Join(dir, "passwd.txt"))
	view := func(ctx context.Context, w io.Writer, d Document) error {
		fmt.Fprintf(w, "<h1>%s</h1>", d.Self)
		return d.URLs(ctx, func(u *sitemap.URL) error { _, err := fmt.Fprintf(w, "<li>%s</li>", u.Loc); return err })
	}
	h, err := Dir(dir, DirOptions{HTML: view})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, ctype string }{
		{"/sitemap.xml", "application/xml; charset=utf-8"},
		{"/sitemap-1-0123456789ab.xml.gz", "application/gzip"},
		{"/sitemap.xsl", "text/xsl; charset=utf-8"},
		{"/robots.txt", "text/plain; charset=utf-8"},
	} {
		res := get(t, h, "GET", tc.path, "Accept-Encoding", "gzip")
		b := body(t, res)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != tc.ctype {
			t.Errorf("%s: %s %q, want 200 %q", tc.path, res.Status, res.Header.Get("Content-Type"), tc.ctype)
		}
		if strings.HasSuffix(tc.path, ".xml") || strings.HasSuffix(tc.path, ".gz") {
			if res.Header.Get("Content-Encoding") == "gzip" != strings.HasSuffix(tc.path, ".xml") {
				t.Errorf("%s: Content-Encoding %q", tc.path, res.Header.Get("Content-Encoding"))
			}
			if gunzip(t, b) != dirSitemap {
				t.Errorf("%s: body differs", tc.path)
			}
		}
		etag := res.Header.Get("ETag")
		if r2 := get(t, h, "GET", tc.path, "Accept-Encoding", "gzip", "If-None-Match", etag); etag == "" || r2.StatusCode != 304 {
			t.Errorf("%s: ETag %q, then %s", tc.path, etag, r2.Status)
		}
		if r2 := get(t, h, "HEAD", tc.path); r2.StatusCode != 200 || body(t, r2) != "" {
			t.Errorf("HEAD %s: %s", tc.path, r2.Status)
		}
	}
	if b := body(t, get(t, h, "GET", "/sitemap.xml")); b != dirSitemap {
		t.Errorf("plain sitemap.xml: %q", b)
	}
	for _, p := range []string{"/.sitemap.xml.0123.tmp", "/state.db", "/.lock", "/", "/sub/", "/sub/.hidden/x.xml", "/passwd.txt", "/../" + filepath.Base(dir) + "/sitemap.xml.x", "/nosuch.xml"} {
		if res := get(t, h, "GET", p); res.StatusCode != 404 {
			t.Errorf("%s: %s, want 404", p, res.Status)
		}
	}
	res := get(t, h, "GET", "/sitemap.xml", "Accept", "text/html", "Sec-Fetch-Dest", "document")
	if b := body(t, res); b != "<h1>http://www.example.com/sitemap.xml</h1><li>https://www.example.com/a</li>" || res.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("browser: %v %s", res.Header, b)
	}
}

// A file rewritten with bytes of the same length and its old modification
// time put back gets another ETag: a 304 is never sent for other bytes.
func TestDirETagSameSizeAndTime(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sitemap.xml")
	doc := func(loc string) string {
		return `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + loc + "</loc></url></urlset>\n"
	}
	if err := os.WriteFile(p, []byte(doc("https://www.example.com/a")), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	h, err := Dir(dir, DirOptions{})
	if err != nil {
		t.Fatal(err)
	}
	etag := get(t, h, "GET", "/sitemap.xml").Header.Get("ETag")
	if err := os.WriteFile(p, []byte(doc("https://www.example.com/b")), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	if res := get(t, h, "GET", "/sitemap.xml", "If-None-Match", etag); res.StatusCode == 304 {
		t.Errorf("304 for other bytes of the same size and time (ETag %s)", etag)
	}
}
