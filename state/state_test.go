package state

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
)

func mustDate(t testing.TB, s string) sitemap.Date {
	t.Helper()
	d, err := sitemap.ParseDate(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDecide is the lastmod rule of M-02/M-05/M-06, case by case.
func TestDecide(t *testing.T) {
	run1 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	run2 := time.Date(2026, 3, 8, 11, 30, 15, 500, time.FixedZone("x", 3600))
	given := mustDate(t, "2026-02-01")
	recorded := mustDate(t, "2026-01-15T08:00:00Z")
	page := sitemap.URL{Loc: "https://example.com/a", ChangeFreq: sitemap.Weekly}
	fp := Fingerprint(&page)

	tests := []struct {
		name        string
		prev        Record
		found       bool
		in          sitemap.URL
		prec        sitemap.Precision
		wantLastMod string
		wantChanged time.Time // LastChanged of the new record
		wantFirst   time.Time
	}{
		{
			name: "M-05 first sighting without lastmod stays unknown",
			in:   page, prec: sitemap.PrecisionSecond,
			wantLastMod: "", wantFirst: run2.UTC(),
		},
		{
			name: "M-02 first sighting with lastmod keeps and records it",
			in:   withLastMod(page, given), prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-02-01", wantFirst: run2.UTC(),
		},
		{
			name:  "M-06 unchanged fields keep the recorded lastmod",
			prev:  Record{Loc: page.Loc, ContentHash: fp, LastMod: recorded, FirstSeen: run1},
			found: true, in: page, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
		{
			name:  "M-06 unchanged and never dated stays without lastmod",
			prev:  Record{Loc: page.Loc, ContentHash: fp, FirstSeen: run1},
			found: true, in: page, prec: sitemap.PrecisionSecond,
			wantLastMod: "", wantFirst: run1,
		},
		{
			name:  "M-02 changed fields get the run time (second precision, UTC)",
			prev:  Record{Loc: page.Loc, ContentHash: fp, LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, Images: []sitemap.Image{{Loc: "https://example.com/a.jpg"}}}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-03-08T10:30:15Z", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "M-02 a new changefreq or priority alone is no change: lastmod stays",
			prev:  Record{Loc: page.Loc, ContentHash: fp, LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, ChangeFreq: sitemap.Daily, Priority: sitemap.Float64(0.9)}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
		{
			name:  "a fingerprint of an earlier release, same fields: lastmod stays",
			prev:  Record{Loc: page.Loc, ContentHash: legacyFingerprint(&page), LastMod: recorded, FirstSeen: run1},
			found: true, in: page, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
		{
			name:  "a fingerprint of an earlier release, fields changed: run time",
			prev:  Record{Loc: page.Loc, ContentHash: legacyFingerprint(&page), LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, News: &sitemap.News{Title: "t"}}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-03-08T10:30:15Z", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "M-08 changed fields at day precision",
			prev:  Record{Loc: page.Loc, ContentHash: fp, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, Alternates: []sitemap.Alternate{{Hreflang: "de", Href: "https://example.com/de/a"}}}, prec: sitemap.PrecisionDay,
			wantLastMod: "2026-03-08", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "M-02 a given lastmod wins over an observed change",
			prev:  Record{Loc: page.Loc, ContentHash: "old", LastMod: recorded, FirstSeen: run1},
			found: true, in: withLastMod(sitemap.URL{Loc: page.Loc, ContentHash: "new"}, given), prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-02-01", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "content_hash unchanged while fields change: lastmod stays",
			prev:  Record{Loc: page.Loc, ContentHash: "h1", LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, ContentHash: "h1", ChangeFreq: sitemap.Daily}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
		{
			name:  "content_hash changed: run time",
			prev:  Record{Loc: page.Loc, ContentHash: "h1", FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, ContentHash: "h2"}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-03-08T10:30:15Z", wantChanged: run2.UTC(), wantFirst: run1,
		},
		{
			name:  "source and lastmod are not part of the fingerprint",
			prev:  Record{Loc: page.Loc, ContentHash: fp, LastMod: recorded, FirstSeen: run1},
			found: true, in: sitemap.URL{Loc: page.Loc, ChangeFreq: sitemap.Weekly, Source: "https://example.com/s.xml"}, prec: sitemap.PrecisionSecond,
			wantLastMod: "2026-01-15T08:00:00Z", wantFirst: run1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := tt.in
			r, lm := Decide(tt.prev, tt.found, &u, run2, tt.prec)
			if got := lm.String(); got != tt.wantLastMod {
				t.Errorf("lastmod = %q, want %q", got, tt.wantLastMod)
			}
			if !r.LastMod.Equal(lm) {
				t.Errorf("recorded lastmod %v differs from returned %v", r.LastMod, lm)
			}
			if !r.LastChanged.Equal(tt.wantChanged) {
				t.Errorf("LastChanged = %v, want %v", r.LastChanged, tt.wantChanged)
			}
			if !r.FirstSeen.Equal(tt.wantFirst) {
				t.Errorf("FirstSeen = %v, want %v", r.FirstSeen, tt.wantFirst)
			}
			if !r.LastSeen.Equal(run2) || !r.Included || r.Loc != tt.in.Loc {
				t.Errorf("record = %+v", r)
			}
			if tt.in.ContentHash != "" && r.ContentHash != tt.in.ContentHash {
				t.Errorf("ContentHash = %q, want the supplied %q", r.ContentHash, tt.in.ContentHash)
			}
		})
	}
}

func withLastMod(u sitemap.URL, d sitemap.Date) sitemap.URL {
	u.LastMod = d
	return u
}

func TestFingerprint(t *testing.T) {
	a := sitemap.URL{Loc: "https://example.com/a", Images: []sitemap.Image{{Loc: "https://cdn.example.com/1.jpg"}}}
	b := a
	b.LastMod = sitemap.DayOf(time.Now())
	b.Source = "x.xml"
	if Fingerprint(&a) != Fingerprint(&b) {
		t.Error("lastmod or source changed the fingerprint")
	}
	c := a
	c.Images = []sitemap.Image{{Loc: "https://cdn.example.com/2.jpg"}}
	if Fingerprint(&a) == Fingerprint(&c) {
		t.Error("a changed image did not change the fingerprint")
	}
	d := a
	d.Loc = "https://example.com/b"
	if Fingerprint(&a) == Fingerprint(&d) {
		t.Error("a different loc has the same fingerprint")
	}
	e := a
	e.ChangeFreq, e.Priority = sitemap.Daily, sitemap.Float64(0.2)
	if Fingerprint(&a) != Fingerprint(&e) {
		t.Error("changefreq or priority changed the fingerprint; they are not the page's content")
	}
}

func openTemp(t testing.TB, path string, o SQLiteOptions) *SQLite {
	t.Helper()
	s, err := OpenSQLite(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v.db")
	s := openTemp(t, path, SQLiteOptions{})
	if _, err := s.conn.ExecContext(ctx, `UPDATE meta SET value = '99' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := OpenSQLite(ctx, path, SQLiteOptions{}); err == nil {
		t.Error("opened a state file of a newer schema")
	}
	if _, err := OpenSQLite(ctx, filepath.Join(t.TempDir(), "missing-dir", "x.db"), SQLiteOptions{}); err == nil {
		t.Error("opened a state file in a missing directory")
	}
}

// BenchmarkStamp stamps 100k URLs per iteration (two runs over the same
// file, the second with a tenth of the entries changed) and reports
// stamps per second.
func BenchmarkStamp(b *testing.B) {
	ctx := context.Background()
	const n = 100_000
	for b.Loop() {
		b.StopTimer()
		s := openTemp(b, filepath.Join(b.TempDir(), "b.db"), SQLiteOptions{})
		b.StartTimer()
		start := time.Now()
		for run := range 2 {
			now := time.Date(2026, 1, 1+run, 0, 0, 0, 0, time.UTC)
			for i := range n {
				u := sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/products/item-%d", i), ChangeFreq: sitemap.Weekly}
				if run == 1 && i%10 == 0 {
					u.ChangeFreq = sitemap.Daily
				}
				if err := s.Stamp(ctx, &u, now); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(2*n)/time.Since(start).Seconds(), "stamps/s")
	}
}
