package state

import (
	"context"
	"reflect"
	"testing"
	"time"
)

// TestCrawlLinks checks the link graph of the crawl log: each (From, To,
// Kind) kept once, no self links, Links paged in order, titles, inlinks
// (links and redirects only), click depths computed by Finish, and a new
// run forgetting all of it.
func TestCrawlLinks(t *testing.T) { eachBackend(t, testCrawlLinks) }

func testCrawlLinks(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t, storeOpts{}).(crawlStore)
	defer s.Close()
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	start, a, b, c, d := ex+"/", ex+"/a", ex+"/b", ex+"/c", ex+"/d"
	log, _ := beginCrawl(t, s, start, now)
	update(t, log, func(ctx context.Context, tx CrawlTx) error {
		for _, l := range []CrawlLink{{Loc: start}, {Loc: a, Depth: 1, Referrer: start}, {Loc: b, Depth: 1, Referrer: start},
			{Loc: c, Depth: 2, Referrer: a}, {Loc: d}} {
			if err := tx.Enqueue(ctx, l); err != nil {
				return err
			}
		}
		for _, e := range []CrawlEdge{
			{start, a, LinkFollow}, {start, a, LinkFollow}, {start, a, LinkAlternate}, {start, start, LinkFollow},
			{start, b, LinkNofollow}, {a, c, LinkRedirect}, {b, a, LinkFollow}, {b, d, LinkCanonical},
		} {
			if err := tx.Link(ctx, e); err != nil {
				return err
			}
		}
		if err := tx.Record(ctx, CrawlResult{Loc: start, Status: 200, Title: "Home", Reason: "x"}); err != nil {
			return err
		}
		return tx.Record(ctx, CrawlResult{Loc: a, Status: 301, Reason: "redirect"})
	})
	var got []CrawlEdge
	var after CrawlEdge
	for {
		page, err := log.Links(ctx, after, 2)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, page...)
		if len(page) < 2 {
			break
		}
		after = page[len(page)-1]
	}
	want := []CrawlEdge{{start, a, LinkFollow}, {start, a, LinkAlternate}, {start, b, LinkNofollow}, {a, c, LinkRedirect}, {b, a, LinkFollow}, {b, d, LinkCanonical}}
	// Sorted by From, To, Kind: ex+"/" < ex+"/a" < ex+"/b".
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links:\n%v\nwant\n%v", got, want)
	}

	update(t, log, func(ctx context.Context, tx CrawlTx) error { return tx.Finish(ctx, "limit:test") })
	out := outcomes(t, log)
	type view struct {
		Title           string
		Inlinks, Clicks int
	}
	for loc, w := range map[string]view{
		start: {"Home", 0, 0},
		a:     {"", 2, 1},  // start and b link to it; start's alternate does not count
		b:     {"", 1, 1},  // a nofollow link counts
		c:     {"", 1, 2},  // a redirect counts
		d:     {"", 0, -1}, // only a canonical names it
	} {
		o := out[loc]
		if g := (view{o.Title, o.Inlinks, o.Clicks}); g != w {
			t.Errorf("%s: %+v, want %+v", loc, g, w)
		}
	}

	// A title recorded again without one is forgotten.
	update(t, log, func(ctx context.Context, tx CrawlTx) error {
		return tx.Record(ctx, CrawlResult{Loc: start, Status: 200, Reason: "x"})
	})
	if o := outcomes(t, log)[start]; o.Title != "" {
		t.Errorf("title kept after a record without one: %q", o.Title)
	}

	// A new run (another start) forgets the graph.
	log2, run := beginCrawl(t, s, ex+"/other", now.Add(time.Hour))
	if run.Resumed {
		t.Fatal("resumed a finished run")
	}
	if page, err := log2.Links(ctx, CrawlEdge{}, 10); err != nil || len(page) != 0 {
		t.Errorf("links after a new run: %v, %v", page, err)
	}
}
