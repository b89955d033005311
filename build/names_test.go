package build

import (
	"context"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/store"
)

// A base URL naming the index file (…/sitemap.xml) is refused with its
// directory: taken as a directory, every entry was out of its scope (L-09)
// and the run published nothing, saying to serve the sitemaps from the
// site's root. A name with the extension would write sitemap.xml.xml.
func TestOptionsNamingAFile(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{BaseURL: "https://www.example.com/sitemap.xml"}, "names a file; give the directory the sitemaps are served from, https://www.example.com/"},
		{Options{BaseURL: "https://www.example.com/maps/index.XML.GZ"}, "https://www.example.com/maps/"},
		{Options{BaseURL: base, Name: "sitemap.xml"}, `give it without .xml, such as "sitemap"`},
		{Options{BaseURL: base, Name: "sitemap.xml.gz"}, `give it without .xml.gz`},
	} {
		if _, err := New(store.Memory(), c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
	for _, o := range []Options{{BaseURL: "https://www.example.com/maps"}, {BaseURL: "https://www.example.com/xml/"}, {BaseURL: base, Name: "xml"}} {
		if _, err := New(store.Memory(), o); err != nil {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// MergeShards refuses what New refuses: a base URL naming a file, a name
// with .xml, and no store (it panicked).
func TestMergeShardsNamingAFile(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		o    MergeOptions
		want string
	}{
		{MergeOptions{Shards: 2, BaseURL: "https://www.example.com/sitemap.xml"}, "names a file; give the directory the sitemaps are served from, https://www.example.com/"},
		{MergeOptions{Shards: 2, BaseURL: base, Name: "sitemap.xml"}, `give it without .xml`},
	} {
		if _, err := MergeShards(ctx, store.Memory(), c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
	if _, err := MergeShards(ctx, nil, MergeOptions{Shards: 2, BaseURL: base}); err == nil || !strings.Contains(err.Error(), "no store") {
		t.Errorf("nil store: %v", err)
	}
}
