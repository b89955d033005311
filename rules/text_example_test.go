package rules_test

import (
	"fmt"
	"os"

	"github.com/sitemapkit/sitemap/rules"
)

func ExampleSelect() {
	rs, err := rules.Select([]string{"gz"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rs[0].ID)
	_, err = rules.Select([]string{"X-6x"})
	fmt.Println(err != nil)
	// Output:
	// GZ-01
	// true
}

func ExampleLookupAll() {
	rs, err := rules.LookupAll([]string{"x-6", "ZZ-99"})
	fmt.Println(len(rs), rs[0].ID)
	fmt.Println(err)
	// Output:
	// 1 X-06
	// no rule "ZZ-99" ('sitemap rules' lists every rule)
}

func ExampleWriteText() {
	rs, _ := rules.LookupAll([]string{"L-01"})
	rules.WriteText(os.Stdout, rs)
	// Output:
	// L-01  error    A <loc> is an absolute URL that starts with its scheme (https://www.example.com/, not www.example.com).
}

func ExampleWriteJSON() {
	rules.WriteJSON(os.Stdout, nil)
	// Output:
	// []
}

func ExampleWriteExplain() {
	rs, _ := rules.LookupAll([]string{"L-01"})
	rules.WriteExplain(os.Stdout, rs)
	// Output:
	// L-01: error (MUST), <loc>
	//   A <loc> is an absolute URL that starts with its scheme
	//   (https://www.example.com/, not www.example.com).
	//
	//   Source: sitemaps.org protocol
	//           https://www.sitemaps.org/protocol.html#xmlTagDefinitions
	//   Fix:    Write the full URL with scheme and host: https://www.example.com/page.
}

// SearchConsole maps each message of Search Console's sitemap report to
// the rules that judge it offline.
func ExampleSearchConsole() {
	for _, m := range rules.SearchConsole() {
		if m.Message == "URL not allowed" {
			fmt.Println(m.Severity, m.IDs)
		}
	}
	// Output: error [L-09 L-15 I-05 I-06]
}

// List is `sitemap rules`: the rules of families or IDs in a format;
// Explain is `sitemap explain`.
func ExampleList() {
	err := rules.List(os.Stdout, "text", []string{"GZ-01"})
	fmt.Println(err)
	err = rules.List(os.Stdout, "html", nil)
	fmt.Println(err)
	// Output:
	// GZ-01  error    A gzip-compressed sitemap is a complete, valid gzip stream.
	// <nil>
	// --format "html": want text, json or markdown
}

func ExampleExplain() {
	err := rules.Explain(os.Stdout, "json", []string{"ZZ-99"})
	fmt.Println(err)
	// Output:
	// []
	// no rule "ZZ-99" ('sitemap rules' lists every rule)
}
