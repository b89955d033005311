package generate

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/xsl"
)

// A run that publishes nothing leaves no trace: with XSL, the stylesheet
// is published with the sitemaps, so a run whose entries are all invalid
// (or that fails before its publication) does not write it either.
func TestNothingPublishedNoStylesheet(t *testing.T) {
	dir := t.TempDir()
	ds, err := store.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := opts(ds, nil)
	o.XSL = true
	if _, err := Run(context.Background(), text("ftp://www.example.com/a", "www.example.com/relative"), o); !errors.Is(err, build.ErrNoEntries) {
		t.Fatalf("Run: %v, want ErrNoEntries", err)
	}
	o.Build.Index, o.Build.MaxURLs = build.IndexNever, 1
	var need *build.NeedIndexError
	if _, err := Run(context.Background(), text(base+"a", base+"b", base+"c"), o); !errors.As(err, &need) || need.Sitemaps != 3 {
		t.Fatalf("Run over the index mode: %v, want a NeedIndexError for 3 sitemaps", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("a run that published nothing left %v", ents)
	}
	// A run that publishes writes it, before the sitemaps that name it.
	o.Build.Index, o.Build.MaxURLs = build.IndexAuto, 0
	if _, err := Run(context.Background(), text(base+"a"), o); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir + "/" + xsl.DefaultName); err != nil {
		t.Fatalf("no stylesheet after a run that published: %v", err)
	}
}
