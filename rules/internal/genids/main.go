// Command genids writes rules/ids.go, the constants of the rule book's
// IDs, from the book. Run it with go generate in rules/ after adding or
// renaming a rule; TestIDsUpToDate fails until then.
package main

import (
	"fmt"
	"os"

	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/rules/internal/idgen"
)

func main() {
	src, err := idgen.Source(rules.All())
	if err == nil {
		// go generate runs in rules/; the file is written whole.
		err = os.WriteFile("ids.go", src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genids:", err)
		os.Exit(1)
	}
}
