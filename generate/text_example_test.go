package generate_test

import (
	"fmt"
	"os"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/rules"
)

// A Reporter as Options.Report: the first Max invalid entries one by
// one, the rest counted at the end.
func ExampleReporter() {
	r := &generate.Reporter{Max: 1, Print: func(l string) { fmt.Println(l) }}
	for line := 1; line <= 3; line++ {
		r.Report(generate.Problem{Rule: rules.L01, Severity: sitemap.SeverityError, File: "urls.txt", Line: line, Message: "loc is not an absolute URL"})
	}
	r.WriteHeld(os.Stdout, 3)
	// Output:
	// urls.txt:1: loc is not an absolute URL (L-01)
	// … and 2 more invalid entries
}

func ExampleSummary_WhyEmpty() {
	fmt.Println(generate.Summary{Excluded: 7}.WhyEmpty(0, 0))
	// Output:
	// no entry left to publish: 7 left out by --include/--exclude
}

func ExampleSummary_WriteScope() {
	generate.Summary{OutOfScope: 2}.WriteScope(os.Stdout, "https://www.example.com/blog/", "")
	// Output:
	// sitemap: 2 entries are outside https://www.example.com/blog/: sitemaps list only URLs under the directory they are served from (L-15); serve them from the site's root, or give --site-url with the site's root and add the Sitemap: line to its robots.txt (--robots, O-03)
}

func ExampleSummary_WriteNotes() {
	sum := generate.Summary{Duplicates: 2, Sitemap: "https://cdn.example.com/sitemap.xml"}
	sum.WriteNotes(os.Stdout, false, "https://cdn.example.com/", "https://www.example.com/")
	// Output:
	// sitemap: 2 duplicate URLs skipped (L-17); the first valid one of each was kept (--keep-duplicates keeps them all)
	// sitemap: warning O-03: the sitemaps on cdn.example.com list URLs of www.example.com; search engines accept them only when https://www.example.com/robots.txt has the line "Sitemap: https://cdn.example.com/sitemap.xml" (cross-submission, RB-08); add it with --robots or "sitemap robots add"
}

func ExampleSummary_WriteClosing() {
	problems := generate.Summary{Summary: build.Summary{Skipped: 3}}.WriteClosing(os.Stdout, false)
	fmt.Println("problems:", problems)
	// Output:
	// sitemap: 3 invalid entries skipped; the valid ones were published
	// problems: true
}

func ExampleRobotsUpdate_WriteText() {
	u := &generate.RobotsUpdate{Path: "public/robots.txt", Sitemap: "https://www.example.com/sitemap.xml", Added: true}
	u.WriteText(os.Stdout)
	// Output:
	// public/robots.txt: added Sitemap: https://www.example.com/sitemap.xml
}
