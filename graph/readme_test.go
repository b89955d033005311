package graph

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/png"
	"os"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/browsertest"
)

var readmePNG = flag.String("readme-png", "", "also write the README's screenshot of the map to this file")

// demoSite is a site of a few hundred pages in sections of several sizes.
func demoSite() sitemap.Entries {
	var urls []sitemap.URL
	add := func(format string, n int, ext func(*sitemap.URL)) {
		for i := 1; i <= n; i++ {
			u := sitemap.URL{Loc: "https://www.example.com" + fmt.Sprintf(format, i)}
			if ext != nil {
				ext(&u)
			}
			urls = append(urls, u)
		}
	}
	img := func(u *sitemap.URL) { u.Images = []sitemap.Image{{Loc: u.Loc + ".jpg"}} }
	add("/about/team-%d", 6, nil)
	for y := 2023; y <= 2026; y++ {
		add(fmt.Sprintf("/blog/%d/", y)+"post-%d", 20+10*(y-2023), nil)
	}
	add("/docs/getting-started/step-%d", 8, nil)
	add("/docs/guides/guide-%d", 24, nil)
	add("/docs/reference/api-%d", 60, nil)
	for _, c := range []string{"chairs", "desks", "lamps", "shelves", "sofas"} {
		add("/shop/"+c+"/item-%d", 15+len(c)*4, img)
	}
	add("/de/seite-%d", 12, func(u *sitemap.URL) {
		u.Alternates = []sitemap.Alternate{{Hreflang: "de", Href: u.Loc}, {Hreflang: "en", Href: "https://www.example.com/"}}
	})
	add("/news/story-%d", 9, func(u *sitemap.URL) { u.News = &sitemap.News{Title: "Story"} })
	return entries(urls...)
}

func TestMapScreenshot(t *testing.T) {
	tr, err := Build(context.Background(), demoSite(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tr.HTML(context.Background(), &b, DrawOptions{Title: "Sections of www.example.com"}); err != nil {
		t.Fatal(err)
	}
	tab := browsertest.New(t)
	tab.LoadFile(writeFile(t, "demo.html", b.Bytes()))
	tab.WaitVisible(`body[data-ready="1"]`)
	tab.Click("#expand")
	tab.Click("#fit")
	id := browsertest.Eval[int](tab, `+[...document.querySelectorAll("g.node")].find(g => g.querySelector("tspan.l").textContent === "lamps/").dataset.id`)
	tab.Click(fmt.Sprintf(`g.node[data-id="%d"] text`, id))
	if got := tab.Text("#ptitle"); got != "https://www.example.com/shop/lamps/" {
		t.Fatalf("panel %q", got)
	}
	shot := tab.Screenshot("readme")
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() < 800 || r.Dy() < 600 {
		t.Fatalf("screenshot %v", r)
	}
	tab.NoErrors()
	if *readmePNG != "" {
		var out bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&out, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*readmePNG, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
