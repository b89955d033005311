package diff

import (
	"context"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// parseSide reads a fuzz side: one entry per line, "loc" or
// "loc|changefreq".
func parseSide(s string) []sitemap.URL {
	var us []sitemap.URL
	for _, line := range strings.Split(s, "\n") {
		loc, cf, _ := strings.Cut(line, "|")
		us = append(us, sitemap.URL{Loc: loc, ChangeFreq: sitemap.ChangeFreq(cf)})
	}
	return us
}

// naive is the obvious in-memory diff: the first entry of each loc wins.
func naive(old, new []sitemap.URL) []string {
	first := func(us []sitemap.URL) map[string]sitemap.URL {
		m := map[string]sitemap.URL{}
		for _, u := range us {
			if _, ok := m[u.Loc]; !ok {
				m[u.Loc] = u
			}
		}
		return m
	}
	a, b := first(old), first(new)
	var out []string
	for loc, u := range a {
		v, ok := b[loc]
		switch {
		case !ok:
			out = append(out, "removed "+loc)
		// Entries are compared as an encoding/json round trip gives
		// them back (Compare's contract): invalid UTF-8 bytes are U+FFFD.
		case validString(string(u.ChangeFreq)) != validString(string(v.ChangeFreq)):
			out = append(out, "modified "+loc)
		}
	}
	for loc := range b {
		if _, ok := a[loc]; !ok {
			out = append(out, "added "+loc)
		}
	}
	slices.Sort(out)
	return out
}

// FuzzDiff checks the external-sort diff (tiny chunks, fan-in 2: many
// runs and merge passes) against the naive in-memory diff, and that its
// output is in loc order.
func FuzzDiff(f *testing.F) {
	f.Add("a\nb|daily\nc", "b|weekly\nc\nd")
	f.Add("x\nx|daily\ny", "x|daily\nx\n")
	f.Add("", "")
	f.Add("same|never", "same|never")
	f.Fuzz(func(t *testing.T, old, new string) {
		if len(old)+len(new) > 4096 {
			return
		}
		o, n := parseSide(old), parseSide(new)
		var got, locs []string
		_, err := Diff(context.Background(), slice(o...), slice(n...), Options{TempDir: t.TempDir(), ChunkBytes: 1, FanIn: 2},
			func(c Change) error {
				got = append(got, string(c.Change)+" "+c.Loc)
				locs = append(locs, c.Loc)
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.IsSorted(locs) {
			t.Errorf("output not in loc order: %q", locs)
		}
		slices.Sort(got)
		if want := naive(o, n); !slices.Equal(got, want) {
			t.Errorf("diff %q\nwant %q", got, want)
		}
	})
}
