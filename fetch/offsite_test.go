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

// TestWalkOffSiteHint: the I-05 message names its rule once (the
// diagnostic's ID) and its hint names what lets the child through for
// the scope in use: --allow-off-site alone by default; with a same-site
// scope, which refuses the child's site even so, --allow-host and the
// child's host:port too; followed under that scope, it says the child
// is not read and what lets it through.
func TestWalkOffSiteHint(t *testing.T) {
	a, b := newSite(t), newSite(t)
	a.serve("/index.xml", "application/xml", index(b.URL+"/s2.xml"))
	b.serve("/s2.xml", "application/xml", urlset(b.URL+"/p2"))
	host := strings.TrimPrefix(b.URL, "http://")
	for _, tc := range []struct {
		name      string
		sameSite  bool
		allowOff  bool
		want, not string
	}{
		{"default", false, false, "not followed (--allow-off-site follows it)", "--allow-host"},
		{"same-site", true, false, "not followed (--allow-off-site with --allow-host " + host + " follows it", "(--allow-off-site follows it)"},
		{"same-site followed", true, true, "not read: the request scope refuses it, another site than " + a.URL + " (same-site scope, FETCH-SCOPE); --allow-host " + host + " lets it through", "followed anyway"},
	} {
		o := fastOpts()
		o.Attempts = 1
		o.AllowOffSite = tc.allowOff
		o.Scope = Scope{SameSite: tc.sameSite}
		r := walk(t, a.URL+"/index.xml", o)
		d := r.diag("I-05")
		if d == nil {
			t.Fatalf("%s: no I-05 in %v", tc.name, r.diags)
		}
		if !strings.Contains(d.Message, tc.want) || strings.Contains(d.Message, tc.not) || strings.Contains(d.Message, "I-05") {
			t.Errorf("%s: I-05 message %q\nwant it to say %q, not %q, and not repeat the rule ID", tc.name, d.Message, tc.want, tc.not)
		}
	}
}
