package generate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
)

const base = "https://www.example.com/"

func text(lines ...string) Source {
	return Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), source.Options{Name: "urls.txt", Format: source.FormatText})
}

func opts(st store.Store, report *[]Problem) Options {
	o := Options{Out: st, Build: build.Options{BaseURL: base}}
	if report != nil {
		o.Report = func(p Problem) { *report = append(*report, p) }
	}
	return o
}

// Problems of the source (T-04, E-05) and of the builder (L-09) are
// reported in input order across many batches, and repeats are counted.
func TestRunProblemsInOrder(t *testing.T) {
	var lines []string
	var want []string
	dups := 0
	for i := 1; i <= 5*batchLen; i++ {
		switch {
		case i%337 == 3:
			lines = append(lines, fmt.Sprintf("https://other.example.org/%d", i))
			want = append(want, fmt.Sprintf("error L-09 %d", i))
		case i%337 == 4:
			lines = append(lines, fmt.Sprintf("%sbad/%d\xff", base, i))
			want = append(want, fmt.Sprintf("error T-04 %d", i))
		case i%337 == 5:
			lines = append(lines, fmt.Sprintf("%sq?a=%d&amp;b=2", base, i))
			want = append(want, fmt.Sprintf("warning E-05 %d", i))
		case i%1001 == 7:
			lines = append(lines, base+"p/1")
			dups++
		default:
			lines = append(lines, fmt.Sprintf("%sp/%d", base, i))
		}
	}
	var got []Problem
	o := opts(nil, &got)
	o.Build.DryRun = true
	o.Build.SiteURL = base
	sum, err := Run(context.Background(), text(lines...), o)
	if err != nil {
		t.Fatal(err)
	}
	var gotS []string
	for _, p := range got {
		gotS = append(gotS, fmt.Sprintf("%s %s %d", p.Severity, p.Rule, p.Line))
	}
	if fmt.Sprint(gotS) != fmt.Sprint(want) {
		t.Errorf("problems\n got %v\nwant %v", gotS, want)
	}
	invalid := 0
	for _, w := range want {
		if strings.HasPrefix(w, "error") {
			invalid++
		}
	}
	if sum.Duplicates != dups || sum.Skipped != invalid || sum.OutOfScope == 0 {
		t.Errorf("duplicates %d (want %d), skipped %d (want %d), out of scope %d", sum.Duplicates, dups, sum.Skipped, invalid, sum.OutOfScope)
	}
	if sum.URLs+sum.Skipped+sum.Duplicates != len(lines) {
		t.Errorf("%d URLs + %d skipped + %d duplicates != %d lines", sum.URLs, sum.Skipped, sum.Duplicates, len(lines))
	}
}

// A repeated loc whose first copy was invalid is published (L-17 keeps
// the first valid one); with KeepDuplicates every copy is.
func TestRunDuplicates(t *testing.T) {
	ctx := context.Background()
	o := opts(store.Memory(), nil)
	sum, err := Run(ctx, Entries(urls(base+"a", base+"a", base+"b")), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != 2 || sum.Duplicates != 1 || sum.Skipped != 0 {
		t.Errorf("urls %d dups %d skipped %d; want 2 1 0", sum.URLs, sum.Duplicates, sum.Skipped)
	}
	var got []Problem
	o = opts(store.Memory(), &got)
	// Written as they are, "c d" is invalid (L-07); its normal form is
	// c%20d, the key of all three copies: the first valid one (the
	// second) is published, the third is a repeat of it.
	o.NoNormalize = true
	sum, err = Run(ctx, Entries(urls(base+"c d", base+"c%20d", base+"c d")), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != 1 || sum.Skipped != 1 || sum.Duplicates != 1 || len(got) != 1 || got[0].URL != base+"c d" {
		t.Errorf("urls %d skipped %d dups %d, problems %v", sum.URLs, sum.Skipped, sum.Duplicates, got)
	}
	o = opts(store.Memory(), nil)
	o.KeepDuplicates = true
	sum, err = Run(ctx, Entries(urls(base+"a", base+"a")), o)
	if err != nil || sum.URLs != 2 || sum.Duplicates != 0 {
		t.Errorf("KeepDuplicates: %v, urls %d, dups %d", err, sum.URLs, sum.Duplicates)
	}
}

func urls(locs ...string) sitemap.Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for _, l := range locs {
			if err := yield(&sitemap.URL{Loc: l}); err != nil {
				return err
			}
		}
		return nil
	}
}

// Strict stops at the first invalid entry, from the source or the
// builder; nothing is published.
func TestRunStrict(t *testing.T) {
	for _, bad := range []string{base + "bad\xff", "https://other.example.org/x"} {
		st := store.Memory()
		var got []Problem
		o := opts(st, &got)
		o.Strict = true
		lines := []string{base + "a", bad}
		for i := range 3 * batchLen {
			lines = append(lines, fmt.Sprintf("%sp/%d", base, i))
		}
		_, err := Run(context.Background(), text(lines...), o)
		if !errors.Is(err, ErrStrict) {
			t.Fatalf("%q: err %v, want ErrStrict", bad, err)
		}
		if names, _ := st.List(context.Background()); len(names) != 0 || len(got) != 1 || got[0].Line != 2 {
			t.Errorf("%q: published %v, problems %v", bad, names, got)
		}
	}
}

// An error of the source ends the run with that error; nothing is
// published and no goroutine is left behind. So does a cancelled
// context.
func TestRunSourceErrorAndCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	boom := errors.New("boom")
	st := store.Memory()
	src := func(ctx context.Context, yield func(*Item) error) error {
		for i := range 10 * batchLen {
			if err := yield(&Item{URL: sitemap.URL{Loc: fmt.Sprintf("%sp/%d", base, i)}}); err != nil {
				return err
			}
		}
		return boom
	}
	if _, err := Run(context.Background(), src, opts(st, nil)); err != boom {
		t.Fatalf("err %v, want the source's", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	endless := func(ctx context.Context, yield func(*Item) error) error {
		for i := 0; ; i++ {
			if i == 3*batchLen {
				cancel()
			}
			if err := yield(&Item{URL: sitemap.URL{Loc: fmt.Sprintf("%sp/%d", base, i)}}); err != nil {
				return err
			}
		}
	}
	if _, err := Run(ctx, endless, opts(st, nil)); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if names, _ := st.List(context.Background()); len(names) != 0 {
		t.Errorf("published %v", names)
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines before, %d after", before, n)
	}
}

// No valid entry: build.ErrNoEntries, with the invalid ones counted.
func TestRunNoEntries(t *testing.T) {
	sum, err := Run(context.Background(), text("# only a comment", "ftp://www.example.com/a"), opts(store.Memory(), nil))
	if !errors.Is(err, build.ErrNoEntries) || sum.Skipped != 1 {
		t.Errorf("err %v, skipped %d", err, sum.Skipped)
	}
}

// With a state store an unchanged entry keeps its lastmod and one whose
// content changed gets the run's time; an invalid copy is never recorded.
func TestRunState(t *testing.T) {
	ctx := context.Background()
	db, err := state.OpenSQLite(ctx, filepath.Join(t.TempDir(), "state.db"), state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	day1 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	day2 := day1.Add(24 * time.Hour)
	runAt := func(now time.Time, src Source) *store.MemStore {
		st := store.Memory()
		o := opts(st, nil)
		o.State = db
		o.NoNormalize = true // the loc "c d" below is invalid as written
		o.Build.Now = func() time.Time { return now }
		if _, err := Run(ctx, src, o); err != nil {
			t.Fatal(err)
		}
		return st
	}
	jsonl := func(lines ...string) Source {
		return Read(strings.NewReader(strings.Join(lines, "\n")), source.Options{Name: "in.jsonl"})
	}
	// a's content changes (an image added); b's changefreq only, which is
	// no change of the page (its lastmod stays).
	runAt(day1, jsonl(`{"loc":"`+base+`a"}`, `{"loc":"`+base+`b","changefreq":"daily"}`))
	st := runAt(day2, jsonl(`{"loc":"`+base+`a","images":[{"loc":"`+base+`a.jpg"}]}`, `{"loc":"`+base+`b","changefreq":"weekly"}`, `{"loc":"`+base+`c d","priority":0.5}`))
	xml := string(st.Bytes("sitemap.xml"))
	if !strings.Contains(xml, "<loc>"+base+"a</loc><lastmod>2026-01-03T03:04:05Z</lastmod>") || strings.Count(xml, "<lastmod>") != 1 {
		t.Errorf("sitemap:\n%s", xml)
	}
	if rec, found, err := db.Lookup(ctx, base+"c d"); found || err != nil {
		t.Errorf("the invalid entry c was recorded: %+v, %v", rec, err)
	}
	if rec, found, _ := db.Lookup(ctx, base+"b"); !found || !rec.LastSeen.Equal(day2) {
		t.Errorf("b: %+v, found %v", rec, found)
	}
}

// A dry run reads the state (its lastmods are a real run's) and records
// nothing.
func TestRunStateDryRun(t *testing.T) {
	ctx := context.Background()
	db, err := state.OpenSQLite(ctx, filepath.Join(t.TempDir(), "state.db"), state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	day1 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	run := func(now time.Time, dry bool, lines ...string) {
		o := opts(store.Memory(), nil)
		if dry {
			o.Out = nil
		}
		o.State, o.Build.DryRun = db, dry
		o.Build.Now = func() time.Time { return now }
		if _, err := Run(ctx, Read(strings.NewReader(strings.Join(lines, "\n")), source.Options{Name: "in.jsonl"}), o); err != nil {
			t.Fatal(err)
		}
	}
	run(day1, false, `{"loc":"`+base+`a","changefreq":"daily"}`)
	run(day1.Add(24*time.Hour), true, `{"loc":"`+base+`a","changefreq":"weekly"}`, `{"loc":"`+base+`b"}`)
	if rec, found, err := db.Lookup(ctx, base+"a"); err != nil || !found || !rec.LastSeen.Equal(day1) {
		t.Errorf("a after a dry run: %+v, found %v, %v; want the record of day 1", rec, found, err)
	}
	if rec, found, err := db.Lookup(ctx, base+"b"); found || err != nil {
		t.Errorf("b was recorded by a dry run: %+v, %v", rec, err)
	}
}

// RobotsTxt gets the Sitemap: line of the top file, every other byte kept;
// a dry run leaves it alone.
func TestRunRobots(t *testing.T) {
	dir := t.TempDir()
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\nDisallow: /private\n"), 0o600)
	o := opts(nil, nil)
	o.RobotsTxt = robots
	o.Build.DryRun = true
	sum, err := Run(context.Background(), text(base+"a"), o)
	if err != nil || sum.Robots == nil || !sum.Robots.DryRun {
		t.Fatalf("dry run: %v %+v", err, sum.Robots)
	}
	st, err := store.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	o = opts(st, nil)
	o.RobotsTxt = robots
	sum, err = Run(context.Background(), text(base+"a"), o)
	if err != nil || !sum.Robots.Added || sum.Robots.Sitemap != base+"sitemap.xml" {
		t.Fatalf("%v %+v", err, sum.Robots)
	}
	b, _ := os.ReadFile(robots)
	if string(b) != "User-agent: *\nDisallow: /private\n\nSitemap: "+base+"sitemap.xml\n" {
		t.Errorf("robots.txt:\n%s", b)
	}
	if fi, _ := os.Stat(robots); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	sum, err = Run(context.Background(), text(base+"a"), o)
	if err != nil || sum.Robots.Added || len(sum.Robots.Removed) != 0 {
		t.Errorf("second run: %v %+v", err, sum.Robots)
	}
}

// Concat reads its sources in turn.
func TestConcat(t *testing.T) {
	var got []Problem
	src := Concat(text(base+"a", base+"b c"), Read(strings.NewReader("loc\n"+base+"d e\n"), source.Options{Name: "more.csv"}))
	o := opts(store.Memory(), &got)
	o.NoNormalize = true
	sum, err := Run(context.Background(), src, o)
	if err != nil || sum.URLs != 1 || len(got) != 2 || got[0].String()[:10] != "urls.txt:2" || !strings.HasPrefix(got[1].String(), "more.csv:2: ") {
		t.Errorf("%v, %d URLs, problems %v", err, sum.URLs, got)
	}
}
