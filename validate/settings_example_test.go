package validate_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/sitemapkit/sitemap/validate"
)

// Settings take the options as `sitemap validate` takes its flags;
// RunOptions checks them and returns what Run needs.
func ExampleSettings_RunOptions() {
	s := validate.Settings{Format: "text", Base: "https://www.example.com/", MaxChildren: 1000, MaxPerRule: 20}
	s.Client.Timeout = 30 * time.Second
	names := []string{"../input/testdata/site/sub/child-1.xml"}
	ro, err := s.RunOptions(names, os.Stdin)
	if err != nil {
		fmt.Println(err)
		return
	}
	sum, err := validate.Run(context.Background(), names, ro, os.Stdout, os.Stdout)
	fmt.Println(sum.Failed(s.Strict), err)
	s.Now = "last week"
	_, err = s.RunOptions(names, os.Stdin)
	fmt.Println(err)
	// Output:
	// ../input/testdata/site/sub/child-1.xml: urlset, 2 URLs, 234 bytes: 0 errors, 0 warnings
	// false <nil>
	// --now "last week": want RFC 3339 (2026-11-22T12:00:00Z) or YYYY-MM-DD
}

func ExampleParseNow() {
	now, err := validate.ParseNow("2026-11-22")
	fmt.Println(now.Format(time.RFC3339), err)
	// Output: 2026-11-22T00:00:00Z <nil>
}

// Failed is the verdict of a run (--strict counts warnings); Unread says
// how many inputs could not be opened.
func ExampleRunSummary_Failed() {
	var sum validate.RunSummary
	sum.Reported.Warnings, sum.Unopened = 2, 1
	fmt.Println(sum.Failed(false), sum.Failed(true))
	fmt.Println(sum.Unread())
	// Output:
	// false true
	// 1 input could not be read (the error above)
}
