package diff_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/diff"
)

// Run compares two sitemaps as `sitemap diff` does: the changes on the
// first writer, the summary on the second.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "diff-example")
	defer os.RemoveAll(dir)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+body+`</urlset>`), 0o644)
		return p
	}
	old := write("old.xml", `<url><loc>https://www.example.com/a</loc></url><url><loc>https://www.example.com/b</loc></url>`)
	new := write("new.xml", `<url><loc>https://www.example.com/b</loc><lastmod>2026-11-02</lastmod></url><url><loc>https://www.example.com/c</loc></url>`)
	sum, err := diff.Run(context.Background(), old, new, diff.RunOptions{Format: "text"}, os.Stdout, os.Stdout)
	fmt.Println(sum.Differ(), err)
	// Output:
	// - https://www.example.com/a
	// ~ https://www.example.com/b  lastmod - → 2026-11-02
	// + https://www.example.com/c
	// sitemap diff: 1 added, 1 removed, 1 modified, 0 unchanged (old 2 URLs, new 2 URLs)
	// true <nil>
}
