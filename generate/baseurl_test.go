package generate

import (
	"context"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/store"
)

// Build.BaseURL and Build.SiteURL are taken in their normal form (L-18),
// as the entries are, unless NoNormalize: Run refused
// https://Bücher.example/ ("cannot prefix index locs") though it wrote
// the entries of bücher.example in punycode, under it.
func TestRunBaseURLNormalForm(t *testing.T) {
	st := store.Memory()
	o := opts(st, nil)
	o.Build.BaseURL, o.Build.SiteURL, o.Build.MaxURLs = "https://Bücher.example:443/", "https://BÜCHER.example/", 1
	sum, err := Run(context.Background(), text("https://bücher.example/a", "https://bücher.example/b"), o)
	if err != nil {
		t.Fatal(err)
	}
	idx := string(st.Bytes("sitemap.xml"))
	if sum.URLs != 2 || !strings.Contains(idx, "<loc>https://xn--bcher-kva.example/sitemap-1-") || sum.Sitemap != "https://xn--bcher-kva.example/sitemap.xml" {
		t.Fatalf("%+v\n%s", sum, idx)
	}
	o.NoNormalize = true
	if _, err := Run(context.Background(), text("https://xn--bcher-kva.example/a"), o); err == nil {
		t.Error("NoNormalize: the base URL was taken as written? it was accepted")
	}
}
