package serve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/state"
)

// crawlBatch is how many listed pages the crawl source reads per query.
const crawlBatch = 1000

// Crawl is the Source of what a crawl found: the listed pages of a crawl
// log (state.CrawlLog.Listed), in loc order, their loc the key.
//
// version is the change check; nil counts the listed pages on every check
// (a walk of the log: give a cheaper one, such as [FileVersion] of the
// state file, for a large crawl).
//
// A log that tells whether its run is finished ([state.CrawlDone]) is
// read only then: while a new crawl runs in it (it has forgotten the last
// one's pages and listed only those it reached), the change check and the
// building of a page fail with [ErrCrawlRunning], so the handler keeps
// the pages it counted (sent from its page cache) or answers 503, never a
// part of the site.
func Crawl(log state.CrawlLog, version func(context.Context) (string, error)) Source {
	return crawlSource{log, version}
}

// ErrCrawlRunning is the error of a [Crawl] source whose log holds a run
// that has not finished.
var ErrCrawlRunning = errors.New("the crawl state holds a crawl that has not finished; its pages are served once it has")

type crawlSource struct {
	log     state.CrawlLog
	version func(context.Context) (string, error)
}

// finished fails with ErrCrawlRunning while the log's run is under way.
func (c crawlSource) finished(ctx context.Context) error {
	d, ok := c.log.(state.CrawlDone)
	if !ok {
		return nil
	}
	done, err := d.Finished(ctx)
	if err == nil && !done {
		err = ErrCrawlRunning
	}
	return err
}

func (c crawlSource) Version(ctx context.Context) (string, error) {
	if err := c.finished(ctx); err != nil {
		return "", err
	}
	if c.version != nil {
		return c.version(ctx)
	}
	n, err := c.log.Reasons(ctx)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(n[""]), nil
}

func (c crawlSource) Entries(ctx context.Context, after, upto Key, fn func(Key, *sitemap.URL) error) error {
	if err := c.finished(ctx); err != nil {
		return err
	}
	a, _ := after.(string)
	b, _ := upto.(string)
	for {
		batch, err := c.log.Listed(ctx, a, crawlBatch)
		if err != nil {
			return err
		}
		for _, e := range batch {
			if upto != nil && e.Loc > b {
				return nil
			}
			if err := fn(e.Loc, e.Entry); err != nil {
				return err
			}
		}
		if len(batch) < crawlBatch {
			return nil
		}
		a = batch[len(batch)-1].Loc
	}
}

// FileVersion is a change check for a source kept in files: the size and
// modification time of each (a missing file counts as such), e.g. a SQLite
// state file and its -wal journal.
func FileVersion(paths ...string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		v := ""
		for _, p := range paths {
			fi, err := os.Stat(p)
			switch {
			case os.IsNotExist(err):
				v += "-|"
			case err != nil:
				return "", err
			default:
				v += fmt.Sprintf("%d.%d|", fi.Size(), fi.ModTime().UnixNano())
			}
		}
		return v, nil
	}
}
