package fetch

import (
	"slices"
	"testing"
)

// TestWalkMaxChildren: an index's children past MaxChildren are not read,
// and one VAL-02 warning on the index says how many it listed; a negative
// MaxChildren reads none, 0 all.
func TestWalkMaxChildren(t *testing.T) {
	s := newSite(t)
	b := s.URL
	s.serve("/index.xml", "application/xml", index(b+"/1.xml", b+"/2.xml", b+"/3.xml"))
	for _, n := range []string{"1", "2", "3"} {
		s.serve("/"+n+".xml", "application/xml", urlset(b+"/p"+n))
	}
	for _, tt := range []struct {
		max  int
		want []string
		note string
	}{
		{0, []string{b + "/p1", b + "/p2", b + "/p3"}, ""},
		{2, []string{b + "/p1", b + "/p2"}, "the index lists 3 sitemaps; only the first 2 were read (raise --max-children)"},
		{-1, nil, "the index lists 3 sitemaps; only the first 0 were read (raise --max-children)"},
	} {
		o := fastOpts()
		o.MaxChildren, o.Concurrency = tt.max, 1
		r := walk(t, b+"/index.xml", o)
		got := r.locs()
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("MaxChildren %d: URLs %q, want %q", tt.max, got, tt.want)
		}
		d := r.diag("VAL-02")
		switch {
		case tt.note == "" && d != nil:
			t.Errorf("MaxChildren %d: %s", tt.max, d)
		case tt.note != "" && (d == nil || d.Message != tt.note || d.URL != b+"/index.xml"):
			t.Errorf("MaxChildren %d: VAL-02 %v, want %q on the index", tt.max, d, tt.note)
		}
		if n, ok := r.node(b + "/index.xml"); !ok || n.Sitemaps != 3 {
			t.Errorf("MaxChildren %d: the index node %+v, want 3 sitemaps listed", tt.max, n)
		}
	}
}
