package fetch

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestWalkOffSiteChildren is I-05 in the walk: an index's child on
// another site (here another port) is not requested and is an I-05 error
// at its entry, a same-site child's redirect there is refused, and
// AllowOffSite follows both with an I-05 warning. robots.txt may name
// sitemaps on any site.
func TestWalkOffSiteChildren(t *testing.T) {
	a, b := newSite(t), newSite(t)
	a.serve("/index.xml", "application/xml", index(a.URL+"/s1.xml", b.URL+"/s2.xml", a.URL+"/hop.xml"))
	a.serve("/s1.xml", "application/xml", urlset(a.URL+"/p1"))
	a.handle("/hop.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL+"/s3.xml", http.StatusFound)
	})
	b.serve("/s2.xml", "application/xml", urlset(b.URL+"/p2"))
	b.serve("/s3.xml", "application/xml", urlset(b.URL+"/p3"))

	o := fastOpts()
	o.Attempts = 1
	r := walk(t, a.URL+"/index.xml", o)
	if got := r.locs(); !slices.Equal(got, []string{a.URL + "/p1"}) {
		t.Errorf("URLs %q, want only the same-site child's", got)
	}
	d := r.diag("I-05")
	if d == nil || d.Severity.String() != "error" || d.Line != 4 || d.URL != a.URL+"/index.xml" ||
		!strings.Contains(d.Message, "child sitemap "+b.URL+"/s2.xml is on another site than the index") {
		t.Errorf("I-05 = %+v", d)
	}
	if n, ok := r.node(a.URL + "/hop.xml"); !ok || !n.Failed || !strings.Contains(n.Err, "another site than the index (I-05); not followed") {
		t.Errorf("off-site redirect: %+v", n)
	}
	if b.hitCount("/s2.xml")+b.hitCount("/s3.xml") != 0 {
		t.Error("the other site was requested")
	}

	o.AllowOffSite = true
	r = walk(t, a.URL+"/index.xml", o)
	got := r.locs()
	slices.Sort(got)
	want := []string{a.URL + "/p1", b.URL + "/p2", b.URL + "/p3"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("AllowOffSite: URLs %q, want %q", got, want)
	}
	if d := r.diag("I-05"); d == nil || d.Severity.String() != "warning" || !strings.Contains(d.Message, "followed anyway") {
		t.Errorf("AllowOffSite: I-05 = %+v", d)
	}

	// robots.txt naming a sitemap on another site: cross-submission, read.
	a.serve("/robots.txt", "text/plain", []byte("Sitemap: "+b.URL+"/s2.xml\n"))
	r = walk(t, a.URL+"/robots.txt", fastOpts())
	if got := r.locs(); !slices.Equal(got, []string{b.URL + "/p2"}) || r.diag("I-05") != nil {
		t.Errorf("robots.txt: %q %v", got, r.diags)
	}
}
