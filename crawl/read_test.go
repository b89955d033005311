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

// FuzzReadPage: any body and header values, whatever the page URL; the
// alternates have one entry per code, and everything resolved is
// absolute.
func FuzzReadPage(f *testing.F) {
	f.Add(`<link rel=canonical href=/c><link rel=alternate hreflang=de href="../de">`, `</x>; rel="canonical"`, "noindex", "https://e.com/a/b")
	f.Add(`<base href="//h/"><link rel="alternate" hreflang="x-default" href="?q">`, `<a>;rel=canonical, <b>`, "bot: none, unavailable_after: x", "http://e.com")
	f.Add("<meta name=robots content=none>", "", "", "not a url")
	f.Fuzz(func(t *testing.T, doc, link, xrobots, pageURL string) {
		h := http.Header{}
		h.Set("Content-Type", "text/html")
		h.Set("Link", link)
		h.Set("X-Robots-Tag", xrobots)
		p, err := ReadPage(strings.NewReader(doc), h, pageURL, "bot", 4096)
		if err != nil {
			return
		}
		codes := map[string]bool{}
		for _, a := range p.Alternates {
			c := strings.ToLower(a.Hreflang)
			if codes[c] {
				t.Fatalf("hreflang %q twice: %+v", c, p.Alternates)
			}
			codes[c] = true
			if !strings.Contains(a.Href, "://") {
				t.Fatalf("alternate %q not absolute (page %q)", a.Href, pageURL)
			}
		}
		if p.Canonical != "" && !strings.Contains(p.Canonical, "://") {
			t.Fatalf("canonical %q not absolute (page %q)", p.Canonical, pageURL)
		}
	})
}

// ReadPage's Fingerprint is the crawl's content_hash of the page: the
// same for two answers that differ only in their footer, another when the
// main content changes.
func TestReadPageFingerprint(t *testing.T) {
	h := http.Header{}
	h.Set("Content-Type", "text/html")
	read := func(main, footer string) string {
		t.Helper()
		doc := "<html><head><title>T</title></head><body><main>" + main + "</main><footer>" + footer + "</footer></body></html>"
		p, err := ReadPage(strings.NewReader(doc), h, "https://e.com/p", "sitemap", 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := parseHTML(strings.NewReader(doc), "text/html", 10<<20, "sitemap")
		if err != nil || p.Fingerprint != parsed.Hash {
			t.Fatalf("fingerprint %q, the crawl's content hash %q (%v)", p.Fingerprint, parsed.Hash, err)
		}
		return p.Fingerprint
	}
	a, b, c := read("Text", "visit 1"), read("Text", "visit 2"), read("Other text", "visit 3")
	if !strings.HasPrefix(a, "html:") || a != b || a == c {
		t.Errorf("fingerprints %q, %q (footer changed), %q (main changed)", a, b, c)
	}
}
