package view

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"golang.org/x/net/html"
)

func list(urls ...sitemap.URL) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for i := range urls {
			if err := yield(&urls[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

func mustDate(t *testing.T, s string) sitemap.Date {
	t.Helper()
	var d sitemap.Date
	if err := d.UnmarshalText([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return d
}

func sampleURLs(t *testing.T) []sitemap.URL {
	return []sitemap.URL{
		{Loc: "https://www.example.com/a?x=1&y=<2>", LastMod: mustDate(t, "2026-11-02"), ChangeFreq: "weekly", Priority: sitemap.Float64(0.8),
			Images: []sitemap.Image{{Loc: "https://www.example.com/a.jpg"}, {Loc: "https://www.example.com/b.jpg"}},
			News:   &sitemap.News{Title: `Breaking "news" <b>`}},
		{Loc: "javascript:alert(1)"},
		{Loc: "https://www.example.com/de/", Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://www.example.com/de/"}, {Hreflang: "en", Href: "https://www.example.com/"}}},
	}
}

// parse checks that the page parses and returns its text and the hrefs of
// its links.
func parse(t *testing.T, b []byte) (text string, hrefs []string) {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode && (n.Parent == nil || n.Parent.Data != "style") {
			sb.WriteString(n.Data)
		}
		if n.Type == html.ElementNode && n.Data == "a" {
			for _, a := range n.Attr {
				if a.Key == "href" {
					hrefs = append(hrefs, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return sb.String(), hrefs
}

func TestURLSet(t *testing.T) {
	var b bytes.Buffer
	err := URLSet(context.Background(), &b, list(sampleURLs(t)...), Options{Self: "https://www.example.com/sitemap.xml"})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	text, hrefs := parse(t, b.Bytes())
	wantHrefs := []string{"https://www.example.com/sitemap.xml", "https://www.example.com/a?x=1&y=<2>", "https://www.example.com/de/"}
	if strings.Join(hrefs, " ") != strings.Join(wantHrefs, " ") {
		t.Errorf("links %q, want %q (a javascript: loc is never a link)", hrefs, wantHrefs)
	}
	for _, want := range []string{"javascript:alert(1)", `Breaking "news" <b>`, "2026-11-02", "weekly", "0.8", "3 URLs."} {
		if !strings.Contains(text, want) {
			t.Errorf("page text lacks %q", want)
		}
	}
	for _, want := range []string{`<html lang="en">`, "<title>Sitemap</title>", "<main>", "<caption>", `<th scope="col">URL</th>`, `<td class="n">2</td>`} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(out, "<b>") || strings.Contains(out, "<script") {
		t.Error("a value was written unescaped")
	}
}

func TestIndexPagedAndStyled(t *testing.T) {
	var b bytes.Buffer
	kids := []sitemap.IndexEntry{{Loc: "https://www.example.com/s-1.xml", LastMod: mustDate(t, "2026-11-01T10:00:00Z")}, {Loc: "https://www.example.com/s-2.xml"}}
	err := Index(context.Background(), &b, IndexList(kids), Options{Title: "Our maps", Lang: "de", CSS: "body{color:red}</style><script>x</script>", Prev: "?page=1", Next: "?page=3", Start: 10})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	text, hrefs := parse(t, b.Bytes())
	if strings.Join(hrefs, " ") != "?page=1 ?page=3 https://www.example.com/s-1.xml https://www.example.com/s-2.xml" {
		t.Errorf("links %q", hrefs)
	}
	for _, want := range []string{"Our maps", "2026-11-01T10:00:00Z", "11", "12", "2 sitemaps on this page."} {
		if !strings.Contains(text, want) {
			t.Errorf("page text lacks %q", want)
		}
	}
	if !strings.Contains(out, `lang="de"`) || !strings.Contains(out, "body{color:red}") || strings.Contains(out, "</style><script>") || strings.Contains(out, DefaultCSS[:20]) {
		t.Errorf("CSS not replaced safely or lang not set:\n%s", out[:400])
	}
}

type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n += len(p); f.n > 50<<10 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

func many(n int) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		var u sitemap.URL
		for i := 0; i < n; i++ {
			u.Loc = "https://www.example.com/p/" + strings.Repeat("x", i%50)
			if err := yield(&u); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestURLSetStopsOnWriteErrorAndContext(t *testing.T) {
	if err := URLSet(context.Background(), &failWriter{}, many(100000), Options{}); err == nil || err.Error() != "disk full" {
		t.Errorf("write error: got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := URLSet(ctx, &bytes.Buffer{}, many(10), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: got %v", err)
	}
	stop := errors.New("source broke")
	broken := func(ctx context.Context, yield func(*sitemap.URL) error) error { return stop }
	var b bytes.Buffer
	if err := URLSet(context.Background(), &b, broken, Options{}); err != stop {
		t.Errorf("source error: got %v", err)
	}
}

func BenchmarkURLSet100k(b *testing.B) {
	for b.Loop() {
		if err := URLSet(context.Background(), discard{}, many(100000), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
