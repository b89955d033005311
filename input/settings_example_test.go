package input_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	"github.com/sitemapkit/sitemap/input"
)

// ListRobots is `sitemap robots list`: the Sitemap: lines of a
// robots.txt (here standard input) in the format asked for; a wrong line
// is a warning and a problem found.
func ExampleListRobots() {
	stdin := strings.NewReader("User-agent: *\nSitemap: https://www.example.com/sitemap.xml\nSitemap: /relative.xml\n")
	o := input.RobotsListOptions{Format: "jsonl", Timeout: 30 * time.Second, Stdin: stdin}
	problems, err := input.ListRobots(context.Background(), "-", o, os.Stdout, os.Stdout)
	fmt.Println(problems, err)
	// Output:
	// <stdin>:3: warning RB-12: sitemap URL "/relative.xml" is relative; ignored (write the full https://… URL)
	// {"loc":"https://www.example.com/sitemap.xml"}
	// true <nil>
}

// A site without a robots.txt (404) has no Sitemap: lines: said, and a
// problem found.
func ExampleListRobots_notFound() {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	o := input.RobotsListOptions{Format: "text", Timeout: 30 * time.Second}
	var said strings.Builder
	problems, err := input.ListRobots(context.Background(), srv.URL+"/robots.txt", o, os.Stdout, &said)
	fmt.Println(strings.TrimPrefix(said.String(), srv.URL), problems, err)
	// Output:
	// /robots.txt: HTTP 404: no robots.txt, so no Sitemap lines (RB-02: it must be at /robots.txt)
	//  true <nil>
}

// The flags of `sitemap parse`: checked, then the options of Parse.
func ExampleParseSettings_Check() {
	s := input.ParseSettings{Format: "jsonl", MaxPerRule: 20}
	s.MaxChildren = -1
	fmt.Println(s.Check())
	s.MaxChildren = 0
	po := s.ParseOptions(nil, os.Stdin)
	fmt.Println(s.Check(), po.Format, po.MaxChildren, po.Decoder.MaxErrors)
	// Output:
	// --max-children -1: give 0 or more
	// <nil> jsonl -1 -1
}

// ReadSettings' zeros are "none" and "no limit" as people give them;
// the Options' are the negatives that say so.
func ExampleReadSettings_Options() {
	in := input.ReadSettings{MaxChildren: 50, MaxErrors: 0}.Options(nil, os.Stdin, true, nil)
	fmt.Println(in.Follow, in.MaxChildren, in.Decoder.MaxErrors)
	// Output:
	// true 50 -1
}
