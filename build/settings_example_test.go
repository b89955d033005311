package build_test

import (
	"fmt"

	"github.com/sitemapkit/sitemap/build"
)

// The output settings of a command line become a builder's Options; a
// limit out of range is refused, naming its flag.
func ExampleSettings_Options() {
	s := build.DefaultSettings()
	s.Gzip, s.Index = true, "always"
	o, err := s.Options()
	fmt.Println(o.Name, o.Gzip, o.Index, o.MaxURLs, err)
	s.MaxURLs = 0
	_, err = s.Options()
	fmt.Println(err)
	// Output:
	// sitemap true always 50000 <nil>
	// --max-urls 0: use 1 to 50000 (S-01)
}

func ExampleParseShard() {
	k, n, err := build.ParseShard("2/3")
	fmt.Println(k, n, err, build.ShardName("sitemap", k))
	_, _, err = build.ParseShard("4/3")
	fmt.Println(err)
	// Output:
	// 2 3 <nil> sitemap-2
	// --shard "4/3": give K/N with 1 <= K <= N, such as --shard 2/3
}

func ExampleCheckName() {
	fmt.Println(build.CheckName("sitemap"))
	fmt.Println(build.CheckName("sitemap.xml"))
	// Output:
	// <nil>
	// --name sitemap.xml: give the base name without the extension: --name sitemap (the files are sitemap.xml, sitemap-1.xml, …)
}
