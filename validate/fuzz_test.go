package validate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
)

// FuzzDocument runs the whole validator over arbitrary bytes: it must not
// panic, must count exactly the diagnostics it reports, and every
// diagnostic must carry a rule, a message and the document's name.
func FuzzDocument(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "samples", "*.xml"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml"><url><loc>https://a.example/en</loc><xhtml:link rel="alternate" hreflang="de" href="https://a.example/de"/></url><url><loc>https://a.example/de</loc><xhtml:link rel="alternate" hreflang="en" href="https://a.example/en"/></url></urlset>`))
	f.Add([]byte("https://www.example.com/a\nhttps://www.example.com/ü b\n%zz\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var errs, warns, infos int
		o := Options{Name: "fuzz.xml", URL: "https://www.example.com/sitemap.xml", Now: testNow}
		sum, err := Document(context.Background(), bytes.NewReader(data), o, func(d sitemap.Diagnostic) {
			switch d.Severity {
			case sitemap.SeverityError:
				errs++
			case sitemap.SeverityWarning:
				warns++
			case sitemap.SeverityInfo:
				infos++
			default:
				t.Fatalf("bad severity %v", d.Severity)
			}
			if d.Rule == "" || d.Message == "" || d.File != "fuzz.xml" {
				t.Fatalf("incomplete diagnostic %+v", d)
			}
		})
		if err != nil {
			t.Fatalf("Document failed on in-memory input: %v", err)
		}
		if sum.Errors != errs || sum.Warnings != warns || sum.Infos != infos {
			t.Fatalf("summary %+v, counted %d/%d/%d", sum, errs, warns, infos)
		}
	})
}

// FuzzLoc checks single locs: no panic, and a loc the checker accepts
// without any finding is an absolute http(s) URL without raw spaces.
func FuzzLoc(f *testing.F) {
	for _, s := range []string{"https://www.example.com/a?x=1&y=2", "/relative", "mailto:x@example.com", "https://bücher.example/ä b", "https://www.example.com/%zz", "http://[::1]:80/x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, loc string) {
		var ds []sitemap.Diagnostic
		c, err := NewChecker(Options{Name: "f", URL: "https://www.example.com/", Now: testNow}, func(d sitemap.Diagnostic) { ds = append(ds, d) })
		if err != nil {
			t.Fatal(err)
		}
		u := sitemap.URL{Loc: loc, Alternates: []sitemap.Alternate{{Hreflang: loc, Href: loc}}}
		c.URL(&u, 1, 1)
		c.Finish()
		if loc != "" && len(ds) == 0 {
			if _, pr := check.URL(loc); !pr.OK() || bytes.ContainsAny([]byte(loc), " \t\n") {
				t.Fatalf("accepted %q", loc)
			}
		}
	})
}
