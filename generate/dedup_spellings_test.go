package generate

import (
	"context"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/store"
)

// spellings are the eight URLs of issue 21: three URLs (~user, /b/c,
// café), spelt eight ways that RFC 3986 §6.2.2 makes one.
var spellings = []string{
	"https://example.com/~user",
	"https://example.com/%7euser",
	"https://example.com/%7Euser",
	"https://example.com/a/../b/c",
	"https://example.com/b/c",
	"https://example.com/caf%c3%a9",
	"https://example.com/caf%C3%A9",
	"HTTPS://EXAMPLE.COM:443/b/./c",
}

// TestRunDedupSpellings: generate publishes the eight spellings as three
// URLs, in their normal form, the five others counted as duplicates (L-17);
// with NoNormalize the URLs are written as given, the first spelling of
// each, and still compared in their normal form.
func TestRunDedupSpellings(t *testing.T) {
	for _, c := range []struct {
		noNormalize bool
		want        []string
	}{
		{false, []string{"https://example.com/~user", "https://example.com/b/c", "https://example.com/caf%C3%A9"}},
		{true, []string{"https://example.com/~user", "https://example.com/a/../b/c", "https://example.com/caf%c3%a9"}},
	} {
		st := store.Memory()
		sum, err := Run(context.Background(), text(spellings...), Options{
			Out: st, Build: build.Options{BaseURL: "https://example.com/"}, NoNormalize: c.noNormalize,
		})
		if err != nil {
			t.Fatal(err)
		}
		if sum.URLs != 3 || sum.Duplicates != 5 || sum.Skipped != 0 {
			t.Errorf("NoNormalize %v: urls %d dups %d skipped %d; want 3 5 0", c.noNormalize, sum.URLs, sum.Duplicates, sum.Skipped)
		}
		xml := string(st.Bytes("sitemap.xml"))
		if n := strings.Count(xml, "<loc>"); n != 3 {
			t.Errorf("NoNormalize %v: %d locs published, want 3:\n%s", c.noNormalize, n, xml)
		}
		for _, l := range c.want {
			if !strings.Contains(xml, "<loc>"+l+"</loc>") {
				t.Errorf("NoNormalize %v: sitemap lacks %s:\n%s", c.noNormalize, l, xml)
			}
		}
	}
}
