package urlfilter

import (
	"regexp"
	"testing"
)

func TestKeep(t *testing.T) {
	re := regexp.MustCompile
	for _, tc := range []struct {
		f    Filter
		url  string
		want bool
	}{
		{Filter{}, "https://www.example.com/a", true},
		{Filter{Include: []*regexp.Regexp{re(`/blog/`)}}, "https://www.example.com/blog/a", true},
		{Filter{Include: []*regexp.Regexp{re(`/blog/`)}}, "https://www.example.com/shop/a", false},
		{Filter{Include: []*regexp.Regexp{re(`/blog/`), re(`/shop/`)}}, "https://www.example.com/shop/a", true},
		{Filter{Exclude: []*regexp.Regexp{re(`\?`)}}, "https://www.example.com/a?x=1", false},
		{Filter{Include: []*regexp.Regexp{re(`/blog/`)}, Exclude: []*regexp.Regexp{re(`draft`)}}, "https://www.example.com/blog/draft-1", false},
	} {
		if got := tc.f.Keep(tc.url); got != tc.want {
			t.Errorf("%v Keep(%q) = %v, want %v", tc.f, tc.url, got, tc.want)
		}
	}
	if !(Filter{}).IsZero() || (Filter{Exclude: []*regexp.Regexp{re(`x`)}}).IsZero() {
		t.Error("IsZero")
	}
}
