package sitemap_test

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/sitemapkit/sitemap"
)

func ExampleEncoder() {
	e := sitemap.NewEncoder(os.Stdout, sitemap.EncoderOptions{Extensions: sitemap.ExtImage})
	e.Encode(&sitemap.URL{
		Loc:     "https://www.example.com/a?x=1&y=2",
		LastMod: sitemap.DayOf(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)),
		Images:  []sitemap.Image{{Loc: "https://cdn.example.com/a.jpg"}},
	})
	// A refused entry leaves the document as it was.
	err := e.Encode(&sitemap.URL{Loc: "/relative"})
	e.Close()
	fmt.Println(err)
	fmt.Println(e.Count(), "entry,", e.Written(), "bytes")
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
	// <url><loc>https://www.example.com/a?x=1&amp;y=2</loc><lastmod>2026-11-02</lastmod><image:image><image:loc>https://cdn.example.com/a.jpg</image:loc></image:image></url>
	// </urlset>
	// loc "/relative" is not an absolute URL; sitemaps need https://… (L-01)
	// 1 entry, 340 bytes
}

// The building blocks give exact sizes before anything is written (S-07).
func ExampleEncoderOptions_AppendURL() {
	o := sitemap.EncoderOptions{}
	buf := o.AppendHeader(nil)
	header := len(buf)
	buf, err := o.AppendURL(buf, &sitemap.URL{Loc: "https://www.example.com/"})
	if err != nil {
		panic(err)
	}
	fmt.Println("header", header, "entry", len(buf)-header, "trailer", len(o.Trailer()))
	// Output:
	// header 100 entry 47 trailer 10
}

// A loc must already be percent-encoded (L-07); the encoder never rewrites
// it, but says what the encoded form would be.
func ExampleEntryError() {
	scope, _ := url.Parse("https://www.example.com/")
	err := sitemap.EncoderOptions{Scope: scope}.Check(&sitemap.URL{Loc: "https://www.example.com/ümlat.php?q=a b"})
	var ee *sitemap.EntryError
	if errors.As(err, &ee) {
		fmt.Println(ee.Field, ee.Rule)
		fmt.Println(ee.Suggest)
	}
	// Output:
	// loc L-07
	// https://www.example.com/%C3%BCmlat.php?q=a%20b
}
