package robots_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/robots"
)

// Apply adds and removes Sitemap: lines in the bytes of a robots.txt,
// every other byte kept, and says when the file keeps crawlers from the
// sitemap it names (RB-11).
func ExampleEdit_Apply() {
	src := []byte("User-agent: *\nDisallow: /private/\n\nSitemap: https://www.example.com/old.xml\n")
	ed, err := robots.Edit{
		Add:    "https://www.example.com/sitemap.xml",
		Remove: []string{"https://www.example.com/old.xml"},
	}.Apply(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(ed.Out))
	fmt.Println(ed.Added, ed.Removed, ed.Disallowed == "")
	// Output:
	// User-agent: *
	// Disallow: /private/
	//
	// Sitemap: https://www.example.com/sitemap.xml
	// true [https://www.example.com/old.xml] true
}

// File edits a robots.txt in place, writing it aside and renaming it
// (created when it is missing and a line is added).
func ExampleEdit_File() {
	dir, _ := os.MkdirTemp("", "robots-edit")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "robots.txt")
	ed, err := robots.Edit{Add: "https://www.example.com/sitemap.xml"}.File(path)
	fmt.Println(ed.Created, ed.Added, err)
	ed, err = robots.Edit{Add: "https://www.example.com/sitemap.xml"}.File(path)
	fmt.Println(ed.Changed(), err)
	b, _ := os.ReadFile(path)
	fmt.Print(string(b))
	// Output:
	// true true <nil>
	// false <nil>
	// Sitemap: https://www.example.com/sitemap.xml
}
