package generate

import (
	"context"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/store"
)

// A problem of an entry the builder refused names its line when the
// source has lines but no name, as the source's own errors do ("3:12:
// …"); it named the loc alone, though the doc promises the position.
func TestProblemStringLineWithoutName(t *testing.T) {
	var got []string
	o := opts(store.Memory(), nil)
	o.Report = func(p Problem) { got = append(got, p.Error()) }
	src := Read(strings.NewReader(base+"a\nwww.example.com/rel\n"), source.Options{Format: source.FormatText})
	if _, err := Run(context.Background(), src, o); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], `2: loc "www.example.com/rel" is not an absolute URL`) {
		t.Errorf("problems %q", got)
	}
	// Without positions (Entries) the loc is the position.
	if p := (Problem{URL: "/rel", Message: "m"}); p.Error() != "/rel: m" {
		t.Errorf("%q", p.Error())
	}
}
