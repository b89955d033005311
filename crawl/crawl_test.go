package crawl

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// crawlSite crawls the site into the state file at path and returns the
// entries and the outcomes by URL (host-relative keys).
func crawlSite(t *testing.T, site *testSite, path string, o Options) (Summary, []sitemap.URL, map[string]Outcome) {
	t.Helper()
	ctx := context.Background()
	c, st, err := openCrawler(ctx, path, site.URL+"/", o)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var entries []sitemap.URL
	if err := c.Entries(ctx, func(u *sitemap.URL) error { entries = append(entries, *u); return nil }); err != nil {
		t.Fatal(err)
	}
	out := map[string]Outcome{}
	if err := c.Outcomes(ctx, func(o Outcome) error { out[strings.TrimPrefix(o.URL, site.URL)] = o; return nil }); err != nil {
		t.Fatal(err)
	}
	return sum, entries, out
}

// TestCrawlSite checks the exact set of listed URLs, every exclusion
// reason, the alternates (H-03, H-04), images (IM-01, IM-05) and lastmods
// (M-02, M-05) on the synthetic site.
func TestCrawlSite(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	sum, entries, out := crawlSite(t, site, filepath.Join(t.TempDir(), "state.db"), siteOptions())

	var listed []string
	byLoc := map[string]sitemap.URL{}
	for _, e := range entries {
		listed = append(listed, strings.TrimPrefix(e.Loc, site.URL))
		byLoc[strings.TrimPrefix(e.Loc, site.URL)] = e
	}
	want := []string{"/", "/a", "/b", "/busy",
		"/calendar?month=1", "/calendar?month=2", "/calendar?month=3", "/calendar?month=4", "/calendar?month=5",
		"/canon-target", "/de/page", "/en/page", "/es/page", "/fr/page", "/from-sitemap", "/img-page", "/it/page", "/lastmod", "/meta-nofollow", "/new", "/slow", "/via-noindex"}
	if !reflect.DeepEqual(listed, want) {
		t.Errorf("listed (sorted by loc):\n%s\nwant:\n%s", joinLines(listed), joinLines(want))
	}

	reasons := map[string]string{
		"/missing":                           "status:404",
		"/noindex-meta":                      ReasonNoindex,
		"/noindex-header":                    ReasonNoindex,
		"/dup":                               ReasonCanonical,
		"/hdr-canon":                         ReasonCanonical,
		"/long/" + strings.Repeat("x", 2100): ReasonLongURL,
		"/private/secret":                    ReasonRobots,
		"/old":                               ReasonRedirect,
		"/older":                             ReasonRedirect,
		"/calendar?month=6":                  ReasonQueryVariants,
		"/hidden":                            ReasonNofollow,
		"/a/b/a/b/a/b/":                      ReasonRepeating,
		"https://other.example/x":            ReasonScope,
		"/file.pdf":                          ReasonNotHTML,
	}
	for u, reason := range reasons {
		o, ok := out[u]
		if !ok {
			t.Errorf("%s: not in the report", u)
			continue
		}
		if o.Reason != reason || o.Included {
			t.Errorf("%s: reason %q included %v; want %q", u, o.Reason, o.Included, reason)
		}
	}
	for _, u := range want {
		if o := out[u]; !o.Included || o.Reason != "" || o.Status != 200 {
			t.Errorf("%s: report says %+v; want included with status 200", u, o)
		}
	}
	if o := out["/old"]; o.Status != 301 || o.Depth != 1 || o.From != site.URL+"/" {
		t.Errorf("/old: %+v", o)
	}
	if o := out["/new"]; o.Depth != 3 || o.From != site.URL+"/older" {
		t.Errorf("/new: %+v; want depth 3 from /older (301 chain)", o)
	}
	if o := out["/from-sitemap"]; o.Depth != 0 || o.From != site.URL+"/sitemap.xml" {
		t.Errorf("/from-sitemap: %+v; want a depth-0 seed from the robots.txt sitemap", o)
	}
	if o := out["/private/secret"]; o.Status != 0 {
		t.Errorf("/private/secret was fetched (status %d); robots-disallowed URLs are never fetched", o.Status)
	}
	if _, ok := out["/calendar?month=7"]; ok {
		t.Errorf("the calendar went on past the query-variant cap")
	}
	if sum.Listed != len(want) || sum.Reasons[ReasonNoindex] != 2 || sum.Reasons[ReasonRedirect] != 2 {
		t.Errorf("summary %+v", sum)
	}

	// Alternates: en–de are reciprocal (with x-default); fr does not link
	// back to en, so en keeps no fr and fr (only itself) keeps nothing.
	alts := func(u string) []string {
		var s []string
		for _, a := range byLoc[u].Alternates {
			s = append(s, a.Hreflang+"="+strings.TrimPrefix(a.Href, site.URL))
		}
		return s
	}
	if got, w := alts("/en/page"), []string{"en=/en/page", "de=/de/page", "x-default=/en/page"}; !reflect.DeepEqual(got, w) {
		t.Errorf("/en/page alternates %v; want %v", got, w)
	}
	if got, w := alts("/de/page"), []string{"en=/en/page", "de=/de/page", "x-default=/en/page"}; !reflect.DeepEqual(got, w) {
		t.Errorf("/de/page alternates %v; want %v", got, w)
	}
	if got, w := alts("/it/page"), []string{"es=/es/page", "it=/it/page"}; !reflect.DeepEqual(got, w) {
		t.Errorf("/it/page alternates %v; want %v (itself added, H-03)", got, w)
	}
	if got := alts("/fr/page"); got != nil {
		t.Errorf("/fr/page alternates %v; want none", got)
	}

	// Images: resolved, deduplicated, site host or --image-hosts only.
	var imgs []string
	for _, im := range byLoc["/img-page"].Images {
		imgs = append(imgs, im.Loc)
	}
	if w := []string{site.URL + "/img/a.jpg", site.URL + "/img/b.png", "https://cdn.example.net/c.jpg"}; !reflect.DeepEqual(imgs, w) {
		t.Errorf("images %v; want %v (IM-05: not robots-disallowed /private/p.jpg)", imgs, w)
	}

	// Lastmod: from Last-Modified, else none on a first crawl (never the
	// crawl time, M-02).
	for _, e := range entries {
		loc := strings.TrimPrefix(e.Loc, site.URL)
		if loc == "/lastmod" {
			if e.LastMod.String() != "2006-01-02T15:04:05Z" {
				t.Errorf("/lastmod lastmod %q; want the Last-Modified header's 2006-01-02T15:04:05Z", e.LastMod)
			}
		} else if !e.LastMod.IsZero() {
			t.Errorf("%s: lastmod %s on a first crawl without Last-Modified", loc, e.LastMod)
		}
	}
}

// TestSecondRunMovesChangedLastmods: after two pages change, a second
// crawl with the same state moves exactly their lastmods (M-02, M-05,
// state.Decide), and a third unchanged crawl keeps them.
func TestSecondRunMovesChangedLastmods(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	path := filepath.Join(t.TempDir(), "state.db")
	o := siteOptions()
	t1 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	o.Now = func() time.Time { return t1 }
	_, first, _ := crawlSite(t, site, path, o)

	site.setVersion("/a", "v2")
	site.setVersion("/slow", "v2")
	t2 := t1.Add(7 * 24 * time.Hour)
	o.Now = func() time.Time { return t2 }
	sum, second, _ := crawlSite(t, site, path, o)
	if sum.Resumed {
		t.Errorf("second run resumed a finished crawl")
	}
	if len(first) != len(second) {
		t.Fatalf("first run listed %d, second %d", len(first), len(second))
	}
	moved := map[string]string{}
	for i := range first {
		if first[i].Loc != second[i].Loc {
			t.Fatalf("order differs: %s vs %s", first[i].Loc, second[i].Loc)
		}
		if !first[i].LastMod.Equal(second[i].LastMod) {
			moved[strings.TrimPrefix(second[i].Loc, site.URL)] = second[i].LastMod.String()
		}
	}
	want := map[string]string{"/a": "2026-11-08T10:00:00Z", "/slow": "2026-11-08T10:00:00Z"}
	if !reflect.DeepEqual(moved, want) {
		t.Errorf("moved lastmods %v; want %v", moved, want)
	}

	t3 := t2.Add(7 * 24 * time.Hour)
	o.Now = func() time.Time { return t3 }
	_, third, _ := crawlSite(t, site, path, o)
	if !reflect.DeepEqual(second, third) {
		t.Errorf("a crawl of an unchanged site changed entries")
	}
}

// TestChromeChangeMovesNoLastmod: a site-wide navigation and footer
// change (new text, a new link) moves no lastmod; a change of one page's
// main text then moves exactly that one (M-05: the last significant
// change, not a sidebar or footer tweak).
func TestChromeChangeMovesNoLastmod(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	path := filepath.Join(t.TempDir(), "state.db")
	o := siteOptions()
	t1 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	o.Now = func() time.Time { return t1 }
	site.setChrome(`<a href="/a">A</a> Menu`)
	_, first, _ := crawlSite(t, site, path, o)

	moved := func(before, after []sitemap.URL) map[string]string {
		t.Helper()
		if len(before) != len(after) {
			t.Fatalf("listed %d, then %d", len(before), len(after))
		}
		m := map[string]string{}
		for i := range before {
			if before[i].Loc != after[i].Loc {
				t.Fatalf("order differs: %s vs %s", before[i].Loc, after[i].Loc)
			}
			if !before[i].LastMod.Equal(after[i].LastMod) {
				m[strings.TrimPrefix(after[i].Loc, site.URL)] = after[i].LastMod.String()
			}
		}
		return m
	}

	site.setChrome(`<a href="/a">A</a> <a href="/b">B</a> Main menu, now with B`)
	o.Now = func() time.Time { return t1.Add(24 * time.Hour) }
	_, second, _ := crawlSite(t, site, path, o)
	if m := moved(first, second); len(m) != 0 {
		t.Errorf("M-05: a navigation/footer change moved lastmods %v; want none", m)
	}

	site.setVersion("/b", "rewritten")
	o.Now = func() time.Time { return t1.Add(48 * time.Hour) }
	_, third, _ := crawlSite(t, site, path, o)
	want := map[string]string{"/b": "2026-11-03T10:00:00Z"}
	if m := moved(second, third); !reflect.DeepEqual(m, want) {
		t.Errorf("M-05: a main text change of /b moved lastmods %v; want %v", m, want)
	}
}

// TestKillResume kills a crawl (a child process: this test binary) with
// SIGKILL part-way, resumes it with the same state, and compares sitemap
// and report with an uninterrupted crawl.
func TestKillResume(t *testing.T) {
	if os.Getenv("CRAWL_CHILD_STATE") != "" {
		t.Skip("child")
	}
	site := newTestSite()
	defer site.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "killed.db")

	cmd := exec.Command(os.Args[0], "-test.run=^TestCrawlChild$", "-test.v")
	cmd.Env = append(os.Environ(), "CRAWL_CHILD_STATE="+path, "CRAWL_CHILD_URL="+site.URL+"/")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill after a dozen page requests (robots.txt and the sitemap are
	// the first two).
	for site.requests.Load() < 14 {
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	killedAt := site.requests.Load()

	o := siteOptions()
	ctx := context.Background()
	c, st, err := openCrawler(ctx, path, site.URL+"/", o)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Resumed() {
		t.Fatalf("the crawl after SIGKILL did not resume (after %d requests)", killedAt)
	}
	st.Close()
	rsum, resumed, resumedOut := crawlSite(t, site, path, o)
	wsum, whole, wholeOut := crawlSite(t, site, filepath.Join(dir, "whole.db"), o)
	if !rsum.Resumed || rsum.Fetched >= wsum.Fetched {
		t.Errorf("resumed run fetched %d pages, a whole crawl %d; the resumed run should continue, not restart", rsum.Fetched, wsum.Fetched)
	}
	a, _ := json.Marshal(resumed)
	b, _ := json.Marshal(whole)
	if string(a) != string(b) {
		t.Errorf("resumed sitemap differs from an uninterrupted crawl:\n%s\n%s", a, b)
	}
	if !reflect.DeepEqual(resumedOut, wholeOut) {
		var keys []string
		for k := range wholeOut {
			if resumedOut[k] != wholeOut[k] {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Errorf("report %s: resumed %+v, whole %+v", k, resumedOut[k], wholeOut[k])
		}
	}
}

// TestCrawlChild is the crawl TestKillResume kills: slow enough (one
// request at a time, 25 a second) to be killed part-way.
func TestCrawlChild(t *testing.T) {
	path := os.Getenv("CRAWL_CHILD_STATE")
	if path == "" {
		t.Skip("run by TestKillResume")
	}
	o := siteOptions()
	o.Concurrency = 1
	o.Rate = 25
	c, st, err := openCrawler(context.Background(), path, os.Getenv("CRAWL_CHILD_URL"), o)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c.Run(context.Background())
	t.Fatal("the crawl finished before it was killed")
}

// TestRulesSwitchable: each listing rule can be switched off, and the
// crawl and list patterns and the query mode do what they say.
func TestRulesSwitchable(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	re := regexp.MustCompile
	tests := []struct {
		name string
		set  func(*Options)
		want map[string]string // URL → reason ("" = listed, "-" = not seen)
	}{
		{"defaults", func(*Options) {}, map[string]string{"/noindex-meta": ReasonNoindex, "/dup": ReasonCanonical, "/private/secret": ReasonRobots, "/hidden": ReasonNofollow}},
		{"ignore noindex", func(o *Options) { o.IgnoreNoindex = true }, map[string]string{"/noindex-meta": "", "/noindex-header": ""}},
		{"ignore canonical", func(o *Options) { o.IgnoreCanonical = true }, map[string]string{"/dup": "", "/canon-target": "-"}},
		{"ignore robots", func(o *Options) { o.IgnoreRobots = true }, map[string]string{"/private/secret": ""}},
		{"ignore nofollow", func(o *Options) { o.IgnoreNofollow = true }, map[string]string{"/hidden": "status:404"}},
		{"exclude", func(o *Options) { o.Exclude = []*regexp.Regexp{re(`/calendar`)} }, map[string]string{"/calendar?month=1": ReasonExclude, "/calendar?month=2": "-"}},
		{"include", func(o *Options) { o.Include = []*regexp.Regexp{re(`/$`), re(`/[ab]$`)} }, map[string]string{"/": "", "/a": "", "/slow": ReasonExclude}},
		{"list-exclude", func(o *Options) { o.ListExclude = []*regexp.Regexp{re(`calendar`)} }, map[string]string{"/calendar?month=1": ReasonListExclude, "/calendar?month=2": ReasonListExclude, "/a": ""}},
		{"list-include", func(o *Options) { o.ListInclude = []*regexp.Regexp{re(`/[ab]$`)} }, map[string]string{"/a": "", "/b": "", "/": ReasonListExclude, "/new": ReasonListExclude}},
		{"no sitemaps", func(o *Options) { o.NoSitemaps = true }, map[string]string{"/from-sitemap": "-", "/a": ""}},
		{"query strip", func(o *Options) { o.Query.Query = urlnorm.QueryStrip }, map[string]string{"/calendar": "", "/calendar?month=1": "-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := siteOptions()
			tt.set(&o)
			_, _, out := crawlSite(t, site, filepath.Join(t.TempDir(), "s.db"), o)
			for u, want := range tt.want {
				got, ok := out[u]
				switch {
				case want == "-" && ok:
					t.Errorf("%s: seen (%+v); want not seen", u, got)
				case want == "-":
				case !ok:
					t.Errorf("%s: not seen; want reason %q", u, want)
				case got.Reason != want || got.Included != (want == ""):
					t.Errorf("%s: %+v; want reason %q", u, got, want)
				}
			}
		})
	}
}

// TestPathScope: a start URL below the root limits the crawl to its
// directory (L-09); the rest is "scope" and never fetched.
func TestPathScope(t *testing.T) {
	site := newTestSite()
	defer site.Close()
	ctx := context.Background()
	c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "s.db"), site.URL+"/en/page", siteOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sum, err := c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	c.Outcomes(ctx, func(o Outcome) error {
		got = append(got, strings.TrimPrefix(o.URL, site.URL)+" "+o.Reason)
		return nil
	})
	want := []string{"/ scope", "/de/page scope", "/en/page ", "/fr/page scope", "/from-sitemap scope"}
	if !reflect.DeepEqual(got, want) || sum.Fetched != 1 {
		t.Errorf("outcomes %q (fetched %d); want %q", got, sum.Fetched, want)
	}
}
