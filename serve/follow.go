package serve

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/sitemapkit/sitemap/serve/pgfeed"
	"github.com/sitemapkit/sitemap/state"
)

// FullCheck is how often [Follow] has every page of a change log feed
// checked as well, when some changes reach no trigger: on MySQL and
// MariaDB (TRUNCATE fires none) and for a query (a preset's pages made
// of other tables' rows).
const FullCheck = 10 * time.Minute

// FollowOptions say how [Follow] follows a source's changes.
type FollowOptions struct {
	// DSN is the database the source reads, as [OpenDB] takes it: the
	// PostgreSQL feed connects to it.
	DSN string
	// Feed is PostgreSQL's feed of a table: "logical" (logical decoding)
	// or "notify" (the triggers of [SetTriggers]); "" for none.
	Feed string
	// Recheck is Options.Recheck, for what Follow says.
	Recheck time.Duration
	// Logf is told the feed's own news (triggers put back, a feed down).
	Logf func(format string, args ...any)
}

// Followed is a source with the feed [Follow] chose for it.
type Followed struct {
	// Source is what to give [NewHandler]: the source, watched when a
	// feed follows it.
	Source Source
	// Postgres is the PostgreSQL feed (FollowOptions.Feed), or nil: its
	// Down tells a feed that never started.
	Postgres *PostgresFeed
	// How says in a line how changes are found, for a log.
	How string
}

// Log sets o's logging of the server (Options.Log) and of the feed's
// failures, worded for this feed.
func (f *Followed) Log(o *Options, logf func(format string, args ...any), recheck time.Duration) {
	o.Log(logf, f.Postgres, recheck)
	if _, ok := f.Source.(watched); ok && f.Postgres == nil {
		o.FeedError = func(err error) {
			logf("change log: %v; checking every page every %s until it is back", err, recheck)
		}
	}
}

// Follow chooses how a handler finds src's changes, as `sitemap serve`
// does: with o.Feed, PostgreSQL's feed of the table ([WatchPostgres]); a
// SQLite or MySQL/MariaDB source whose change tables have the triggers
// of [InstallTriggers], their change log ([WatchChanges]; on MySQL or
// for a query with every page also checked every [FullCheck]); any other
// source is returned as it is (every page read and compared at each
// check: after each commit on SQLite, every Recheck elsewhere).
func Follow(ctx context.Context, src Source, o FollowOptions) (Followed, error) {
	sq, _ := src.(*SQLSource)
	if o.Feed != "" {
		if sq == nil || sq.q.Dialect != Postgres || sq.q.Table == "" {
			return Followed{}, fmt.Errorf("the PostgreSQL feed follows a PostgreSQL table: give a postgres:// database and a table")
		}
		f := &PostgresFeed{Options: pgfeed.Options{ConnString: o.DSN, Table: sq.q.Table, Create: true, Logf: o.Logf}, Notify: o.Feed == "notify"}
		return Followed{Source: WatchPostgres(src, f), Postgres: f, How: "the " + o.Feed + " feed of table " + sq.q.Table + ": only the pages a commit touches are read"}, nil
	}
	if sq == nil {
		return Followed{Source: src, How: "every page is checked every " + o.Recheck.String()}, nil
	}
	on, err := sq.ChangeLog(ctx)
	if err != nil {
		return Followed{}, fmt.Errorf("reading its triggers: %w", err)
	}
	if !on {
		what := "the query"
		if sq.q.Table != "" {
			what = "table " + sq.q.Table
		}
		if len(sq.ChangeTables()) > 0 && sq.q.Dialect != Postgres {
			what += " has no change triggers (to install them, run this command once with --install-trigger added)"
		}
		how := "every " + o.Recheck.String() + " every page is read and compared (about 1 s a million rows)"
		if sq.q.Dialect == SQLite {
			how = "after each commit every page is read and compared (about 1 s a million rows)"
		}
		return Followed{Source: src, How: what + ": " + how}, nil
	}
	f := &ChangeFeed{Logf: o.Logf}
	if sq.q.Dialect == MySQL || sq.q.Table == "" {
		f.Full = FullCheck
	}
	var names []string
	for _, ct := range sq.ChangeTables() {
		names = append(names, ct.Table)
	}
	how := "the change log of " + tablesWord(len(names)) + " " + strings.Join(names, ", ") + ": only the pages a commit touches are read"
	if f.Full > 0 {
		how += ", and every page every " + f.Full.String()
	}
	return Followed{Source: WatchChanges(sq, f), How: how}, nil
}

// tables is "table" or "tables", for n of them.
func tablesWord(n int) string {
	if n == 1 {
		return "table"
	}
	return "tables"
}

// SetTriggers installs (or with remove, removes) the change triggers of
// src, a source of the database dsn names, and says what it did in a
// line: on PostgreSQL those of a NOTIFY feed on src's table
// ([pgfeed.InstallTrigger]); on SQLite and MySQL/MariaDB the change log's
// on src's change tables ([InstallTriggers], [RemoveTriggers]). dsn is
// opened again for it, with write access ([OpenDB] opens a SQLite file
// read-only). A source of no table (a query without Query.Changes) is an
// error.
func SetTriggers(ctx context.Context, dsn string, src *SQLSource, remove bool) (string, error) {
	if state.IsPostgres(dsn) {
		return setPostgresTrigger(ctx, dsn, src, remove)
	}
	tables := src.ChangeTables()
	if len(tables) == 0 {
		return "", fmt.Errorf("a query names no table to put triggers on: give a table (or a preset)")
	}
	var db *sql.DB
	var err error
	if IsMySQL(dsn) {
		db, err = OpenDB(dsn)
	} else {
		db, err = sql.Open("sqlite", "file:"+dsn+"?_pragma=busy_timeout(10000)")
	}
	if err != nil {
		return "", err
	}
	defer db.Close()
	var names, keyed []string
	for _, ct := range tables {
		names = append(names, ct.Table)
		keyed = append(keyed, ct.Table+" (key "+ct.Key+")")
	}
	if remove {
		if err := RemoveTriggers(ctx, db, names...); err != nil {
			return "", err
		}
		return "the change triggers of " + tablesWord(len(names)) + " " + strings.Join(names, ", ") + " are removed", nil
	}
	if err := InstallTriggers(ctx, db, tables...); err != nil {
		return "", err
	}
	return "change triggers installed on " + tablesWord(len(names)) + " " + strings.Join(keyed, ", ") +
		": serve reads only the pages a commit touches (each write also writes a row of " + ChangeLog + "); --remove-trigger removes them", nil
}

func setPostgresTrigger(ctx context.Context, dsn string, src *SQLSource, remove bool) (string, error) {
	if src.q.Table == "" {
		return "", fmt.Errorf("the PostgreSQL triggers follow a table: give a table, not a query or a preset")
	}
	db, err := OpenDB(dsn)
	if err != nil {
		return "", err
	}
	defer db.Close()
	if remove {
		if err := pgfeed.RemoveTrigger(ctx, db, src.q.Table); err != nil {
			return "", err
		}
		return "the triggers of table " + src.q.Table + " are removed", nil
	}
	if err := pgfeed.InstallTrigger(ctx, db, src.q.Table, src.q.Key); err != nil {
		return "", err
	}
	return "triggers installed on table " + src.q.Table + " (key " + src.q.Key + "): serve it with --feed notify", nil
}
