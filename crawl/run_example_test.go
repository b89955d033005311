package crawl_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/sitemapkit/sitemap/crawl"
)

// CheckShared refuses a worker without a database to share the crawl
// through.
func ExampleSettings_CheckShared() {
	fmt.Println(crawl.Settings{Worker: true, State: "postgres://crawler@db.example/site", Lease: 20 * time.Second}.CheckShared())
	fmt.Println(crawl.Settings{Worker: true, State: "crawl.db", Lease: 20 * time.Second}.CheckShared())
	// Output:
	// <nil>
	// --worker needs a PostgreSQL state (--state postgres://user:password@host/db): workers share the crawl through the database; a state file is one process's crawl
}

// StartOptions are what crawl.Start is given for the settings: a worker
// here, its notes printed.
func ExampleSettings_StartOptions() {
	s := crawl.Settings{Worker: true, Lease: 30 * time.Second}
	so := s.StartOptions("postgres://db.example/site", func(m string) { fmt.Println("sitemap:", m) })
	fmt.Println(so.Mode == crawl.Worker, so.Worker.Lease)
	so.Note("a note")
	// Output:
	// true 30s
	// sitemap: a note
}

// StartURL is the start URL given, but for Finish, which reads the
// shared crawl's from the database.
func ExampleSettings_StartURL() {
	start, err := crawl.Settings{}.StartURL(context.Background(), "https://www.example.com/")
	fmt.Println(start, err)
	// Output:
	// https://www.example.com/ <nil>
}

// CheckStart refuses a start URL without its scheme.
func ExampleCheckStart() {
	u, err := crawl.CheckStart("https://www.example.com/")
	fmt.Println(u.Host, err)
	_, err = crawl.CheckStart("www.example.com")
	fmt.Println(err)
	// Output:
	// www.example.com <nil>
	// START-URL "www.example.com" is not an absolute http(s) URL; give the homepage, e.g. https://www.example.com/
}

// WriteSharedStatus shows the progress of a crawl that workers share
// through a PostgreSQL database (sitemap crawl --status).
func ExampleWriteSharedStatus() {
	dsn := os.Getenv("CRAWL_DATABASE") // postgres://user:password@host/db
	if dsn == "" {
		return
	}
	if err := crawl.WriteSharedStatus(context.Background(), os.Stdout, dsn, false); err != nil {
		fmt.Println(err)
	}
}

// Interrupted is the last line of a crawl stopped by its context.
func ExampleSettings_Interrupted() {
	fmt.Println(crawl.Settings{}.Interrupted("crawl.db"))
	fmt.Println(crawl.Settings{DryRun: true}.Interrupted("crawl.db (a copy: dry run)"))
	// Output:
	// crawl interrupted; what was crawled is kept in crawl.db: run the same command again to continue
	// crawl interrupted; dry run, nothing kept
}

// ShowProgress draws a crawl's progress line on a terminal.
func ExampleOptions_ShowProgress() {
	o := crawl.Options{Rate: -1}
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		done := o.ShowProgress(os.Stderr)
		defer done()
	}
	// crawl.New(ctx, st, log, start, o) … Run(ctx)
}

// WriteClosing ends a crawl with its summary: here as JSON, without a
// publication.
func ExampleSummary_WriteClosing() {
	sum := crawl.Summary{Start: "https://www.example.com/", Fetched: 2, Listed: 2}
	err := sum.WriteClosing(os.Stdout, os.Stderr, true, nil)
	fmt.Println(err)
	// Output:
	// {
	//   "crawl": {
	//     "start": "https://www.example.com/",
	//     "fetched": 2,
	//     "listed": 2,
	//     "reasons": null,
	//     "elapsed_ns": 0
	//   }
	// }
	// <nil>
}

// WriteFailed says how many URLs failed and where they are listed.
func ExampleSummary_WriteFailed() {
	sum := crawl.Summary{Reasons: map[string]int{"status:404": 2, "noindex": 1}}
	fmt.Println(sum.WriteFailed(os.Stdout, "crawl-report.jsonl"))
	// Output:
	// sitemap: 2 URLs failed (see the counts above; crawl-report.jsonl lists them)
	// true
}

// NothingListed ends a crawl that found no page to list.
func ExampleSummary_NothingListed() {
	fmt.Println(crawl.Summary{Fetched: 3}.NothingListed(os.Stdout))
	fmt.Println(crawl.Summary{Unreachable: "connection refused"}.NothingListed(os.Stdout))
	// Output:
	// sitemap: no page can be listed; nothing published, previous sitemaps left as they were
	// <nil>
	// the site did not answer (connection refused): nothing crawled, nothing published; check the URL and that the site is up
}
