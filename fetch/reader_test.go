package fetch

import (
	"context"
	"io"
	"slices"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// TestWalkStartsInTreeOrder: with Concurrency 1, each start is followed
// by its tree before the next start begins (the order input.Walk
// promises): the index, its children, then the next named sitemap.
func TestWalkStartsInTreeOrder(t *testing.T) {
	s := newSite(t)
	b := s.URL
	s.serve("/index.xml", "application/xml", index(b+"/1.xml", b+"/2.xml"))
	for _, n := range []string{"1", "2", "3"} {
		s.serve("/"+n+".xml", "application/xml", urlset(b+"/p"+n))
	}
	o := fastOpts()
	o.Concurrency = 1
	var order []string
	_, err := WalkNames(context.Background(), []string{b + "/index.xml", b + "/3.xml"}, o, func(ev Event) error {
		if ev.Kind == EventNodeStart {
			order = append(order, ev.Node.URL[len(b):])
		}
		return nil
	})
	if want := []string{"/index.xml", "/1.xml", "/2.xml", "/3.xml"}; err != nil || !slices.Equal(order, want) {
		t.Errorf("order %q, %v; want %q", order, err, want)
	}
}

// indexOnly is a Reader that checks nothing: it hands the walk the index
// entries of each sitemap (the URL entries are its own) and drops the
// walk's I-05 findings, counting what it was given.
type indexOnly struct {
	read     []string
	findings []string
}

func (r *indexOnly) Read(ctx context.Context, n *Node, d *Doc, base string, body io.Reader, report func(sitemap.Diagnostic)) Items {
	r.read = append(r.read, n.URL)
	return &indexItems{d: sitemap.NewDecoder(body, sitemap.DecoderOptions{Name: n.URL, BaseURL: base, OnDiagnostic: report})}
}

func (r *indexOnly) Finding(n *Node, d sitemap.Diagnostic) (sitemap.Diagnostic, bool) {
	r.findings = append(r.findings, string(d.Rule))
	return d, d.Rule != "I-05"
}

type indexItems struct {
	d  *sitemap.Decoder
	it sitemap.Item
}

func (x *indexItems) Next() (*sitemap.Item, error) {
	for {
		it, err := x.d.Next()
		if err != nil {
			return nil, err
		}
		if it.Kind == sitemap.ItemIndex {
			x.it = it
			return &x.it, nil
		}
	}
}

func (x *indexItems) Format() string { return x.d.Format().String() }

// TestWalkReader: a Reader reads every sitemap in place of the walk's
// decoder (no URL events when it hands out none), the walk still follows
// the index entries it hands out and applies I-05, and the walk's own
// findings pass through Finding (the dropped I-05 is not delivered;
// a loop is, at the listing entry).
func TestWalkReader(t *testing.T) {
	s := newSite(t)
	b := s.URL
	s.serve("/index.xml", "application/xml", index(b+"/1.xml", "https://elsewhere.example.net/2.xml", b+"/index.xml"))
	s.serve("/1.xml", "application/xml", urlset(b+"/p1"))
	rd := &indexOnly{}
	o := fastOpts()
	o.Concurrency, o.Reader = 1, rd
	r := walk(t, b+"/index.xml", o)
	if r.err != nil || len(r.urls) != 0 || !slices.Equal(rd.read, []string{b + "/index.xml", b + "/1.xml"}) {
		t.Errorf("err %v, URLs %d, read %q; want the index and 1.xml read, no URL events", r.err, len(r.urls), rd.read)
	}
	if !slices.Contains(rd.findings, "I-05") || r.diag("I-05") != nil {
		t.Errorf("findings %q, I-05 delivered %v: want it given to Finding and dropped", rd.findings, r.diag("I-05"))
	}
	if d := r.diag("FETCH-LOOP"); d == nil || d.Line != 5 || d.Col != 10 { // the third <loc>
		t.Errorf("FETCH-LOOP %v: want it at the entry that lists the index", d)
	}
}
