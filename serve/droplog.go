package serve

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"sync"

	sitemap "github.com/sitemapkit/sitemap"
)

// DefaultDropLogRows is how many dropped values a [DropLog] remembers, and
// so logs, when NewDropLog is given no bound: about 0.5 MB of memory.
const DefaultDropLogRows = 10000

// DropLog logs the values left out of entries (a lastmod that is no date,
// an ext column that is not JSON, an image the encoder refuses) once per
// row key, field and value, and counts them by rule, for a server in
// front of a [Handler]: its Dropped method is a [Query.Dropped], its
// EncoderDropped an [Options.Dropped]. A row is read again at every page
// build and every recount; it is logged the first time only.
//
// Memory is bounded: it remembers at most max values (a 64-bit hash
// each); past that, one line says so and further values are counted, not
// logged. It is safe for concurrent use.
type DropLog struct {
	// Prefix starts every line written ("sitemap serve: ").
	Prefix string

	mu     sync.Mutex
	w      io.Writer
	max    int
	seed   maphash.Seed
	seen   map[uint64]struct{}
	full   bool
	rules  map[string]int64 // values dropped, by rule, each time
	logged int64
}

// NewDropLog returns a DropLog writing to w (nil: count only) and
// remembering at most max values (DefaultDropLogRows when max <= 0).
func NewDropLog(w io.Writer, max int) *DropLog {
	if max <= 0 {
		max = DefaultDropLogRows
	}
	return &DropLog{w: w, max: max, seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}, rules: map[string]int64{}}
}

// Dropped counts err, the value of field err.Field dropped from the row
// with key key and loc loc, and logs it unless it was logged before:
//
//	sitemap serve: https://www.example.com/b: warning M-01: lastmod "n/a" is not a date …; the row is served without a lastmod (row key 42)
func (l *DropLog) Dropped(key Key, loc string, err *sitemap.EntryError) {
	if err == nil {
		return
	}
	k := dropKey(key)
	var h maphash.Hash
	h.SetSeed(l.seed)
	h.WriteString(k)
	h.WriteByte(0)
	h.WriteString(err.Field)
	h.WriteByte(0)
	h.WriteString(err.Value)
	sum := h.Sum64()

	l.mu.Lock()
	defer l.mu.Unlock()
	l.rules[string(err.Rule)]++
	if _, ok := l.seen[sum]; ok {
		return
	}
	if len(l.seen) >= l.max {
		if !l.full && l.w != nil {
			fmt.Fprintf(l.w, "%smore than %d values were left out of rows; further ones are counted, not logged\n", l.Prefix, l.max)
		}
		l.full = true
		return
	}
	l.seen[sum] = struct{}{}
	l.logged++
	if l.w == nil {
		return
	}
	d := err.WithSeverity(sitemap.SeverityWarning)
	d.URL = loc
	if k != loc {
		d.Message, d.Field, d.Value, d.Fix = d.Text()+" (row key "+k+")", "", "", ""
	}
	io.WriteString(l.w, l.Prefix+d.String()+"\n")
}

// EncoderDropped is Dropped for a part the encoder refused (what: its
// field, as Options.Dropped says it): the row's key is not known there,
// so the loc stands for it.
func (l *DropLog) EncoderDropped(loc, what string, err error) {
	var c sitemap.EntryError
	var ee *sitemap.EntryError
	if errors.As(err, &ee) {
		c = *ee
	} else {
		c = sitemap.EntryError{Field: what, Message: err.Error()}
	}
	if c.Fix != "" {
		c.Fix += "; " + what + " is left out, the entry served without it"
	} else {
		c.Message += "; " + what + " is left out, the entry served without it"
	}
	l.Dropped(loc, loc, &c)
}

// dropKey writes a key as text for the log: a loc as it is, a number in
// decimal.
func dropKey(k Key) string {
	switch x := k.(type) {
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	return text(k)
}

// WriteMetrics writes the counts in the Prometheus text format: the
// values dropped by rule (each time a row is read: a row read at two page
// builds counts twice), and how many were logged.
func (l *DropLog) WriteMetrics(w io.Writer) error {
	l.mu.Lock()
	rules, counts := sortedCounts(l.rules)
	logged := l.logged
	l.mu.Unlock()
	fmt.Fprintf(w, "# HELP sitemap_serve_dropped_values_total Values left out of their entry, the entry served without them, by rule (counted each time the row is read).\n# TYPE sitemap_serve_dropped_values_total counter\n")
	for i, r := range rules {
		fmt.Fprintf(w, "sitemap_serve_dropped_values_total{rule=%q} %d\n", r, counts[i])
	}
	_, err := fmt.Fprintf(w, "# HELP sitemap_serve_dropped_values_logged_total Dropped values logged: once per row key, field and value, up to the log's bound.\n# TYPE sitemap_serve_dropped_values_logged_total counter\nsitemap_serve_dropped_values_logged_total %d\n", logged)
	return err
}
