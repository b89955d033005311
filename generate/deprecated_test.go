package generate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/store"
)

// Deprecated image, video and news tags (image license and caption, news
// genres and keywords, video category) are not written without Legacy:
// each page that had them gets a warning with the rule (IM-04, V-04,
// N-09) naming the fields, and each is counted among the repairs, as
// other drops are (they used to vanish without a word). Legacy writes
// them and reports nothing; Strict stops at the first.
func TestRunReportsDeprecatedDrops(t *testing.T) {
	in := []string{
		`{"loc":"` + base + `a","images":[{"loc":"` + base + `a.jpg","license":"` + base + `lic","caption":"c"},{"loc":"` + base + `b.jpg","license":"` + base + `lic"}]}`,
		`{"loc":"` + base + `n","news":{"publication":{"name":"Daily","language":"en"},"publication_date":"2026-11-01T06:00:00Z","title":"T","genres":"Blog","keywords":"a, b"}}`,
		`{"loc":"` + base + `v","videos":[{"thumbnail_loc":"` + base + `t.jpg","title":"T","description":"D","content_loc":"` + base + `v.mp4","category":"Cats"}]}`,
		`{"loc":"` + base + `plain","images":[{"loc":"` + base + `c.jpg"}]}`,
	}
	var got []Problem
	st := store.Memory()
	sum, err := Run(context.Background(), jsonl(in...), opts(st, &got))
	if err != nil {
		t.Fatal(err)
	}
	if sum.URLs != 4 || sum.Skipped != 0 {
		t.Fatalf("urls %d skipped %d, want 4 and 0; problems %v", sum.URLs, sum.Skipped, got)
	}
	xml := string(st.Bytes("sitemap.xml"))
	for _, s := range []string{"<image:license>", "<image:caption>", "<news:genres>", "<news:keywords>", "<video:category>"} {
		if strings.Contains(xml, s) {
			t.Errorf("sitemap holds %s without Legacy", s)
		}
	}
	want := map[string]int{
		"dropped IM-04 images.license": 2, "dropped IM-04 images.caption": 1,
		"dropped N-09 news.genres": 1, "dropped N-09 news.keywords": 1, "dropped V-04 videos.category": 1,
	}
	if r := repairsOf(sum); len(r) != len(want) {
		t.Errorf("repairs %v, want %v", r, want)
	} else {
		for k, n := range want {
			if r[k] != n {
				t.Errorf("repairs %v, want %v", r, want)
				break
			}
		}
	}
	var msgs []string
	for _, p := range got {
		msgs = append(msgs, string(p.Rule)+" "+p.Error())
	}
	for _, w := range []string{
		"IM-04 in.jsonl:1: images.caption, images.license: deprecated image tags",
		"N-09 in.jsonl:2: news.genres, news.keywords: ",
		"V-04 in.jsonl:3: videos.category: deprecated video tags (V-02); dropped, the page kept; --legacy writes them (V-04)",
	} {
		found := false
		for _, m := range msgs {
			found = found || strings.HasPrefix(m, w)
		}
		if !found {
			t.Errorf("no problem starting %q in\n%s", w, strings.Join(msgs, "\n"))
		}
	}
	if len(got) != 3 {
		t.Errorf("%d problems, want 3 (none for the page without deprecated tags):\n%s", len(got), strings.Join(msgs, "\n"))
	}

	got = nil
	st = store.Memory()
	o := opts(st, &got)
	o.Build.Legacy = true
	sum, err = Run(context.Background(), jsonl(in...), o)
	if err != nil || len(got) != 0 || len(sum.Repairs) != 0 || !strings.Contains(string(st.Bytes("sitemap.xml")), "<image:license>") {
		t.Errorf("Legacy: err %v, problems %v, repairs %v", err, got, sum.Repairs)
	}

	o = opts(store.Memory(), nil)
	o.Strict = true
	if _, err := Run(context.Background(), jsonl(in...), o); !errors.Is(err, ErrStrict) || !strings.Contains(err.Error(), "images.caption") {
		t.Errorf("Strict: %v", err)
	}
}
