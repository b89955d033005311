package crawl

import (
	"net/http"
	"strings"
	"testing"
)

// ReadPage reads noindex (meta and header apart), the canonical (the
// <link>, else the Link header) and the hreflang alternates, resolved.
func TestReadPage(t *testing.T) {
	h := http.Header{}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Add("X-Robots-Tag", "otherbot: noindex")
	h.Add("Link", `</c>; rel="canonical"`)
	body := `<html lang="en"><head><meta name="robots" content="NOINDEX">
<link rel="alternate" hreflang="de" href="/de/p"><link rel="alternate" hreflang="bad code" href="/x">
<link rel="alternate" hreflang="DE" href="/de/other"></head><body><a href="/a">a</a></body></html>`
	p, err := ReadPage(strings.NewReader(body), h, "https://e.com/en/p", "sitemap", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !p.NoindexMeta || p.NoindexHeader || p.Canonical != "https://e.com/c" || p.Lang != "en" {
		t.Fatalf("page %+v", p)
	}
	if len(p.Alternates) != 1 || p.Alternates[0].Href != "https://e.com/de/p" || p.Alternates[0].Hreflang != "de" {
		t.Fatalf("alternates %+v", p.Alternates)
	}
	h.Set("X-Robots-Tag", "sitemap: none")
	p, _ = ReadPage(strings.NewReader(`<link rel=canonical href="https://e.com/x/../y">`), h, "https://e.com/", "Sitemap", 0)
	if p.NoindexMeta || !p.NoindexHeader || p.Canonical != "https://e.com/y" {
		t.Fatalf("page %+v", p)
	}
}
