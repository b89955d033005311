package build_test

import (
	"fmt"
	"os"

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

// A URL setting the builder cannot use is refused by its flag before a
// run reads anything.
func ExampleCheckURLSetting() {
	fmt.Println(build.CheckURLSetting("--base-url", "https://www.example.com/"))
	fmt.Println(build.CheckURLSetting("--site-url", "www.example.com"))
	// Output:
	// <nil>
	// --site-url "www.example.com" is not an absolute http(s) URL; give one such as https://www.example.com/
}

// StdoutOptions readies the options of one sitemap written to standard
// output (--out -), refusing --index always.
func ExampleSettings_StdoutOptions() {
	s := build.DefaultSettings()
	o, _ := s.Options()
	fmt.Println(s.StdoutOptions(&o, false, false), o.Index == build.IndexNever)
	s.Index = "always"
	fmt.Println(s.StdoutOptions(&o, false, false))
	// Output:
	// <nil> true
	// --out - writes one sitemap to standard output, which cannot hold an index and its children; give --out DIR for --index always
}

// WarnNoIndex says that --gzip-index had no index to compress.
func ExampleSettings_WarnNoIndex() {
	s := build.DefaultSettings()
	s.GzipIndex = true
	s.WarnNoIndex(os.Stdout, build.Summary{Files: []build.FileSummary{{Name: "sitemap.xml"}}})
	// Output:
	// sitemap: warning: --gzip-index: no index was written (the entries fit in one sitemap), so nothing was compressed as one; --gzip compresses the sitemap itself, --index always writes an index
}
