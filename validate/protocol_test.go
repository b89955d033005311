package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/rules"
)

// Without a scope URL, a sitemap mixing http and https on one host is
// reported once (L-08: one protocol and host per sitemap).
func TestDocumentMixedProtocols(t *testing.T) {
	doc := "https://www.example.com/a\nhttp://www.example.com/b\nhttp://www.example.com/c\nhttps://www.example.com/d\n"
	var got []sitemap.Diagnostic
	if _, err := Document(context.Background(), strings.NewReader(doc), Options{Name: "urls.txt"}, func(d sitemap.Diagnostic) {
		if d.Rule == rules.L08 {
			got = append(got, d)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Line != 2 || !strings.Contains(got[0].Message, "one protocol and host") {
		t.Errorf("%v", got)
	}
}

// An index whose URL is unknown, read alone (--no-children), reports the
// children on another site than its first child's (I-05); followed, the
// walk says it instead, once.
func TestTreeNoChildrenOffSite(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "sitemap.xml")
	os.WriteFile(idx, []byte(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://www.example.com/a.xml</loc></sitemap>
<sitemap><loc>https://cdn.example.net/b.xml</loc></sitemap>
<sitemap><loc>https://www.example.com/c.xml</loc></sitemap>
</sitemapindex>
`), 0o644)
	var got []sitemap.Diagnostic
	_, err := Tree(context.Background(), []string{idx}, TreeOptions{NoChildren: true, OnDiagnostic: func(_ *input.Doc, d sitemap.Diagnostic) {
		if d.Rule == rules.I05 {
			got = append(got, d)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Line != 4 || got[0].Severity != sitemap.SeverityError || !strings.Contains(got[0].Message, "cdn.example.net") {
		t.Errorf("%v", got)
	}
}
