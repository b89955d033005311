package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/state"
)

// crawlStateFile writes a crawl state whose run listed ex/, linking to
// ex/a, and has ex/a and ex/b pending; finished marks the run finished.
func crawlStateFile(t *testing.T, finished bool) string {
	t.Helper()
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "crawl.db")
	st, err := state.OpenSQLite(ctx, db, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	log := st.Crawl()
	const ex = "https://www.example.com"
	if _, err := log.Begin(ctx, ex+"/", time.Now()); err != nil {
		t.Fatal(err)
	}
	err = log.Update(ctx, func(tx state.CrawlTx) error {
		for _, l := range []state.CrawlLink{{Loc: ex + "/"}, {Loc: ex + "/a", Depth: 1, Referrer: ex + "/"}, {Loc: ex + "/b", Depth: 1, Referrer: ex + "/"}} {
			if err := tx.Enqueue(ctx, l); err != nil {
				return err
			}
		}
		if err := tx.Record(ctx, state.CrawlResult{Loc: ex + "/", Status: 200, Entry: &sitemap.URL{Loc: ex + "/"}}); err != nil {
			return err
		}
		if err := tx.Link(ctx, state.CrawlEdge{From: ex + "/", To: ex + "/a", Kind: state.LinkFollow}); err != nil {
			return err
		}
		if finished {
			return tx.Finish(ctx, "limit:max-pages")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// serveRefusal runs serve on 127.0.0.1:0 with args and returns its exit
// status and standard error when it stops by itself; when it starts
// listening instead, it is stopped and started is the URL it announced.
func serveRefusal(t *testing.T, args ...string) (code int, stderr, started string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errb := newSyncBuffer()
	exited := make(chan int, 1)
	s := &streams{In: strings.NewReader(""), Out: io.Discard, Err: errb}
	go func() { exited <- execute(ctx, s, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)) }()
	select {
	case code := <-exited:
		return code, errb.String(), ""
	case u := <-errb.ready:
		cancel()
		<-exited
		return 0, errb.String(), u
	}
}

// TestServeUnfinishedCrawlRefused: serve --state of a crawl that was
// stopped half way would publish part of the site as its sitemap: it
// does not start (exit 2) and says how to finish the crawl; the crawl
// once finished is served.
func TestServeUnfinishedCrawlRefused(t *testing.T) {
	db := crawlStateFile(t, false)
	code, stderr, u := serveRefusal(t, "--state", db)
	if u != "" {
		t.Fatalf("serve of an unfinished crawl started at %s; want a refusal", u)
	}
	if code != exitUsage || !strings.Contains(stderr, "has not finished (2 URLs still to fetch)") || !strings.Contains(stderr, "sitemap crawl") {
		t.Errorf("exit %d; want 2 and a message that the crawl has not finished; stderr:\n%s", code, stderr)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, _, done := startServe(t, ctx, "--state", crawlStateFile(t, true))
	resp, body := httpGet(t, strings.TrimSuffix(base, "sitemap.xml")+"sitemap-1.xml")
	if resp.StatusCode != 200 || !strings.Contains(body, "<loc>https://www.example.com/</loc>") {
		t.Errorf("finished crawl: %d %s", resp.StatusCode, body)
	}
	cancel()
	if c := <-done; c != exitOK {
		t.Errorf("serve exited %d", c)
	}
}

// TestServeStateWithoutListedPages: a state file that holds no crawl
// (generate's) or a crawl that listed nothing would be served as an
// empty index: serve does not start, and says why.
func TestServeStateWithoutListedPages(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "generate.db")
	st, err := state.OpenSQLite(ctx, db, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	code, stderr, u := serveRefusal(t, "--state", db)
	if u != "" {
		t.Fatalf("serve of a state without a listed page started at %s; want a refusal", u)
	}
	if code != exitUsage || !strings.Contains(stderr, "lists no page") {
		t.Errorf("exit %d; want 2 and a message that there is no page to serve; stderr:\n%s", code, stderr)
	}
}
