package serve

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// Lines of any goroutine stay whole and one line each, control
// characters quoted; Options.Log says a check that failed and the
// recovery, and a feed's failure only once it has started.
func TestLoggerAndLog(t *testing.T) {
	var b strings.Builder
	l := NewLogger(&b, "p: ")
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { l.Printf("line %d", 1) })
	}
	wg.Wait()
	l.Printf("bad\nvalue")
	var o Options
	o.Log(l.Printf, nil, time.Second)
	o.CheckError(errors.New("connection refused"))
	o.CheckError(nil)
	o.FeedError(errors.New("never shown"))
	feed := &PostgresFeed{}
	feed.live.Store(true)
	o.Log(l.Printf, feed, 2*time.Second)
	o.FeedError(errors.New("slot dropped"))
	want := strings.Repeat("p: line 1\n", 4) + `p: "bad\nvalue"` + "\n" +
		"p: connection refused; serving the pages of the last check that succeeded until one does\n" +
		"p: the source is read again: serving what it holds\n" +
		"p: change feed: slot dropped; checking every page every 2s until it is back\n"
	if b.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", b.String(), want)
	}
}
