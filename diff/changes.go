package diff

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/state"
)

// DefaultFullEvery is how often, in runs, [Changes] makes a full pass
// unless ChangesOptions.FullEvery says otherwise.
const DefaultFullEvery = 10

// ChangesOptions are the options of [Changes].
type ChangesOptions struct {
	// Fetch are the walk's options (caps, concurrency, the Client).
	// NoDedup and Revisit are Changes' own, and CacheDir is not used:
	// the change log keeps each sitemap's entries, not its body.
	Fetch fetch.Options
	// Options are the comparison's (TempDir, ChunkBytes, Ignore).
	Options
	// FullEvery makes every FullEvery-th run a full pass: every child
	// sitemap is requested (conditionally), whatever <lastmod> its index
	// gives it, because indexes lie (0: DefaultFullEvery; negative: by
	// count never). The first run of a site is a full pass.
	FullEvery int
	// FullAfter makes a run a full pass when the last one is older than
	// this (0: by time never).
	FullAfter time.Duration
	// Full makes this run a full pass.
	Full bool
	// Since, when set, keeps the added and modified entries whose new
	// lastmod is after it (an entry without lastmod is left out);
	// removed entries are all emitted.
	Since time.Time
	// OnEvent, when set, is told of every event of the walk but the URL
	// entries (nodes and diagnostics), for the caller to print.
	OnEvent func(fetch.Event)
}

// ChangesSummary is what a [Changes] run did.
type ChangesSummary struct {
	// Summary counts the entries compared: those of the sitemaps read
	// again or gone, old and new.
	Summary
	// Walk is the walk's summary (bytes transferred, time, problems).
	Walk fetch.Summary
	// Full is set for a full pass, First for the site's first run.
	Full, First bool
	// Sitemaps read with a body (Read), answered 304 (NotModified), not
	// requested because their index's <lastmod> did not move (Skipped),
	// and no longer listed (Gone).
	Read, NotModified, Skipped, Gone int
	// Filtered counts the changes left out by Since.
	Filtered int
}

// Changes reads the site start leads to (as [fetch.Walk] does) and
// emits, in order of loc, what changed since the last run that log
// recorded for start: entries added, modified and removed, in the record
// `sitemap diff` writes. It transfers as little as it can: each sitemap
// is requested with the validators it last answered with (If-None-Match,
// If-Modified-Since) and a 304 means its entries are as recorded; a child
// whose <lastmod> in its index did not move is not requested at all,
// except on a full pass (ChangesOptions.FullEvery, FullAfter, Full). The
// first run emits every entry as added.
//
// What log keeps is each sitemap's entries (compressed, one value per
// sitemap), so only the sitemaps read again are compared, on disk past
// ChunkBytes: memory is bounded by the largest sitemap, never by the
// site. A URL that moves from a sitemap read again to one that was not
// (or that two sitemaps list) may be reported removed although still
// listed: the next full pass sets it right.
//
// The run is recorded only once every change was emitted: an error of
// emit, a cancelled ctx or a killed process leaves log as the last
// finished run left it, and the next run reports the same changes again.
// When a sitemap fails, the sitemaps not seen are kept rather than
// reported removed. The error is ctx's, emit's, log's, or the walk's
// when it could not run; a start that cannot be read at all is a
// [*fetch.StartError].
func Changes(ctx context.Context, start string, log state.ChangeLog, o ChangesOptions, emit func(Change) error) (ChangesSummary, error) {
	run, err := log.Begin(ctx, start, time.Now())
	if err != nil {
		return ChangesSummary{}, err
	}
	c := &changer{ctx: ctx, log: log, run: run, o: o, bufs: map[int]*entryBuf{}, touched: map[string]bool{}, listed: map[string]string{}}
	c.sum.First = run.Runs == 0
	every := o.FullEvery
	if every == 0 {
		every = DefaultFullEvery
	}
	c.full = o.Full || c.sum.First || (every > 0 && run.Runs+1-run.LastFull >= every) ||
		(o.FullAfter > 0 && time.Since(run.FullTime) >= o.FullAfter)
	c.sum.Full = c.full
	wo := o.Fetch
	wo.NoDedup, wo.Revisit, wo.CacheDir = true, c, ""
	ws, err := fetch.Walk(ctx, start, wo, c.event)
	c.sum.Walk = ws
	if err == nil {
		err = c.err
	}
	if err != nil {
		return c.sum, err
	}
	if ws.StartErr != nil {
		return c.sum, &fetch.StartError{Start: start, Err: ws.StartErr}
	}
	for u := range c.skipped {
		c.touched[u] = true
	}
	c.sum.Skipped = len(c.skipped)
	var gone []string
	if ws.Failed == 0 && len(ws.Capped) == 0 {
		for u, m := range run.Sitemaps {
			if !c.touched[u] {
				gone = append(gone, u)
				if !m.Index {
					c.old = append(c.old, u)
				}
			}
		}
	}
	c.sum.Gone = len(gone)
	sort.Strings(c.old)
	sort.Strings(c.changed)
	d, err := Diff(ctx, c.entries(log.Entries, c.old), c.entries(log.Staged, c.changed), o.Options, c.filter(emit))
	c.sum.Summary = d
	if err != nil {
		return c.sum, err
	}
	return c.sum, log.Commit(ctx, run, gone, c.full)
}

// changer is the state of one Changes run; it is the walk's
// fetch.Revisit.
type changer struct {
	ctx  context.Context
	log  state.ChangeLog
	run  state.ChangeRun
	o    ChangesOptions
	full bool
	sum  ChangesSummary
	err  error // the first error of the log (stops the walk)

	mu      sync.Mutex
	listed  map[string]string // child URL → the <lastmod> its index gives it now
	skipped map[string]bool

	bufs    map[int]*entryBuf // node ID → the entries being read
	touched map[string]bool   // sitemaps seen this run (read, 304, skipped, failed)
	changed []string          // sitemaps whose new entries are staged
	old     []string          // recorded sitemaps whose old entries are compared
}

// Validators implements fetch.Revisit: an index is always read (it says
// which children moved), a sitemap on what it last answered with.
func (c *changer) Validators(u string) (string, string) {
	m, ok := c.run.Sitemaps[u]
	if !ok || m.Index {
		return "", ""
	}
	return m.ETag, m.LastModified
}

// Skip implements fetch.Revisit.
func (c *changer) Skip(_, loc string, lastmod sitemap.Date) bool {
	lm := ""
	if !lastmod.IsZero() {
		lm = lastmod.String()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.listed[loc] = lm
	m, ok := c.run.Sitemaps[loc]
	if c.full || !ok || m.Index || lm == "" || m.IndexLastMod != lm {
		return false
	}
	if c.skipped == nil {
		c.skipped = map[string]bool{}
	}
	c.skipped[loc] = true
	return true
}

// event takes the walk's events on its one goroutine.
func (c *changer) event(ev fetch.Event) error {
	if ev.Kind != fetch.EventURL && c.o.OnEvent != nil {
		c.o.OnEvent(ev)
	}
	n := ev.Node
	switch {
	case ev.Kind == fetch.EventURL:
		if b := c.bufs[ev.NodeID]; b != nil {
			return b.add(ev.URL)
		}
	case n == nil || n.Kind != fetch.NodeSitemap:
	case ev.Kind == fetch.EventNodeStart:
		if c.bufs[n.ID] == nil {
			c.bufs[n.ID] = newEntryBuf()
		}
	case ev.Kind == fetch.EventNodeEnd:
		b := c.bufs[n.ID]
		delete(c.bufs, n.ID)
		if err := c.end(n, b); err != nil {
			c.err = err
			return err
		}
	}
	return nil
}

// end records what the run read of one sitemap.
func (c *changer) end(n *fetch.Node, b *entryBuf) error {
	c.touched[n.URL] = true
	if n.Failed || n.Err != "" || n.Status == 0 {
		return nil // kept as recorded
	}
	c.mu.Lock()
	m := state.ChangeSitemap{URL: n.URL, ETag: n.ETag, LastModified: n.LastModified, IndexLastMod: c.listed[n.URL]}
	c.mu.Unlock()
	switch {
	case n.NotModified:
		c.sum.NotModified++
		if prev, ok := c.run.Sitemaps[n.URL]; ok && m.ETag == "" && m.LastModified == "" {
			m.ETag, m.LastModified = prev.ETag, prev.LastModified
		}
		m.Kept = true
		return c.log.Stage(c.ctx, c.run, m, nil)
	case n.Format == "sitemapindex":
		m.Index = true
		return c.log.Stage(c.ctx, c.run, m, nil)
	}
	c.sum.Read++
	data, err := b.bytes()
	if err != nil {
		return err
	}
	if err := c.log.Stage(c.ctx, c.run, m, data); err != nil {
		return err
	}
	c.changed = append(c.changed, n.URL)
	if _, ok := c.run.Sitemaps[n.URL]; ok {
		c.old = append(c.old, n.URL)
	}
	return nil
}

// entries streams the entries get returns for each sitemap of urls.
func (c *changer) entries(get func(context.Context, state.ChangeRun, string) ([]byte, bool, error), urls []string) Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for _, u := range urls {
			data, ok, err := get(ctx, c.run, u)
			if err != nil {
				return err
			}
			if ok {
				if err := readEntries(data, u, yield); err != nil {
					return err
				}
			}
		}
		return nil
	}
}

// filter applies Since to what emit is given.
func (c *changer) filter(emit func(Change) error) func(Change) error {
	if c.o.Since.IsZero() {
		return emit
	}
	return func(ch Change) error {
		if ch.New != nil && (ch.New.LastMod.IsZero() || !ch.New.LastMod.Time.After(c.o.Since)) {
			c.sum.Filtered++
			return nil
		}
		return emit(ch)
	}
}

// String is the one-line summary for people.
func (s ChangesSummary) String() string {
	pass := "incremental"
	if s.Full {
		pass = "full"
	}
	return fmt.Sprintf("%d added, %d removed, %d modified (%s pass: %s read, %d not modified, %d skipped, %d gone)",
		s.Added, s.Removed, s.Modified, pass, plural.Of(s.Read, "sitemap", "sitemaps"), s.NotModified, s.Skipped, s.Gone)
}

// entryBuf holds one sitemap's entries as the change log stores them:
// gzip of uvarint(len(loc)) loc uvarint(len(data)) data, data the
// temporary record of tempcodec.go.
type entryBuf struct {
	buf     bytes.Buffer
	zw      *gzip.Writer
	scratch []byte
}

func newEntryBuf() *entryBuf {
	b := &entryBuf{}
	b.zw, _ = gzip.NewWriterLevel(&b.buf, gzip.BestSpeed) // a valid level
	return b
}

func (b *entryBuf) add(u *sitemap.URL) error {
	data, err := appendEntry(nil, u)
	if err != nil {
		return fmt.Errorf("%s: %w", u.Loc, err)
	}
	s := binary.AppendUvarint(b.scratch[:0], uint64(len(u.Loc)))
	s = append(s, u.Loc...)
	s = binary.AppendUvarint(s, uint64(len(data)))
	s = append(s, data...)
	b.scratch = s
	_, err = b.zw.Write(s)
	return err
}

func (b *entryBuf) bytes() ([]byte, error) {
	if b == nil {
		b = newEntryBuf()
	}
	if err := b.zw.Close(); err != nil {
		return nil, err
	}
	return b.buf.Bytes(), nil
}

var errCorruptLog = errors.New("the change log's entries of a sitemap are corrupt; run again with --full (or a new --state)")

// readEntries yields the entries of data (entryBuf's form), each with
// Source set to src.
func readEntries(data []byte, src string, yield func(*sitemap.URL) error) error {
	if len(data) == 0 {
		return nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return errCorruptLog
	}
	br := bufio.NewReader(zr)
	field := func() ([]byte, error) {
		n, err := binary.ReadUvarint(br)
		if err != nil {
			return nil, err
		}
		if n > 1<<30 {
			return nil, errCorruptLog
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(br, b); err != nil {
			return nil, errCorruptLog
		}
		return b, nil
	}
	for {
		loc, err := field()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errCorruptLog
		}
		d, err := field()
		if err != nil {
			return errCorruptLog
		}
		u, err := decodeEntry(record{loc: string(loc), data: d, src: src})
		if err != nil {
			return err
		}
		if err := yield(u); err != nil {
			return err
		}
	}
}

// ChangesRunOptions are the options of [RunChanges].
type ChangesRunOptions struct {
	ChangesOptions
	// Format is the output, one of [Formats] (default "jsonl").
	Format string
	// Quiet prints only the errors among the diagnostics; Verbose the
	// notes too.
	Quiet, Verbose bool
}

// RunChanges is `sitemap fetch --changes` as one call: [Changes] on the
// change log of the state named stateName ([state.Open]: a SQLite file,
// or a postgres:// URL), with the changes written to out in o.Format, the walk's diagnostics on diag
// as they come (at most fetch.DefaultShownPerRule of one rule), then one
// summary line: the changes, the pass, the sitemaps read, not modified,
// skipped and gone, the bytes transferred and the time.
func RunChanges(ctx context.Context, start, stateName string, o ChangesRunOptions, out, diag io.Writer) (ChangesSummary, error) {
	if o.Format == "" {
		o.Format = "jsonl"
	}
	w, err := NewWriter(out, o.Format)
	if err != nil {
		return ChangesSummary{}, err
	}
	st, err := state.Open(ctx, stateName, state.Options{})
	if err != nil {
		return ChangesSummary{}, fmt.Errorf("--state %s: %w", stateName, err)
	}
	defer st.Close()
	shown := report.NewCap(fetch.DefaultShownPerRule)
	o.OnEvent = func(ev fetch.Event) {
		d := ev.Diagnostic
		if ev.Kind != fetch.EventDiagnostic || (d.Severity == sitemap.SeverityInfo && !o.Verbose) ||
			(d.Severity == sitemap.SeverityWarning && o.Quiet) || !shown.Show(string(d.Rule)) {
			return
		}
		fmt.Fprintln(diag, d.String())
	}
	sum, err := Changes(ctx, start, st.Changes(), o.ChangesOptions, w.Write)
	if ferr := w.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("writing the output: %w", ferr)
	}
	if err != nil {
		return sum, err
	}
	line := fmt.Sprintf("fetch: %s, %s transferred in %s", sum, plural.Of(int(sum.Walk.Bytes), "byte", "bytes"), sum.Walk.Elapsed.Round(time.Millisecond))
	if sum.Filtered > 0 {
		line += fmt.Sprintf("; %d not after --since", sum.Filtered)
	}
	fmt.Fprintln(diag, line)
	return sum, nil
}

// ParseFullEvery reads the value of `fetch --full-every`: a number of
// runs (ChangesOptions.FullEvery; 0: never by count) or a duration
// (ChangesOptions.FullAfter, such as 168h).
func ParseFullEvery(s string) (runs int, after time.Duration, err error) {
	if n, err := strconv.Atoi(s); err == nil && n >= 0 {
		if n == 0 {
			n = -1
		}
		return n, 0, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return -1, d, nil
	}
	return 0, 0, fmt.Errorf("--full-every %q: give a number of runs (10) or a duration (168h)", s)
}
