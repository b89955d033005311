package diff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

func slice(us ...sitemap.URL) Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for i := range us {
			if err := yield(&us[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

func date(t testing.TB, s string) sitemap.Date {
	t.Helper()
	d, err := sitemap.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func collect(t *testing.T, old, new Entries, o Options) ([]Change, Summary) {
	t.Helper()
	var out []Change
	sum, err := Diff(context.Background(), old, new, o, func(c Change) error {
		out = append(out, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, sum
}

// brief renders changes as "kind loc fields" lines for comparison.
func brief(cs []Change) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s %s %s\n", c.Change, c.Loc, strings.Join(c.Fields, ","))
	}
	return b.String()
}

func TestDiff(t *testing.T) {
	const a, b, c = "https://example.com/a", "https://example.com/b", "https://example.com/c"
	tests := []struct {
		name     string
		old, new []sitemap.URL
		ignore   []string
		want     string
		wantSum  Summary
	}{
		{
			name:    "identical sets",
			old:     []sitemap.URL{{Loc: a}, {Loc: b, LastMod: date(t, "2026-01-01")}},
			new:     []sitemap.URL{{Loc: b, LastMod: date(t, "2026-01-01")}, {Loc: a}},
			want:    "",
			wantSum: Summary{Old: 2, New: 2, Same: 2},
		},
		{
			name:    "added, removed, modified, in loc order",
			old:     []sitemap.URL{{Loc: c}, {Loc: a, LastMod: date(t, "2026-01-01")}},
			new:     []sitemap.URL{{Loc: b}, {Loc: a, LastMod: date(t, "2026-02-01"), Priority: sitemap.Float64(0.5)}},
			want:    "modified " + a + " lastmod,priority\nadded " + b + " \nremoved " + c + " \n",
			wantSum: Summary{Old: 2, New: 2, Added: 1, Removed: 1, Modified: 1},
		},
		{
			name: "M-01 same instant with +00:00 and Z is not a change",
			old:  []sitemap.URL{{Loc: a, LastMod: date(t, "2026-01-01T10:00:00+00:00")}},
			new:  []sitemap.URL{{Loc: a, LastMod: date(t, "2026-01-01T10:00:00Z")}},
			want: "", wantSum: Summary{Old: 1, New: 1, Same: 1},
		},
		{
			name: "M-08 a precision change is a change",
			old:  []sitemap.URL{{Loc: a, LastMod: date(t, "2026-01-01")}},
			new:  []sitemap.URL{{Loc: a, LastMod: date(t, "2026-01-01T00:00:00Z")}},
			want: "modified " + a + " lastmod\n", wantSum: Summary{Old: 1, New: 1, Modified: 1},
		},
		{
			name: "source is not compared",
			old:  []sitemap.URL{{Loc: a, Source: "old.xml"}},
			new:  []sitemap.URL{{Loc: a, Source: "new-2.xml"}},
			want: "", wantSum: Summary{Old: 1, New: 1, Same: 1},
		},
		{
			name: "extensions compared field by field",
			old: []sitemap.URL{{Loc: a, Images: []sitemap.Image{{Loc: "https://cdn.example.com/1.jpg"}},
				Alternates: []sitemap.Alternate{{Hreflang: "de", Href: a + "?de"}}}},
			new: []sitemap.URL{{Loc: a, Images: []sitemap.Image{{Loc: "https://cdn.example.com/2.jpg"}},
				Alternates: []sitemap.Alternate{{Hreflang: "de", Href: a + "?de"}}, ChangeFreq: sitemap.Daily,
				News: &sitemap.News{Title: "t"}}},
			want: "modified " + a + " changefreq,images,news\n", wantSum: Summary{Old: 1, New: 1, Modified: 1},
		},
		{
			name:   "ignored fields",
			old:    []sitemap.URL{{Loc: a, LastMod: date(t, "2026-01-01")}, {Loc: b}},
			new:    []sitemap.URL{{Loc: a, LastMod: date(t, "2026-01-02")}, {Loc: b, ChangeFreq: sitemap.Daily}},
			ignore: []string{"lastmod"},
			want:   "modified " + b + " changefreq\n", wantSum: Summary{Old: 2, New: 2, Modified: 1, Same: 1},
		},
		{
			name: "L-17 duplicates: the first entry of each side is compared",
			old:  []sitemap.URL{{Loc: a, ChangeFreq: sitemap.Daily}, {Loc: a, ChangeFreq: sitemap.Weekly}},
			new:  []sitemap.URL{{Loc: a, ChangeFreq: sitemap.Daily}, {Loc: a}, {Loc: a}},
			want: "", wantSum: Summary{Old: 1, New: 1, Same: 1, OldDuplicates: 1, NewDuplicates: 2},
		},
		{
			name: "empty old side: everything added",
			new:  []sitemap.URL{{Loc: b}, {Loc: a}},
			want: "added " + a + " \nadded " + b + " \n", wantSum: Summary{New: 2, Added: 2},
		},
		{
			name: "empty new side: everything removed",
			old:  []sitemap.URL{{Loc: a}},
			want: "removed " + a + " \n", wantSum: Summary{Old: 1, Removed: 1},
		},
	}
	for _, tt := range tests {
		for _, chunk := range []int{0, 1} { // in memory, and one entry per run file
			t.Run(fmt.Sprintf("%s/chunk=%d", tt.name, chunk), func(t *testing.T) {
				got, sum := collect(t, slice(tt.old...), slice(tt.new...),
					Options{TempDir: t.TempDir(), ChunkBytes: chunk, FanIn: 2, Ignore: tt.ignore})
				if b := brief(got); b != tt.want {
					t.Errorf("changes:\n%s\nwant:\n%s", b, tt.want)
				}
				if sum != tt.wantSum {
					t.Errorf("summary %+v, want %+v", sum, tt.wantSum)
				}
				if tt.wantSum.Differ() != sum.Differ() {
					t.Errorf("Differ() = %v", sum.Differ())
				}
			})
		}
	}
}

func TestChangeCarriesEntries(t *testing.T) {
	old := sitemap.URL{Loc: "https://example.com/a", LastMod: date(t, "2026-01-01"), Source: "https://example.com/s1.xml"}
	new := sitemap.URL{Loc: "https://example.com/a", LastMod: date(t, "2026-01-05"), Source: "https://example.com/s2.xml"}
	got, _ := collect(t, slice(old), slice(new), Options{})
	if len(got) != 1 || got[0].Old == nil || got[0].New == nil {
		t.Fatalf("changes = %+v", got)
	}
	if got[0].Old.Source != old.Source || got[0].New.Source != new.Source ||
		got[0].Old.LastMod.String() != "2026-01-01" || got[0].New.LastMod.String() != "2026-01-05" {
		t.Errorf("old/new = %+v / %+v", got[0].Old, got[0].New)
	}
}

// TestExternalSortOrderAndStability sorts many entries through run files
// merged in several passes (FanIn 3) and checks the global loc order and
// that the first of equal locs wins.
func TestExternalSortOrderAndStability(t *testing.T) {
	const n = 5000
	gen := func(seed int) Entries {
		return func(ctx context.Context, yield func(*sitemap.URL) error) error {
			for i := range n {
				k := (i*7919 + seed) % n
				u := sitemap.URL{Loc: fmt.Sprintf("https://example.com/%05d", k), ChangeFreq: sitemap.Weekly}
				if err := yield(&u); err != nil {
					return err
				}
			}
			// Duplicates of every 100th loc, later: must lose to the first.
			for k := 0; k < n; k += 100 {
				u := sitemap.URL{Loc: fmt.Sprintf("https://example.com/%05d", k), ChangeFreq: sitemap.Never}
				if err := yield(&u); err != nil {
					return err
				}
			}
			return nil
		}
	}
	dir := t.TempDir()
	var locs []string
	sum, err := Diff(context.Background(), gen(1), func(ctx context.Context, yield func(*sitemap.URL) error) error {
		return gen(2)(ctx, func(u *sitemap.URL) error {
			if strings.HasSuffix(u.Loc, "7") && u.ChangeFreq == sitemap.Weekly {
				u.ChangeFreq = sitemap.Daily
			}
			return yield(u)
		})
	}, Options{TempDir: dir, ChunkBytes: 20 << 10, FanIn: 3}, func(c Change) error {
		locs = append(locs, c.Loc)
		if c.Change != Modified || fmt.Sprint(c.Fields) != "[changefreq]" {
			t.Errorf("unexpected change %+v", c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(locs) {
		t.Error("changes are not in loc order")
	}
	if sum.Modified != n/10 || sum.Same != n-n/10 || sum.OldDuplicates != n/100 || sum.NewDuplicates != n/100 {
		t.Errorf("summary %+v", sum)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("temporary files left behind: %d", len(left))
	}
}

func TestDiffErrors(t *testing.T) {
	boom := errors.New("boom")
	failing := func(ctx context.Context, yield func(*sitemap.URL) error) error {
		if err := yield(&sitemap.URL{Loc: "https://example.com/a"}); err != nil {
			return err
		}
		return boom
	}
	emitted := 0
	_, err := Diff(context.Background(), slice(sitemap.URL{Loc: "https://example.com/z"}), failing, Options{},
		func(Change) error { emitted++; return nil })
	if !errors.Is(err, boom) || emitted != 0 {
		t.Errorf("err %v, emitted %d: a side that fails must stop the diff before any output", err, emitted)
	}
	_, err = Diff(context.Background(), slice(sitemap.URL{Loc: "https://example.com/z"}), slice(), Options{},
		func(Change) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("emit error not returned: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Diff(ctx, slice(), slice(), Options{}, func(Change) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled diff: %v", err)
	}
}

// TestBoundedHeap diffs 200k URLs per side through disk runs and checks
// that the live heap stays far below what holding either side would take
// ("memory never grows with URL count").
func TestBoundedHeap(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 50_000
	}
	gen := func(side int) Entries {
		return func(ctx context.Context, yield func(*sitemap.URL) error) error {
			var u sitemap.URL
			for i := range n {
				u = sitemap.URL{
					Loc:        "https://www.example.com/catalogue/products/item-" + strconv.Itoa((i*104729)%n),
					ChangeFreq: sitemap.Weekly,
				}
				if side == 1 && i%50 == 0 {
					u.ChangeFreq = sitemap.Daily
				}
				if err := yield(&u); err != nil {
					return err
				}
			}
			return nil
		}
	}
	var peak uint64
	sample := func() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
	}
	sample()
	base := peak
	peak = 0
	count := 0
	watch := func(e Entries) Entries {
		return func(ctx context.Context, yield func(*sitemap.URL) error) error {
			return e(ctx, func(u *sitemap.URL) error {
				if count++; count%20000 == 0 {
					sample()
				}
				return yield(u)
			})
		}
	}
	modified := 0
	sum, err := Diff(context.Background(), watch(gen(0)), watch(gen(1)),
		Options{TempDir: t.TempDir(), ChunkBytes: 1 << 20}, func(c Change) error {
			if modified++; modified%500 == 0 {
				sample()
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Modified != n/50 || sum.Same != n-n/50 {
		t.Fatalf("summary %+v", sum)
	}
	// One side is about n*100 bytes of JSON (~20 MB at 200k); a map of
	// its entries would take more than twice that. Chunks of 1 MiB per side plus merge buffers stay
	// well under 16 MiB above the baseline.
	growth := int64(peak) - int64(base)
	t.Logf("%d URLs per side: live heap peak %.1f MiB above baseline", n, float64(growth)/(1<<20))
	if growth > 16<<20 {
		t.Errorf("live heap grew by %.1f MiB; the diff is not streaming", float64(growth)/(1<<20))
	}
}

func BenchmarkDiff(b *testing.B) {
	const n = 100_000
	gen := func(side int) Entries {
		return func(ctx context.Context, yield func(*sitemap.URL) error) error {
			for i := range n {
				u := sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/p/%07d", (i*104729)%n), LastMod: sitemap.DayOf(timeDay(i % 300))}
				if side == 1 && i%20 == 0 {
					u.ChangeFreq = sitemap.Daily
				}
				if err := yield(&u); err != nil {
					return err
				}
			}
			return nil
		}
	}
	for b.Loop() {
		if _, err := Diff(context.Background(), gen(0), gen(1), Options{TempDir: b.TempDir(), ChunkBytes: 4 << 20}, func(Change) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(2*n*b.N)/b.Elapsed().Seconds(), "entries/s")
}

func timeDay(d int) time.Time { return time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d) }
