package serve

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Logger writes a server's log lines to a writer, each with a prefix and
// on one line whatever it holds (a value with a control character is
// quoted), from any goroutine. Its Printf is what [Options.Log] and
// pgfeed.Options.Logf take.
type Logger struct {
	prefix string
	mu     sync.Mutex
	w      io.Writer
}

// NewLogger returns a Logger writing to w, every line starting with
// prefix ("sitemap serve: ").
func NewLogger(w io.Writer, prefix string) *Logger { return &Logger{prefix: prefix, w: w} }

// Printf writes one line.
func (l *Logger) Printf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if strings.IndexFunc(msg, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		msg = strconv.QuoteToGraphic(msg) // still one line, whatever it holds
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "%s%s\n", l.prefix, msg)
}

// Log sets the hooks of o that tell a server's operator what happens to
// logf, one line each, as `sitemap serve` logs them: an entry left out
// of its page (Skipped), a check of the source that failed or succeeded
// again (CheckError), and a failure of feed's changes after it started
// (FeedError; nil feed: none), after which the handler checks every page
// every recheck until the feed is back.
func (o *Options) Log(logf func(format string, args ...any), feed *PostgresFeed, recheck time.Duration) {
	o.Skipped = func(loc string, err error) {
		logf("entry left out of its page: %s", err) // an *EntryError quotes the value it names
	}
	o.CheckError = func(err error) {
		if err == nil {
			logf("the source is read again: serving what it holds")
			return
		}
		logf("%v; serving the pages of the last check that succeeded until one does", err)
	}
	o.FeedError = func(err error) {
		if feed == nil || !feed.Live() {
			return // it never started: its Down channel tells
		}
		logf("change feed: %v; checking every page every %s until it is back", err, recheck)
	}
}
