package source

import (
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/rules"
)

// One bad field or extension block of a JSONL record costs that field or
// block, with a warning naming the rule and what was left out; a number
// written as a string is read as the number.
func TestJSONLLenient(t *testing.T) {
	in := `{"loc":"https://a.example/","priority":"0.5","lastmod":"yesterday",` +
		`"videos":[{"thumbnail_loc":"https://a.example/t.jpg","title":"T","description":"D","content_loc":"https://a.example/v.mp4","duration":"600"},{"title":5}],` +
		`"news":{"title":7},"alternates":[{"hreflang":"de","href":"https://a.example/de"},{"hreflang":1}]}` + "\n" +
		`{"loc":"https://a.example/b","priority":"high","images":"x"}` + "\n"
	var warns []*Error
	_, recs, err := drain(t, NewJSONL(strings.NewReader(in), Options{Name: "u.jsonl", Warn: func(e *Error) { warns = append(warns, e) }}))
	if err != nil || len(recs) != 2 {
		t.Fatalf("records %v, err %v", recs, err)
	}
	u := recs[0].URL
	if u.Priority == nil || *u.Priority != 0.5 || !u.LastMod.IsZero() || len(u.Videos) != 1 || u.Videos[0].Duration == nil ||
		*u.Videos[0].Duration != 600 || u.News != nil || len(u.Alternates) != 1 || u.Alternates[0].Hreflang != "de" {
		t.Errorf("first record %+v", u)
	}
	if b := recs[1].URL; b.Loc != "https://a.example/b" || b.Priority != nil || b.Images != nil {
		t.Errorf("second record %+v", b)
	}
	type w struct {
		rule    rules.ID
		dropped string
		fixed   bool
	}
	want := []w{{"M-01", "lastmod", false}, {"P-01", "", true}, {"V-01", "", true}, {"V-01", "videos[1]", false},
		{"N-01", "news", false}, {"H-05", "alternates[1]", false}, {"P-01", "priority", false}, {"IM-01", "images", false}}
	var got []w
	for _, e := range warns {
		got = append(got, w{e.Rule, e.Dropped, e.Fixed})
		if e.File != "u.jsonl" || e.Line == 0 || e.Message == "" {
			t.Errorf("warning without position or message: %+v", e)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("warnings %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("warning %d = %+v (%s), want %+v", i, got[i], warns[i].Message, want[i])
		}
	}
}

func TestStringNumber(t *testing.T) {
	for s, want := range map[string]bool{`"0.5"`: true, `"1"`: true, `"1e0"`: true, `" 0.5"`: false, `"0x1"`: false,
		`"NaN"`: false, `"Inf"`: false, `""`: false, `"high"`: false, `0.5`: false} {
		if _, ok := stringNumber([]byte(s), false); ok != want {
			t.Errorf("stringNumber(%s) = %v, want %v", s, ok, want)
		}
	}
	if _, ok := stringNumber([]byte(`"1.5"`), true); ok {
		t.Error(`"1.5" read as an integer`)
	}
}
