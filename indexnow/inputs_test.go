package indexnow

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
)

// Inputs reads a change list, a sitemap, a URL list and standard input in
// the order given, skips the key file in a directory, and reports a bad
// record as an error without stopping.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "changes.jsonl"), []byte(
		`{"change":"added","new":{"loc":"https://www.example.com/added"}}`+"\n"+
			`{"change":"removed","old":{"loc":"https://www.example.com/gone"}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "sitemap.xml"), []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/sm</loc></url></urlset>`), 0o644)
	os.WriteFile(filepath.Join(dir, "urls.jsonl"), []byte(`{"loc":"https://www.example.com/listed"}`+"\n{bad json\n"), 0o644)
	os.WriteFile(filepath.Join(dir, testKey+".txt"), []byte(testKey+"\n"), 0o644)
	var diags []sitemap.Diagnostic
	names := []string{filepath.Join(dir, "changes.jsonl"), filepath.Join(dir, "sitemap.xml"), filepath.Join(dir, "urls.jsonl"), "-"}
	entries, err := Inputs(context.Background(), names, testKey, input.Options{
		Stdin: strings.NewReader("https://www.example.com/stdin\n"), Follow: true, JSONL: true,
		OnDiagnostic: func(d sitemap.Diagnostic) { diags = append(diags, d) },
	})
	if err != nil {
		t.Fatal(err)
	}
	var locs []string
	if err := entries(context.Background(), func(u *sitemap.URL) error { locs = append(locs, u.Loc); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []string{"https://www.example.com/added", "https://www.example.com/sm", "https://www.example.com/listed", "https://www.example.com/stdin"}
	if !slices.Equal(locs, want) {
		t.Errorf("locs %v\nwant %v", locs, want)
	}
	if len(diags) != 1 || diags[0].Severity != sitemap.SeverityError || diags[0].Line != 2 {
		t.Errorf("diagnostics %v, want the bad line 2 of urls.jsonl", diags)
	}

	// A directory: its sitemap files, the key file left out.
	entries, err = Inputs(context.Background(), []string{dir}, testKey, input.Options{Follow: true})
	if err != nil {
		t.Fatal(err)
	}
	locs = nil
	entries(context.Background(), func(u *sitemap.URL) error { locs = append(locs, u.Loc); return nil })
	if slices.Contains(locs, testKey) || !slices.Contains(locs, "https://www.example.com/sm") {
		t.Errorf("directory: %v", locs)
	}
}
