package robots_test

import (
	"fmt"
	"net/url"
	"os"

	"github.com/sitemapkit/sitemap/robots"
)

// ListOf and Write print what `sitemap robots list` prints: the sitemap
// URLs, relative ones resolved against the robots.txt's URL.
func ExampleListOf() {
	f := robots.ParseBytes([]byte("User-agent: *\nDisallow:\n\nSitemap: /sitemap.xml\nSitemap: https://www.example.com/news.xml\n"))
	base, _ := url.Parse("https://www.example.com/robots.txt")
	l, _ := robots.ListOf(f, base.String(), base)
	l.Write(os.Stdout, "text")
	l.Write(os.Stdout, "jsonl")
	// Output:
	// https://www.example.com/sitemap.xml
	// https://www.example.com/news.xml
	// {"loc":"https://www.example.com/sitemap.xml"}
	// {"loc":"https://www.example.com/news.xml"}
}

// WriteWarnings prints each warning on one line, at most maxPerRule of
// one rule, and counts the rest.
func ExampleList_WriteWarnings() {
	f := robots.ParseBytes([]byte("Sitemap: a.xml\nSitemap: b.xml\nSitemap: c.xml\n"))
	l, _ := robots.ListOf(f, "robots.txt", nil)
	l.WriteWarnings(os.Stdout, 1)
	// Output:
	// robots.txt:1: warning RB-12: sitemap URL "a.xml" is relative; ignored (write the full https://… URL)
	// robots.txt: note RB-12: and 2 more RB-12 warnings (use --max-per-rule 0 to see all)
}

// NotFound is the list of a site without a robots.txt: no sitemaps, one
// RB-02 warning.
func ExampleNotFound() {
	robots.NotFound("https://www.example.com/robots.txt", 404).Write(os.Stdout, "json")
	// Output:
	// {
	//   "robots": "https://www.example.com/robots.txt",
	//   "sitemaps": [],
	//   "warnings": [
	//     {
	//       "rule": "RB-02",
	//       "severity": "warning",
	//       "message": "HTTP 404: no robots.txt, so no Sitemap lines (RB-02: it must be at /robots.txt)",
	//       "url": "https://www.example.com/robots.txt"
	//     }
	//   ]
	// }
}

// SitemapURL gives the form an added Sitemap: line has, and says what
// the normal form changed.
func ExampleSitemapURL() {
	n, changes, err := robots.SitemapURL("HTTPS://www.Example.com/a/../sitemap.xml")
	fmt.Println(n, "|", changes, "|", err)
	_, _, err = robots.SitemapURL("/sitemap.xml")
	fmt.Println(err)
	// Output:
	// https://www.example.com/sitemap.xml | scheme lower-cased, host lower-cased, dot segments removed | <nil>
	// sitemap URL "/sitemap.xml" is not an absolute http(s) URL; write https://host/… (RB-05)
}

// Change.Do adds or removes the line on a file's bytes (Edit.Apply) or on
// a file (Edit.File); WriteText says what it did.
func ExampleChange_Do() {
	src := []byte("User-agent: *\nDisallow: /private/\n")
	done, err := robots.Change{URL: "https://www.example.com/private/sitemap.xml"}.Do(func(e robots.Edit) (robots.Edited, error) { return e.Apply(src) })
	if err != nil {
		fmt.Println(err)
		return
	}
	os.Stdout.Write(done.Out)
	done.WriteText(os.Stdout, "robots.txt")
	// Output:
	// User-agent: *
	// Disallow: /private/
	//
	// Sitemap: https://www.example.com/private/sitemap.xml
	// robots.txt: added Sitemap: https://www.example.com/private/sitemap.xml
	// robots.txt: warning RB-11: this robots.txt disallows /private/sitemap.xml for *; crawlers will not fetch it
}
