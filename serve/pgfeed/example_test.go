package pgfeed_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"
	"os/signal"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/sitemapkit/sitemap/serve/pgfeed"
)

// Follow a table by logical decoding: the first call asks for a full check,
// each later one names the keys of the rows a transaction changed.
func ExampleWatch() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := pgfeed.Watch(ctx, pgfeed.Options{
		ConnString: "postgres://sitemap@db.example.com/cms",
		Table:      "public.pages",
		Key:        "id",
		Create:     true, // create the publication sitemap_pages, drop it at the end
		Logf:       log.Printf,
	}, func(c pgfeed.Change) {
		if c.All {
			fmt.Println("check every page")
			return
		}
		fmt.Println("rebuild the pages holding", c.Keys)
	})
	if err != nil {
		fmt.Println(err) // what to change on the server, or how the feed failed
	}
}

// Without logical decoding: install the triggers once, as the table's owner,
// then listen.
func ExampleWatchNotify() {
	ctx := context.Background()
	const dsn = "postgres://cms@db.example.com/cms"
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	if err := pgfeed.InstallTrigger(ctx, db, "pages", "id"); err != nil {
		fmt.Println(err)
		return
	}
	err = pgfeed.WatchNotify(ctx, pgfeed.Options{ConnString: dsn, Table: "pages", Key: "id"}, func(c pgfeed.Change) {
		fmt.Println(c.All, c.Keys)
	})
	fmt.Println(err)
}
