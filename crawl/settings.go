package crawl

import (
	"fmt"
	"regexp"
	"time"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/urlfilter"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Settings are a crawl's Options as a person gives them (the flags of
// `sitemap crawl`, named alike): 0 is no limit where Options reads 0 as
// its default, patterns and the query rule are text, and the listing
// rules to switch off are named (Options.Ignore).
type Settings struct {
	UserAgent string
	Scope     fetch.Scope
	// Concurrency must be at least 1; the others must not be negative.
	Concurrency      int
	Rate             float64
	Timeout          time.Duration
	MaxDepth         int
	MaxPages         int
	MaxTime          time.Duration
	MaxQueryVariants int
	// Include, Exclude, ListInclude and ListExclude are RE2 patterns.
	Include, Exclude, ListInclude, ListExclude []string
	// Query is keep, strip or allow=NAME,NAME (urlnorm.ParseQuery).
	Query      string
	ImageHosts []string
	NoSitemaps bool
	Ignore     []string

	// State names the crawl's state: a SQLite file, a postgres://
	// database, or "" for the output directory's own file
	// (state.CrawlLocation). DryRun crawls into a copy of a file and
	// publishes nothing.
	State  string
	DryRun bool
	// Worker, Finish and Status (at most one, each with a PostgreSQL
	// State; CheckShared) crawl as one of the workers of a shared crawl,
	// publish one whose workers died, or show its progress. Again and
	// Lease (at least 1s) are a worker's WorkerOptions.
	Worker, Finish, Status bool
	Again                  bool
	Lease                  time.Duration
}

// Options checks s and returns the Options it sets. An error names the
// setting as its flag (--rate) and says what to give instead.
func (s Settings) Options() (Options, error) {
	o := Options{
		UserAgent: s.UserAgent, Concurrency: s.Concurrency, Rate: s.Rate, Timeout: s.Timeout,
		MaxDepth: s.MaxDepth, MaxPages: s.MaxPages, MaxTime: s.MaxTime, MaxQueryVariants: s.MaxQueryVariants,
		ImageHosts: s.ImageHosts, NoSitemaps: s.NoSitemaps, Scope: s.Scope,
	}
	for _, f := range []struct {
		name     string
		negative bool
	}{
		{"--rate", s.Rate < 0}, {"--max-depth", s.MaxDepth < 0}, {"--max-pages", s.MaxPages < 0},
		{"--max-query-variants", s.MaxQueryVariants < 0}, {"--max-time", s.MaxTime < 0},
	} {
		if f.negative {
			return o, fmt.Errorf("%s must not be negative (0 for no limit)", f.name)
		}
	}
	switch {
	case s.Timeout < 0:
		return o, fmt.Errorf("--timeout must not be negative, e.g. 30s")
	case s.Concurrency < 1:
		return o, fmt.Errorf("--concurrency must be at least 1")
	}
	if s.Rate == 0 {
		o.Rate = -1
	}
	if s.MaxQueryVariants == 0 {
		o.MaxQueryVariants = -1
	}
	var err error
	if o.Query, err = urlnorm.ParseQuery(s.Query); err != nil {
		return o, fmt.Errorf("--query: %v", err)
	}
	for _, x := range []struct {
		flag string
		pats []string
		dst  *[]*regexp.Regexp
	}{{"include", s.Include, &o.Include}, {"exclude", s.Exclude, &o.Exclude}, {"list-include", s.ListInclude, &o.ListInclude}, {"list-exclude", s.ListExclude, &o.ListExclude}} {
		if *x.dst, err = urlfilter.Compile(x.flag, x.pats); err != nil {
			return o, err
		}
	}
	if err := o.Ignore(s.Ignore); err != nil {
		return o, fmt.Errorf("--ignore %v", err)
	}
	if err := o.Check(); err != nil {
		return o, fmt.Errorf("--image-hosts: %v", err)
	}
	return o, nil
}
