package fetch

import (
	"slices"
	"testing"
)

// TestDedupSpellings: the eight URLs of issue 21, spread over an index's
// two children, are handed out as three, each in the spelling first
// listed; the five other spellings are counted as duplicates.
func TestDedupSpellings(t *testing.T) {
	s := newSite(t)
	s.serve("/i.xml", "", index(s.URL+"/a.xml", s.URL+"/b.xml"))
	s.serve("/a.xml", "", urlset(
		"https://example.com/~user", "https://example.com/%7euser", "https://example.com/%7Euser",
		"https://example.com/a/../b/c"))
	s.serve("/b.xml", "", urlset(
		"https://example.com/b/c", "https://example.com/caf%c3%a9", "https://example.com/caf%C3%A9",
		"HTTPS://EXAMPLE.COM:443/b/./c"))
	r := walk(t, s.URL+"/i.xml", Options{PerHost: 1})
	if r.err != nil {
		t.Fatal(r.err)
	}
	got := r.locs()
	if len(got) != 3 || r.sum.Duplicates != 5 || r.sum.URLs != 3 || r.sum.Entries != 8 {
		t.Fatalf("urls %q, summary %+v; want 3 URLs and 5 duplicates", got, r.sum)
	}
	// Each child's first spelling of ~user and café is handed out; /b/c
	// is spelt in both, and the order the children are read in is the
	// walk's.
	for _, w := range []string{"https://example.com/~user", "https://example.com/caf%c3%a9"} {
		if !slices.Contains(got, w) {
			t.Errorf("urls %q lack %s", got, w)
		}
	}
	if !slices.Contains(got, "https://example.com/a/../b/c") && !slices.Contains(got, "https://example.com/b/c") {
		t.Errorf("urls %q lack /b/c", got)
	}
}
