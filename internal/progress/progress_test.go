package progress

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLine(t *testing.T) {
	for _, tc := range []struct {
		n, total int64
		elapsed  time.Duration
		want     string
	}{
		{0, 0, 0, "0 URLs  0/s  0:00"},
		{1234567, 0, 2 * time.Second, "1,234,567 URLs  617,283/s  0:02"},
		{50, 200, 75 * time.Second, "50 URLs (25%)  0/s  1:15"},
		{300, 200, time.Second, "300 URLs (100%)  300/s  0:01"},
	} {
		if got := Line(tc.n, tc.total, "URLs", tc.elapsed); got != tc.want {
			t.Errorf("Line(%d, %d, %v) = %q, want %q", tc.n, tc.total, tc.elapsed, got, tc.want)
		}
	}
}

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", -1234: "-1,234", 100000: "100,000", 1000000: "1,000,000"} {
		if got := Group(n); got != want {
			t.Errorf("Group(%d) = %q, want %q", n, got, want)
		}
	}
}

// Not a terminal: nothing is ever written (docs/CONVENTIONS.md: never when
// standard error is not a terminal).
func TestNotTerminal(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, Options{Delay: -1})
	b.Add(5)
	b.Done()
	if buf.Len() != 0 || b.Count() != 0 {
		t.Fatalf("no-op bar wrote %q / counted %d", buf.String(), b.Count())
	}
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b = New(f, Options{Delay: -1})
	b.Add(5)
	b.Done()
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Fatalf("bar drew on a regular file (%d bytes)", st.Size())
	}
	var nilBar *Bar
	nilBar.Add(1)
	nilBar.Done()
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// An active bar redraws in place and ends with the final count and a
// newline.
func TestDraw(t *testing.T) {
	var buf syncBuf
	b := start(&buf, Options{Unit: "URLs", Delay: -1, Interval: time.Millisecond}, time.Now)
	for range 1000 {
		b.Add(1)
	}
	b.Done()
	b.Done() // idempotent
	out := buf.String()
	if !strings.HasPrefix(out, "\r\x1b[K") || !strings.HasSuffix(out, "\n") {
		t.Fatalf("output %q: want redraws starting with CR+EL and a final newline", out)
	}
	last := out[strings.LastIndex(out, "\r\x1b[K")+4:]
	if !strings.HasPrefix(last, "1,000 URLs  ") {
		t.Fatalf("final line %q, want the final count", last)
	}
}

// A run shorter than the delay leaves no trace.
func TestShortRunSilent(t *testing.T) {
	var buf syncBuf
	b := start(&buf, Options{Delay: time.Hour}, time.Now)
	b.Add(3)
	b.Done()
	if s := buf.String(); s != "" {
		t.Fatalf("short run drew %q", s)
	}
}

// Println erases a drawn bar and writes the message in one step; on a
// silent (non-terminal) or nil Bar it writes only the message.
func TestPrintln(t *testing.T) {
	var buf bytes.Buffer
	b := start(&buf, Options{Unit: "URLs", Delay: time.Hour}, time.Now)
	b.Println(&buf, "urls.txt:3: bad")
	if got := buf.String(); got != "urls.txt:3: bad\n" {
		t.Errorf("before the first draw: %q", got)
	}
	b.draw(false)
	buf.Reset()
	b.Println(&buf, "urls.txt:4: bad")
	if got := buf.String(); got != "\r\x1b[Kurls.txt:4: bad\n" {
		t.Errorf("after a draw: %q", got)
	}
	b.Done()
	var nb *Bar
	buf.Reset()
	nb.Println(&buf, "x")
	(&Bar{}).Println(&buf, "y")
	if got := buf.String(); got != "x\ny\n" {
		t.Errorf("nil and silent bars: %q", got)
	}
}

// TestStateLine: with a done-of-total measure the line shows done of
// total, its percentage and the ETA at the rate so far; bytes in MB; a
// total not known yet shows the done figure alone; nothing done yet is
// "ETA ?".
func TestStateLine(t *testing.T) {
	for _, tc := range []struct {
		st   State
		want string
	}{
		{State{N: 1000, Unit: "URLs", Elapsed: 10 * time.Second, Of: "bytes", Done: 25e6, OfTotal: 100e6},
			"1,000 URLs  100/s  0:10  25.0 of 100.0 MB (25%), ETA 0:30"},
		{State{N: 80, Unit: "URLs", Elapsed: 20 * time.Second, Of: "sitemaps", Done: 40, OfTotal: 120},
			"80 URLs  4/s  0:20  40 of 120 sitemaps (33%), ETA 0:40"},
		{State{N: 5, Unit: "pages", Elapsed: time.Second, Of: "pages", Done: 0, OfTotal: 9},
			"5 pages  5/s  0:01  0 of 9 pages (0%), ETA ?"},
		{State{N: 5, Unit: "pages", Elapsed: time.Second, Of: "pages", Done: 5, OfTotal: 0},
			"5 pages  5/s  0:01  5 pages"},
		{State{N: 9, Unit: "pages", Elapsed: 2 * time.Hour, Of: "pages", Done: 1, OfTotal: 3},
			"9 pages  0/s  120:00  1 of 3 pages (33%), ETA 4:00:00"},
		{State{N: 7, Unit: "URLs", Elapsed: time.Second}, "7 URLs  7/s  0:01"},
		// The rate and ETA of the last 10 s, not of the whole run.
		{State{N: 6000, Unit: "URLs", Elapsed: 60 * time.Second, Of: "bytes", Done: 60e6, OfTotal: 100e6,
			Window: 10 * time.Second, WindowN: 500, WindowDone: 5e6},
			"6,000 URLs  50/s  1:00  60.0 of 100.0 MB (60%), ETA 1:20"},
		{State{N: 6000, Unit: "URLs", Elapsed: 60 * time.Second, Of: "bytes", Done: 60e6, OfTotal: 100e6,
			Window: 10 * time.Second},
			"6,000 URLs  0/s  1:00  60.0 of 100.0 MB (60%), ETA ?"},
	} {
		if got := tc.st.Line(); got != tc.want {
			t.Errorf("%+v:\n got %q\nwant %q", tc.st, got, tc.want)
		}
	}
}

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// A bar with a measure draws done of total and the ETA from its clock:
// the final line after 30 s of a fake clock with half the bytes read
// says ETA 0:30, whatever the real time taken; Measure is polled, SetOf
// is stored.
func TestDrawETA(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	var buf syncBuf
	read := int64(0)
	var mu sync.Mutex
	b := start(&buf, Options{Unit: "URLs", Delay: time.Hour, Of: "bytes", Measure: func() (int64, int64) {
		mu.Lock()
		defer mu.Unlock()
		return read, 8e6
	}}, clock.now)
	b.Add(400)
	mu.Lock()
	read = 4e6
	mu.Unlock()
	clock.add(30 * time.Second)
	b.draw(false)
	b.Done()
	out := buf.String()
	if want := "\r\x1b[K400 URLs  13/s  0:30  4.0 of 8.0 MB (50%), ETA 0:30\n"; !strings.HasSuffix(out, want) {
		t.Errorf("output %q, want it to end %q", out, want)
	}

	var buf2 syncBuf
	b = start(&buf2, Options{Unit: "URLs", Delay: time.Hour, Of: "sitemaps"}, clock.now)
	b.SetOf(3, 4)
	clock.add(9 * time.Second)
	b.draw(false)
	b.Done()
	if out, want := buf2.String(), "0 URLs  0/s  0:09  3 of 4 sitemaps (75%), ETA 0:03\n"; !strings.HasSuffix(out, want) {
		t.Errorf("output %q, want it to end %q", out, want)
	}
}

// A run that slows down: the line shows the pace of the last Window (10
// URLs/s and the ETA at that pace), not the average since the start; the
// final line gives the whole run's.
func TestDrawRecentPace(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	var buf syncBuf
	read := int64(0)
	var mu sync.Mutex
	b := start(&buf, Options{Unit: "URLs", Delay: time.Hour, Of: "bytes", Measure: func() (int64, int64) {
		mu.Lock()
		defer mu.Unlock()
		return read, 10e6
	}}, clock.now)
	step := func(secs, perSec int) {
		for range secs {
			b.Add(int64(perSec))
			mu.Lock()
			read += int64(perSec) * 1000
			mu.Unlock()
			clock.add(time.Second)
			b.draw(false)
		}
	}
	step(30, 200) // 6,000 URLs, 6 MB in 30 s
	step(20, 10)  // then 10 URLs (10 kB) a second
	b.Done()
	out := buf.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\r\x1b[K")
	last, final := lines[len(lines)-2], lines[len(lines)-1]
	if want := "6,200 URLs  10/s  0:50  6.2 of 10.0 MB (62%), ETA 6:20"; last != want {
		t.Errorf("line while running %q, want %q", last, want)
	}
	if want := "6,200 URLs  124/s  0:50  6.2 of 10.0 MB (62%), ETA 0:31"; final != want {
		t.Errorf("final line %q, want %q", final, want)
	}
}

// Writer erases a drawn bar before each write, under the bar's lock, and
// leaves a silent bar's writer as it is.
func TestWriter(t *testing.T) {
	var bar, out bytes.Buffer
	b := start(&bar, Options{Unit: "URLs", Delay: time.Hour}, time.Now)
	w := b.Writer(&out)
	io.WriteString(w, "before\n")
	if bar.Len() != 0 || out.String() != "before\n" {
		t.Fatalf("before a draw: bar %q, out %q", bar.String(), out.String())
	}
	b.draw(false)
	bar.Reset()
	io.WriteString(w, "after\n")
	if bar.String() != "\r\x1b[K" || out.String() != "before\nafter\n" {
		t.Errorf("after a draw: bar %q, out %q", bar.String(), out.String())
	}
	b.Done()
	var nb *Bar
	if nb.Writer(&out) != io.Writer(&out) {
		t.Error("a nil bar's Writer is not w")
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 52428800: "50 MiB", 1536: "1.5 KiB", 10 << 20: "10 MiB", 38_700_000: "37 MiB", 3 << 30: "3.0 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
