package fetch_test

import (
	"fmt"
	"time"

	"github.com/sitemapkit/sitemap/fetch"
)

// ParseScope reads --scope, --allow-host and --no-private; ClientSettings
// makes the client of --user-agent and --timeout with that scope.
func ExampleParseScope() {
	sc, err := fetch.ParseScope("same-site", []string{"cdn.example.com"}, false)
	fmt.Println(sc.SameSite, sc.Allow, err)
	_, err = fetch.ParseScope("everywhere", nil, false)
	fmt.Println(err)
	// Output:
	// true [cdn.example.com] <nil>
	// --scope "everywhere": want any or same-site
}

func ExampleClientSettings_Client() {
	c, err := fetch.ClientSettings{UserAgent: "example/1", Timeout: 30 * time.Second, Scope: fetch.Scope{SameSite: true}}.Client()
	fmt.Println(c != nil, err)
	_, err = fetch.ClientSettings{Timeout: -time.Second}.Client()
	fmt.Println(err)
	// Output:
	// true <nil>
	// --timeout -1s: give a time limit above 0, such as 30s
}
