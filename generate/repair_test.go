package generate

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/store"
)

func jsonl(lines ...string) Source {
	return Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), source.Options{Name: "in.jsonl"})
}

// repairsOf is sum.Repairs as "action rule field count" strings.
func repairsOf(sum Summary) map[string]int {
	m := map[string]int{}
	for _, r := range sum.Repairs {
		m[r.Action+" "+string(r.Rule)+" "+r.Field] = r.Count
	}
	return m
}

// One bad extension block or field costs that block or field, not the
// page: a video without thumbnail_loc (V-01), a news block without a
// title (N-01), an alternate with hreflang "english" (H-06), a priority
// of 5 (P-01), a priority written as the string "0.5". Each is reported
// with its rule and counted; Strict stops at the first and publishes
// nothing.
func TestRunDropsTheBadBlockKeepsThePage(t *testing.T) {
	in := []string{
		`{"loc":"` + base + `v","videos":[{"title":"T","description":"D","content_loc":"` + base + `v.mp4"}]}`,
		`{"loc":"` + base + `n","news":{"publication":{"name":"Daily","language":"en"},"publication_date":"2026-11-01T06:00:00Z"}}`,
		`{"loc":"` + base + `h","alternates":[{"hreflang":"english","href":"` + base + `h"},{"hreflang":"de","href":"` + base + `de/h"}]}`,
		`{"loc":"` + base + `p","priority":5}`,
		`{"loc":"` + base + `s","priority":"0.5"}`,
	}
	var got []Problem
	st := store.Memory()
	o := opts(st, &got)
	o.NoHreflangCheck = true // the cluster of one page is tested in hreflang_test.go
	sum, err := Run(context.Background(), jsonl(in...), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != 5 || sum.Skipped != 0 {
		t.Fatalf("urls %d skipped %d, want 5 and 0; problems %v", sum.URLs, sum.Skipped, got)
	}
	xml := string(st.Bytes("sitemap.xml"))
	for _, s := range []string{"<video:", "<news:", `hreflang="english"`} {
		if strings.Contains(xml, s) {
			t.Errorf("sitemap holds %s:\n%s", s, xml)
		}
	}
	for _, s := range []string{`hreflang="de"`, "<priority>0.5</priority>"} {
		if !strings.Contains(xml, s) {
			t.Errorf("sitemap lacks %s:\n%s", s, xml)
		}
	}
	want := map[string]int{"dropped V-01 videos": 1, "dropped N-01 news": 1, "dropped H-06 alternates": 1, "dropped P-01 priority": 1, "fixed P-01 priority": 1}
	if r := repairsOf(sum); len(r) != len(want) {
		t.Errorf("repairs %v, want %v", r, want)
	} else {
		for k, n := range want {
			if r[k] != n {
				t.Errorf("repairs %v, want %v", r, want)
			}
		}
	}
	rules := map[string]bool{}
	for _, p := range got {
		rules[string(p.Rule)] = true
		if p.File != "in.jsonl" || p.Line == 0 || !strings.Contains(p.Error(), "("+string(p.Rule)) {
			t.Errorf("problem without position or rule: %s", p)
		}
	}
	for _, r := range []string{"V-01", "N-01", "H-06", "P-01"} {
		if !rules[r] {
			t.Errorf("no %s reported: %v", r, got)
		}
	}

	for _, line := range in {
		o := opts(store.Memory(), nil)
		o.Strict = true
		if _, err := Run(context.Background(), jsonl(`{"loc":"`+base+`ok"}`, line), o); !errors.Is(err, ErrStrict) {
			t.Errorf("Strict with %s: %v, want ErrStrict", line, err)
		}
	}
}

// URLs with one right spelling are written in it (L-18) and reported at
// info level; the spellings of one URL are one URL for L-17; with
// NoNormalize they are refused as before (L-07).
func TestRunNormalizes(t *testing.T) {
	var got []Problem
	st := store.Memory()
	sum, err := Run(context.Background(), text(
		base+"café", base+"a b<c>", "HTTPS://WWW.EXAMPLE.COM/x", "https://www.example.com:443/x", base+"x#top", base+"x",
	), opts(st, &got))
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != 3 || sum.Duplicates != 3 || sum.Skipped != 0 {
		t.Errorf("urls %d dups %d skipped %d, want 3 3 0", sum.URLs, sum.Duplicates, sum.Skipped)
	}
	xml := string(st.Bytes("sitemap.xml"))
	for _, l := range []string{base + "caf%C3%A9", base + "a%20b%3Cc%3E", base + "x"} {
		if !strings.Contains(xml, "<loc>"+l+"</loc>") {
			t.Errorf("sitemap lacks %s:\n%s", l, xml)
		}
	}
	if r := repairsOf(sum); r["normalized L-18 loc"] != 5 {
		t.Errorf("repairs %v, want 5 locs normalised", r)
	}
	infos := 0
	for _, p := range got {
		if p.Rule == "L-18" && p.Severity.String() == "info" && strings.Contains(p.Error(), "written as") {
			infos++
		}
	}
	if infos != 5 {
		t.Errorf("%d L-18 infos, want 5: %v", infos, got)
	}

	o := opts(store.Memory(), nil)
	o.NoNormalize = true
	sum, err = Run(context.Background(), text(base+"café", base+"a b", base+"ok"), o)
	if err != nil || sum.URLs != 1 || sum.Skipped != 2 || sum.SkippedByRule["L-07"] != 2 {
		t.Errorf("NoNormalize: %v, urls %d skipped %d %v", err, sum.URLs, sum.Skipped, sum.SkippedByRule)
	}
}

// Image locs, video locs and alternate hrefs are normalised too.
func TestRunNormalizesExtensionURLs(t *testing.T) {
	st := store.Memory()
	_, err := Run(context.Background(), jsonl(`{"loc":"`+base+`p","images":[{"loc":"https://CDN.example.com/é.jpg"}],`+
		`"videos":[{"thumbnail_loc":"`+base+`t b.jpg","title":"T","description":"D","player_loc":"`+base+`p?v=1#x"}],`+
		`"alternates":[{"hreflang":"de","href":"`+base+`dé"},{"hreflang":"en","href":"`+base+`p"}]}`), opts(st, nil))
	if err != nil {
		t.Fatal(err)
	}
	xml := string(st.Bytes("sitemap.xml"))
	for _, s := range []string{"https://cdn.example.com/%C3%A9.jpg", base + "t%20b.jpg", base + "p?v=1</video:player_loc>", base + "d%C3%A9"} {
		if !strings.Contains(xml, s) {
			t.Errorf("sitemap lacks %s:\n%s", s, xml)
		}
	}
}

// A lastmod more than LastModSkew in the future is dropped, not the page
// (M-07), and so never reaches the index; within the skew it is kept.
func TestRunFutureLastMod(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	var got []Problem
	st := store.Memory()
	o := opts(st, &got)
	o.Build.Now = func() time.Time { return now }
	o.Build.MaxURLs = 1 // an index, with a lastmod per child
	sum, err := Run(context.Background(), jsonl(
		`{"loc":"`+base+`a","lastmod":"2030-01-01"}`,
		`{"loc":"`+base+`b","lastmod":"2026-11-25T06:00:00Z"}`,
		`{"loc":"`+base+`c","lastmod":"2026-11-01"}`,
	), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != 3 || repairsOf(sum)["dropped M-07 lastmod"] != 1 || len(got) != 1 || got[0].Rule != "M-07" {
		t.Errorf("urls %d repairs %v problems %v", sum.URLs, sum.Repairs, got)
	}
	idx := string(st.Bytes("sitemap.xml"))
	if strings.Contains(idx, "2030") || !strings.Contains(idx, "2026-11-25T06:00:00Z") {
		t.Errorf("index:\n%s", idx)
	}
	if sum.Index == nil || sum.Index.LastMod.Time.After(now.Add(LastModSkew)) {
		t.Errorf("index lastmod %v", sum.Index)
	}
	o = opts(store.Memory(), nil)
	o.Build.Now = func() time.Time { return now }
	o.Strict = true
	if _, err := Run(context.Background(), jsonl(`{"loc":"`+base+`a","lastmod":"2030-01-01"}`), o); !errors.Is(err, ErrStrict) {
		t.Errorf("Strict: %v", err)
	}
}
