package graph_test

import (
	"context"
	"fmt"
	"os"

	"github.com/sitemapkit/sitemap/graph"
	"github.com/sitemapkit/sitemap/input"
)

// Run is `sitemap graph`: the sitemaps read (an index and its children)
// and drawn into a file, the problems read as they come, then (not
// Quiet) one line saying what was written.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "graph-run")
	defer os.RemoveAll(dir)
	s := graph.Settings{Output: dir + "/site.json", MaxNodes: graph.DefaultMaxNodes, MaxLinks: graph.DefaultMaxLinks,
		MaxSections: graph.DefaultMaxSections, MaxPages: graph.DefaultMaxPages}
	in := input.Options{Base: "https://www.example.com/"}
	sum, err := graph.Run(context.Background(), []string{"../input/testdata/site/sitemap_index.xml"}, graph.RunOptions{Settings: s, Input: in, Quiet: true}, os.Stdout, os.Stdout)
	fmt.Println(sum.URLs, "URLs,", sum.Errors, "error,", err)
	// Output:
	// ../input/testdata/site/sitemap_index.xml:10:5: error I-05: child sitemap https://other.example.net/child-3.xml is on another site than the index (https://www.example.com); an index may point only to sitemaps on its own site; not followed (--allow-off-site follows it)
	// 3 URLs, 1 error, <nil>
}

// Check says which format the settings draw in, or what is wrong.
func ExampleSettings_Check() {
	s := graph.Settings{Output: "site.svg", MaxNodes: 100, MaxLinks: 100, MaxSections: 1000}
	fmt.Println(s.Check())
	s.MaxNodes = 0
	_, err := s.Check()
	fmt.Println(err)
	// Output:
	// svg <nil>
	// --max-nodes, --max-sections and --max-links must be at least 1, --max-pages at least 0
}

func ExampleRunSummary_String() {
	fmt.Println(graph.RunSummary{Output: "site.svg", Format: "svg", URLs: 4500, Sections: 350, Drawn: 200})
	fmt.Println(graph.RunSummary{Output: "-", Format: "json", URLs: 2, Sections: 1, Drawn: 2, State: true, Links: 1})
	// Output:
	// wrote site.svg (svg): 4,500 URLs in 350 sections (200 drawn)
	// wrote json to standard output: 2 sitemap URLs in 1 section; 1 internal link
}
