package serve

import (
	"context"
	"sync/atomic"

	"github.com/sitemapkit/sitemap/serve/pgfeed"
)

// PostgresFeed is a change feed of a PostgreSQL table, for [WatchPostgres].
type PostgresFeed struct {
	// Options are the feed's (connection, table, logging); Key defaults to
	// the key column of a *SQLSource.
	pgfeed.Options
	// Notify follows the triggers pgfeed.InstallTrigger installs
	// (LISTEN/NOTIFY) instead of logical decoding.
	Notify bool

	live atomic.Bool
	down chan error
}

// Live reports whether the feed has told its first change.
func (f *PostgresFeed) Live() bool { return f.live.Load() }

// Down receives the error of a feed that failed before its first change
// (a server without wal_level=logical, a role without REPLICATION), once:
// a feed that never started, which a program reports and stops at; later
// failures are the handler's to retry (Options.FeedError).
func (f *PostgresFeed) Down() <-chan error { return f.down }

// WatchPostgres gives src the committed changes of the PostgreSQL table
// f follows ([pgfeed.Watch], or with f.Notify [pgfeed.WatchNotify]),
// their keys the rows' key column, so a handler rebuilds only the pages
// they touch (see [Watched]). It is `sitemap serve --feed`.
func WatchPostgres(src Source, f *PostgresFeed) Source {
	if sq, ok := src.(*SQLSource); ok && f.Key == "" {
		f.Key = sq.KeyColumn()
	}
	f.down = make(chan error, 1)
	follow := pgfeed.Watch
	if f.Notify {
		follow = pgfeed.WatchNotify
	}
	return Watched(src, func(ctx context.Context, fn func(Change)) error {
		err := follow(ctx, f.Options, func(c pgfeed.Change) {
			f.live.Store(true)
			keys := make([]Key, len(c.Keys))
			for i, k := range c.Keys {
				keys[i] = k
			}
			fn(Change{Keys: keys, All: c.All})
		})
		if err != nil && !f.live.Load() && ctx.Err() == nil {
			select {
			case f.down <- err:
			default:
			}
		}
		return err
	})
}
