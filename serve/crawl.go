package serve

import (
	"context"
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
func Crawl(log state.CrawlLog, version func(context.Context) (string, error)) Source {
	return crawlSource{log, version}
}

type crawlSource struct {
	log     state.CrawlLog
	version func(context.Context) (string, error)
}

func (c crawlSource) Version(ctx context.Context) (string, error) {
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
