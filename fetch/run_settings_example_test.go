package fetch_test

import (
	"fmt"
	"os"
	"time"

	"github.com/sitemapkit/sitemap/fetch"
)

// The flags of `sitemap fetch` become the options of Run; a limit that
// means nothing is refused with its flag named.
func ExampleSettings_RunOptions() {
	s := fetch.Settings{Format: "jsonl", KnownPaths: "never", Concurrency: 8, PerHost: 4, MaxDepth: 5, MaxSitemaps: 100,
		SitemapTimeout: time.Minute, IdleTimeout: 30 * time.Second, Attempts: 3, Since: "24h"}
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	o, err := s.RunOptions("https://www.example.com/", now)
	fmt.Println(o.Format, o.KnownPaths == fetch.KnownPathsNever, o.Since.Format(time.RFC3339), err)
	_, err = s.RunOptions("www.example.com", now)
	fmt.Println(err)
	// Output:
	// jsonl true 2026-11-26T12:00:00Z <nil>
	// www.example.com: no such file, nor an absolute http(s) URL; give a sitemap file or directory, or a homepage, robots.txt or sitemap URL (did you mean https://www.example.com/?)
}

// Check refuses a limit the flags give no meaning.
func ExampleSettings_Check() {
	s := fetch.Settings{Concurrency: 8, PerHost: 0}
	fmt.Println(s.Check())
	// Output:
	// --per-host 0: give 1 or more
}

// WarnLocal says which of the HTTP-only flags given do nothing for a
// local start.
func ExampleWarnLocal() {
	fmt.Println(fetch.HTTPOnlyFlags())
	fetch.WarnLocal(os.Stdout, "sitemap.xml", []string{"--concurrency"})
	// Output:
	// [known-paths concurrency per-host idle-timeout attempts cache]
	// sitemap: warning: --concurrency has no effect on a local sitemap.xml; it applies only when reading over HTTP
}
