// Package progress draws a one-line progress indicator on standard error
// for long runs (generate, crawl, fetch, parse, validate): count, rate and
// elapsed time, and, where the work's size is known (input bytes of their
// file size, sitemaps done of those queued, pages done of the frontier),
// done of total with an ETA; the rate and the ETA are those of the last
// ten seconds ([Window]), so a run whose pace changes says so; redrawn at most ten times a second. It draws only when its writer is a
// terminal and the work has run longer than a short delay (docs/CONVENTIONS.md:
// "a progress bar on standard error for work over about two seconds when
// standard error is a terminal, and never when it is not"); otherwise
// every method is a cheap no-op.
//
// Counting is one atomic add, so Add may be called once per URL from any
// goroutine.
package progress

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// Options configure a Bar.
type Options struct {
	// Unit names what is counted, plural ("URLs", "pages"). Default "items".
	Unit string
	// Total, when > 0, is the expected count; the line then shows a
	// percentage.
	Total int64
	// Delay is how long the work runs before the first draw. Zero means
	// the default of two seconds; negative means draw at once.
	Delay time.Duration
	// Interval is the time between redraws; default 100 ms (at most ten
	// redraws a second).
	Interval time.Duration
	// Of names what the work's done-of-total measure counts, when it is
	// not what Unit counts: "bytes" (the input read of its size, shown in
	// MB) or a plural noun ("sitemaps", "pages"). With it the line shows
	// "done of total" and an ETA once both are known (SetOf or Measure).
	Of string
	// Measure, when set, is polled at every redraw for the done-of-total
	// measure (instead of SetOf): for a figure the bar cannot be told of
	// as it changes, such as the offset of a file being read.
	Measure func() (done, total int64)
}

// Bar is a progress line. The zero value and nil are valid no-op bars.
type Bar struct {
	n      atomic.Int64
	doneOf atomic.Int64 // the done-of-total measure (Options.Of)
	total  atomic.Int64
	w      io.Writer
	o      Options
	start  time.Time
	now    func() time.Time
	stop   chan struct{}
	done   sync.WaitGroup
	mu     sync.Mutex // guards drawing, drawn and the samples
	drawn  bool
	closed atomic.Bool
	// samples are the figures of the last draws, oldest first, for the
	// rate and ETA of the last Window.
	samples []sample
}

// sample is the figures of one draw.
type sample struct {
	t       time.Time
	n, done int64
}

// Window is the span the rate and the ETA of a bar's line are measured
// over while it runs: a run whose pace changes (a large dedup set that
// starts reading the disk, a producer that slows down) shows its pace of
// now, not the average since its start. The final line gives the average
// of the whole run.
const Window = 10 * time.Second

// New returns a bar that draws on w when w is a terminal (an *os.File for
// which term.IsTerminal holds), and a no-op bar otherwise.
func New(w io.Writer, o Options) *Bar {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return &Bar{}
	}
	return start(w, o, time.Now)
}

// start returns an active bar drawing on w, whatever w is.
func start(w io.Writer, o Options, now func() time.Time) *Bar {
	if o.Unit == "" {
		o.Unit = "items"
	}
	if o.Delay == 0 {
		o.Delay = 2 * time.Second
	}
	if o.Interval <= 0 {
		o.Interval = 100 * time.Millisecond
	}
	b := &Bar{w: w, o: o, start: now(), now: now, stop: make(chan struct{})}
	b.done.Add(1)
	go b.loop()
	return b
}

func (b *Bar) loop() {
	defer b.done.Done()
	if b.o.Delay > 0 {
		t := time.NewTimer(b.o.Delay)
		select {
		case <-b.stop:
			t.Stop()
			return
		case <-t.C:
		}
	}
	tick := time.NewTicker(b.o.Interval)
	defer tick.Stop()
	for {
		b.draw(false)
		select {
		case <-b.stop:
			return
		case <-tick.C:
		}
	}
}

// Add counts n more items.
func (b *Bar) Add(n int64) {
	if b != nil && b.w != nil {
		b.n.Add(n)
	}
}

// Set sets the count.
func (b *Bar) Set(n int64) {
	if b != nil && b.w != nil {
		b.n.Store(n)
	}
}

// SetOf sets the done-of-total measure (Options.Of): done of total, the
// total as known so far (it may grow, as a crawl's frontier does).
func (b *Bar) SetOf(done, total int64) {
	if b != nil && b.w != nil {
		b.doneOf.Store(done)
		b.total.Store(total)
	}
}

// Count returns the count so far (0 for a no-op bar).
func (b *Bar) Count() int64 {
	if b == nil {
		return 0
	}
	return b.n.Load()
}

// Done stops the bar. When the bar has drawn, it draws the final figures
// and ends the line; when it never drew (a short run), it leaves no trace.
func (b *Bar) Done() {
	if b == nil || b.w == nil || b.closed.Swap(true) {
		return
	}
	close(b.stop)
	b.done.Wait()
	b.mu.Lock()
	drawn := b.drawn
	b.mu.Unlock()
	if drawn {
		b.draw(true)
	}
}

// Println writes msg and a newline to w (the bar's writer, or another
// one sharing the terminal) above the bar: the bar line is erased first
// and redrawn at the next tick. Clearing and writing happen under the
// bar's lock, so a redraw cannot land between them and glue the message
// to the bar. On a nil or silent Bar it just writes the line.
func (b *Bar) Println(w io.Writer, msg string) {
	if b == nil || b.w == nil {
		io.WriteString(w, msg+"\n")
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn {
		io.WriteString(b.w, "\r\x1b[K")
	}
	io.WriteString(w, msg+"\n")
}

// Writer returns w with the bar erased before every write (under the
// bar's lock, so a redraw cannot land inside it): for lines written to a
// terminal the bar shares. Each write should be whole lines. On a nil or
// silent Bar it returns w.
func (b *Bar) Writer(w io.Writer) io.Writer {
	if b == nil || b.w == nil {
		return w
	}
	return barWriter{b, w}
}

type barWriter struct {
	b *Bar
	w io.Writer
}

func (bw barWriter) Write(p []byte) (int, error) {
	bw.b.mu.Lock()
	defer bw.b.mu.Unlock()
	if bw.b.drawn {
		io.WriteString(bw.b.w, "\r\x1b[K")
	}
	return bw.w.Write(p)
}

// Clear erases the line (for printing a message above the bar); the next
// redraw brings it back. The bar's goroutine may redraw it before the
// caller prints; use Println to print a message above the bar.
func (b *Bar) Clear() {
	if b == nil || b.w == nil {
		return
	}
	b.mu.Lock()
	if b.drawn {
		io.WriteString(b.w, "\r\x1b[K")
	}
	b.mu.Unlock()
}

func (b *Bar) draw(final bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := State{N: b.n.Load(), Total: b.o.Total, Unit: b.o.Unit, Elapsed: b.now().Sub(b.start), Of: b.o.Of}
	if b.o.Of != "" {
		if b.o.Measure != nil {
			st.Done, st.OfTotal = b.o.Measure()
		} else {
			st.Done, st.OfTotal = b.doneOf.Load(), b.total.Load()
		}
	}
	if !final {
		now := b.now()
		b.samples = append(b.samples, sample{now, st.N, st.Done})
		// Drop the samples older than Window, keeping the one just
		// before it.
		i := 0
		for i+1 < len(b.samples) && now.Sub(b.samples[i+1].t) >= Window {
			i++
		}
		if i > 0 {
			b.samples = append(b.samples[:0], b.samples[i:]...)
		}
		if old := b.samples[0]; now.Sub(old.t) >= time.Second {
			st.Window, st.WindowN, st.WindowDone = now.Sub(old.t), st.N-old.n, st.Done-old.done
		}
	}
	line := st.Line()
	if final {
		line += "\n"
	}
	io.WriteString(b.w, "\r\x1b[K"+line)
	b.drawn = true
}

// State is what one progress line shows.
type State struct {
	N       int64  // the count
	Total   int64  // the expected count, when known (> 0)
	Unit    string // what N counts
	Elapsed time.Duration
	// Of names the done-of-total measure ("bytes", "sitemaps"); "" for
	// none. Done of OfTotal is shown, with its percentage and an ETA
	// when both are known.
	Of            string
	Done, OfTotal int64
	// Window, when at least a second, is the recent span the rate and
	// the ETA are measured over (instead of Elapsed): WindowN counted and
	// WindowDone of the measure done in it.
	Window              time.Duration
	WindowN, WindowDone int64
}

// Line formats st: the line of [Line], then, with a done-of-total
// measure, "  3.2 of 10.0 MB (32%), ETA 0:06" (bytes) or "  40 of 120
// sitemaps (33%), ETA 1:10". The ETA is the time left at the rate so
// far: elapsed × (total − done) / done, or with a Window its rate:
// Window × (total − done) / WindowDone; "ETA ?" before anything is done
// (or nothing was done in the Window). A total not known yet (0) shows
// the done figure alone.
func (st State) Line() string {
	s := Line(st.N, st.Total, st.Unit, st.Elapsed)
	if st.Window >= time.Second {
		s = line(st.N, st.Total, st.Unit, st.Elapsed, st.WindowN, st.Window)
	}
	if st.Of == "" {
		return s
	}
	done, total := st.Done, st.OfTotal
	fmtN := func(n int64) string { return Group(n) }
	unit := " " + st.Of
	if st.Of == "bytes" {
		fmtN = func(n int64) string { return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) }
		unit = " MB"
	}
	switch {
	case total <= 0 && done <= 0:
		return s // nothing known yet
	case total <= 0:
		return s + "  " + fmtN(done) + unit
	}
	done = min(done, total)
	s += "  " + fmtN(done) + " of " + fmtN(total) + unit + fmt.Sprintf(" (%d%%)", done*100/total)
	span, spanDone := st.Elapsed, done
	if st.Window >= time.Second {
		span, spanDone = st.Window, st.WindowDone
	}
	if spanDone <= 0 {
		return s + ", ETA ?"
	}
	left := time.Duration(float64(span) * float64(total-done) / float64(spanDone))
	sec := int64((left + time.Second - 1) / time.Second)
	if sec >= 3600 {
		return s + fmt.Sprintf(", ETA %d:%02d:%02d", sec/3600, sec/60%60, sec%60)
	}
	return s + fmt.Sprintf(", ETA %d:%02d", sec/60, sec%60)
}

// Line formats one progress line: "12,345 URLs  4,321/s  0:03", with
// " (45%)" after the count when total > 0; the rate is n over elapsed.
func Line(n, total int64, unit string, elapsed time.Duration) string {
	return line(n, total, unit, elapsed, n, elapsed)
}

// line is Line with the rate of rateN counted over span.
func line(n, total int64, unit string, elapsed time.Duration, rateN int64, span time.Duration) string {
	s := Group(n) + " " + unit
	if total > 0 {
		s += fmt.Sprintf(" (%d%%)", min(100, n*100/total))
	}
	rate := int64(0)
	if span > 0 {
		rate = int64(float64(rateN) / span.Seconds())
	}
	sec := int64(elapsed / time.Second)
	return fmt.Sprintf("%s  %s/s  %d:%02d", s, Group(rate), sec/60, sec%60)
}

// Group writes n with thousands separators: 1234567 → "1,234,567".
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return neg + string(out)
}

// Bytes writes a byte count for people, in binary units: "512 B",
// "3.9 KiB", "50 MiB" (the 50 MiB limit of S-02 reads as "50 MiB"); one
// decimal under 10 of a unit, none from 10 on.
func Bytes(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	v := float64(n)
	u := -1
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[u]
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " " + units[u]
}
