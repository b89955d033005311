package serve

import (
	"context"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/serve/pgfeed"
)

// A feed that cannot start (no server there) is told on Down, once, and
// is not Live; its Watch returns the error.
func TestWatchPostgresDown(t *testing.T) {
	f := &PostgresFeed{Options: pgfeed.Options{ConnString: "postgres://sitemap@127.0.0.1:1/none?connect_timeout=2", Table: "pages", Key: "loc"}}
	src := WatchPostgres(Seq(nil, nil), f)
	w, ok := src.(Watcher)
	if !ok {
		t.Fatalf("%T is no Watcher", src)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := w.Watch(ctx, func(Change) { t.Error("a change from no server") }); err == nil {
		t.Fatal("Watch of no server returned nil")
	}
	select {
	case err := <-f.Down():
		if err == nil {
			t.Error("nil on Down")
		}
	default:
		t.Error("nothing on Down")
	}
	if f.Live() {
		t.Error("Live without a change")
	}
}
