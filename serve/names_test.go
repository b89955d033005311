package serve

import (
	"context"
	"strings"
	"sync"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

func seqOf(locs ...string) func(yield func(*sitemap.URL, error) bool) {
	return func(yield func(*sitemap.URL, error) bool) {
		for _, l := range locs {
			if !yield(&sitemap.URL{Loc: l}, nil) {
				return
			}
		}
	}
}

// A page has one name: "sitemap-+1.xml" was page 1 too (strconv.Atoi
// takes a sign), the same document under a second URL.
func TestPageNameDigitsOnly(t *testing.T) {
	h, err := NewHandler(Seq(seqOf("https://www.example.com/a"), nil), Options{Hosts: []string{"www.example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/sitemap-+1.xml", "/sitemap-+1.xml.gz", "/sitemap--1.xml", "/sitemap-1_0.xml"} {
		if res := get(t, h, "GET", name); res.StatusCode != 404 {
			t.Errorf("%s: %s, want 404", name, res.Status)
		}
	}
	if res := get(t, h, "GET", "/sitemap-1.xml"); res.StatusCode != 200 {
		t.Errorf("/sitemap-1.xml: %s", res.Status)
	}
}

// A source without entries has no sitemap: the index is a 404 saying so,
// not a <sitemapindex> of no <sitemap> (invalid, I-08, as package validate
// reports it). Once an entry is there, the index lists its page.
func TestEmptySourceIndex(t *testing.T) {
	var locs []string
	version := 0
	src := Seq(func(yield func(*sitemap.URL, error) bool) {
		seqOf(locs...)(yield)
	}, func(context.Context) (string, error) { return strings.Repeat("v", version), nil })
	h, err := NewHandler(src, Options{Hosts: []string{"www.example.com"}, Recheck: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"/sitemap.xml", "/sitemap.xml.gz"} {
		res := get(t, h, "GET", name)
		if b := body(t, res); res.StatusCode != 404 || !strings.Contains(b, "no entries") {
			t.Errorf("%s of an empty source: %s %q", name, res.Status, b)
		}
	}
	locs, version = []string{"https://www.example.com/a"}, 1
	res := get(t, h, "GET", "/sitemap.xml")
	if b := body(t, res); res.StatusCode != 200 || !strings.Contains(b, "sitemap-1.xml") {
		t.Errorf("index of one entry: %s %q", res.Status, b)
	}
}

// Options a user may well write for the index's own URL and name are
// refused with what to give: BaseURL …/sitemap.xml made the index list
// …/sitemap.xml/sitemap-1.xml, Name "sitemap.xml" served sitemap.xml.xml
// (and 404 at /sitemap.xml); a nil Source panicked at the first request.
func TestOptionsNamingAFile(t *testing.T) {
	src := Seq(seqOf("https://www.example.com/a"), nil)
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{BaseURL: "https://www.example.com/maps/sitemap.xml"}, "give the directory the sitemaps are reachable at, https://www.example.com/maps/"},
		{Options{BaseURL: "https://www.example.com/sitemap.XML.gz"}, "https://www.example.com/"},
		{Options{Name: "sitemap.xml"}, `give it without .xml, such as "sitemap"`},
		{Options{Name: "news.xml.gz"}, `"news"`},
	} {
		if _, err := NewHandler(src, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
	if _, err := NewHandler(nil, Options{}); err == nil {
		t.Error("nil source accepted")
	}
	for _, o := range []Options{{BaseURL: "https://www.example.com/maps"}, {BaseURL: "https://www.example.com/xml/"}, {Name: "xml"}} {
		if _, err := NewHandler(src, o); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// A field the encoder refuses is dropped and the page kept, as generate
// does (EntryError.Drop): a changefreq written "Weekly" in a table left
// the whole page out of its sitemap. An entry refused as a whole is still
// left out, and both are told.
func TestDropRefusedField(t *testing.T) {
	urls := []sitemap.URL{
		{Loc: "https://www.example.com/a", ChangeFreq: "Weekly"},
		{Loc: "https://www.example.com/b", Priority: sitemap.Float64(5), Images: []sitemap.Image{{Loc: "https://www.example.com/i.jpg"}, {Loc: "/rel.jpg"}}},
		{Loc: "https://www.example.com/c d\x01"},
	}
	var dropped, skipped []string
	var mu sync.Mutex
	src := Seq(func(yield func(*sitemap.URL, error) bool) {
		for i := range urls {
			u := urls[i]
			if !yield(&u, nil) {
				return
			}
		}
	}, nil)
	h, err := NewHandler(src, Options{BaseURL: "https://www.example.com/",
		Dropped: func(loc, what string, err error) { mu.Lock(); dropped = append(dropped, loc+" "+what); mu.Unlock() },
		Skipped: func(loc string, err error) { mu.Lock(); skipped = append(skipped, loc); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	b := body(t, get(t, h, "GET", "/sitemap-1.xml"))
	if !strings.Contains(b, "<loc>https://www.example.com/a</loc></url>") || !strings.Contains(b, "<loc>https://www.example.com/b</loc><image:image><image:loc>https://www.example.com/i.jpg</image:loc></image:image></url>") || strings.Contains(b, "c d") {
		t.Errorf("page:\n%s", b)
	}
	if strings.Join(dropped, ",") != "https://www.example.com/a changefreq,https://www.example.com/b priority,https://www.example.com/b images[1]" || len(skipped) != 1 {
		t.Errorf("dropped %q, skipped %q", dropped, skipped)
	}
}
