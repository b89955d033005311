package main

import (
	"context"
	"time"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/serve"
)

// serveOptions are the flags and argument of `sitemap serve`: the run's
// serve.Settings, and its --db source.
type serveOptions struct {
	serve.Settings
	db sqlFlags

	// Deprecated flags, still accepted.
	updated         string
	maxBuilds       int
	noCache, noWarm bool
}

func newServeCmd(s *streams) *cobra.Command {
	o := &serveOptions{}
	c := withHelp("serve", &cobra.Command{
		Use:  "serve [flags] [DIR]",
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.Dir = args[0]
			}
			o.PerPageSet = c.Flags().Changed("per-page")
			return runServe(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Addr, "addr", ":8080", "`HOST:PORT` to listen on")
	f.StringVar(&o.AdminAddr, "admin-addr", "", "`HOST:PORT` for /metrics and /healthz (default: on --addr, to loopback clients only)")
	f.StringVar(&o.db.DB, "db", "", "database: a SQLite file, or a `URL` postgres://user:pass@host/db or mysql://user:pass@host:port/db")
	f.StringVar(&o.db.Table, "table", "", "`TABLE` of --db whose rows are the entries")
	f.StringVar(&o.db.Query, "query", "", "`SELECT` of --db whose rows are the entries (instead of --table)")
	f.StringVar(&o.db.Columns, "columns", "", "`FIELD=COLUMN,...` mapping loc, lastmod, changefreq, priority and ext (a JSON column of images, videos, news, alternates); a field not mapped is found by its column's name (url, updated_at, …)")
	f.StringVar(&o.db.Key, "key", "", "unique `COLUMN` the pages are cut by (default: the loc column); give it an index")
	o.db.registerPreset(f)
	f.StringVar(&o.State, "state", "", "crawl state `FILE` or postgres://user:pass@host/db: serve the pages its last crawl listed")
	f.StringVar(&o.BaseURL, "base-url", "", "`URL` the sitemaps are reachable at (the index's locs; relative locs resolve against it)")
	f.StringArrayVar(&o.Hosts, "host", nil, "without --base-url, a Host `NAME` requests may name (repeatable; default: localhost, 127.0.0.1 and [::1])")
	f.StringVar(&o.Name, "name", "sitemap", "base `NAME` of the index and pages")
	f.IntVar(&o.PerPage, "per-page", 0, "most URLs per page, 1 to 50,000 (default 1,000, more for over 20 million rows); a change rebuilds its page, so small pages follow a busy table fast")
	f.DurationVar(&o.Recheck, "recheck", 2*time.Second, "how often the source is checked for changes (stretched to 4 times a slow check's duration)")
	f.BoolVar(&o.XSL, "xsl", true, "serve NAME.xsl and name it in every document (for browsers that still run XSLT)")
	f.BoolVar(&o.HTML, "html", true, "answer a browser navigating to a sitemap with a readable HTML page")
	f.BoolVar(&o.Robots, "robots", false, "serve /robots.txt with a Sitemap: line for the index")
	f.StringVar(&o.RobotsFrom, "robots-from", "", "robots.txt `FILE` to serve (with the Sitemap: line added) under --robots")
	f.BoolVar(&o.GzipIndex, "gzip-index", false, "list the pages in the index by their .xml.gz names")
	f.StringVar(&o.CacheControl, "cache-control", "public, max-age=300", "Cache-Control `VALUE` of every sitemap (\"-\" for none)")
	f.StringVar(&o.Feed, "feed", "", "follow a PostgreSQL --table's commits instead of checking every page every --recheck: `logical` (logical decoding: needs wal_level=logical, a role with REPLICATION, and creates a publication) or notify (the triggers --install-trigger installs)")
	f.BoolVar(&o.InstallTrigger, "install-trigger", false, "install change triggers on --table (or the --preset's tables), then exit: PostgreSQL's for --feed notify; on SQLite and MySQL/MariaDB a change log (sitemap_changes, a row per write; MySQL needs the TRIGGER privilege), which serve then reads to rebuild only the pages a commit touched")
	f.BoolVar(&o.RemoveTrigger, "remove-trigger", false, "remove the triggers (and the change log) --install-trigger installed, then exit")
	f.StringVar(&o.IndexNow.KeyFile, "indexnow-key-file", "", "submit every URL added or changed to IndexNow with the key of this key `FILE`, within seconds (needs --base-url and --indexnow-state)")
	f.StringVar(&o.IndexNow.State, "indexnow-state", "", "state `FILE` (or postgres://…) recording what was submitted, shared with 'sitemap submit --state': each URL is sent once at each version")
	f.StringVar(&o.IndexNow.Endpoint, "indexnow-endpoint", indexnow.DefaultEndpoint, "IndexNow `URL` to submit to")
	f.StringVar(&o.IndexNow.KeyLocation, "indexnow-key-location", "", "`URL` of the key file when it is not https://HOST/KEY.txt (IN-05)")
	f.Int64Var(&o.IndexNow.MaxPerDay, "indexnow-max-per-day", 0, "submit at most `N` URLs in 24 hours, counted in --indexnow-state (0: no limit)")
	f.BoolVar(&o.IndexNow.CatchUp, "indexnow-catch-up", false, "at start, also submit every URL of the pages that --indexnow-state has not seen sent (what changed while serve was down; a ledger lookup per URL)")
	f.StringVar(&o.CacheDir, "cache-dir", "", "`DIR` where built pages are kept, gzipped, instead of in memory (about 12 bytes per URL)")
	f.BoolVar(&o.AccessLog, "access-log", true, "log every request on standard error")
	f.DurationVar(&o.ReadTimeout, "read-timeout", 10*time.Second, "time limit to read a request")
	f.DurationVar(&o.WriteTimeout, "write-timeout", 2*time.Minute, "time limit to send an answer")
	f.DurationVar(&o.ShutdownTimeout, "shutdown-timeout", 30*time.Second, "on SIGTERM, how long the answers in progress may take to finish")
	f.StringVar(&o.updated, "updated", "", "")
	f.IntVar(&o.maxBuilds, "max-builds", 0, "")
	f.BoolVar(&o.noCache, "no-cache", false, "")
	f.BoolVar(&o.noWarm, "no-warm", false, "")
	f.MarkDeprecated("updated", "changes are found by reading the pages (or a change feed), not by a column's maximum")
	f.MarkDeprecated("max-builds", "pages are built once per change, in the background, never per request")
	f.MarkDeprecated("no-cache", "pages are always built once per change and kept (see --cache-dir)")
	f.MarkDeprecated("no-warm", "pages are always built before the first request")
	return c
}

// serveReady is what runServe prints once it listens; tests wait for it.
const serveReady = serve.Listening

// runServe runs serve.Run; every error it returns is one of the flags or
// of the source, an exit status of 2.
func runServe(ctx context.Context, o *serveOptions, s *streams) error {
	o.DB = o.db.Settings
	if err := serve.Run(ctx, o.Settings, s.Out, s.Err); err != nil {
		return cannotRun("%v", err)
	}
	return nil
}
