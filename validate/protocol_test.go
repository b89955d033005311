package validate

import (
	"context"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
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
