package generate_test

import (
	"fmt"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
)

// The settings of shard 2 of 3 become a run that keeps that shard's
// entries and names its files sitemap-2…, with its own index.
func ExampleSettings_Options() {
	s := generate.Settings{Output: build.DefaultSettings(), BaseURL: "https://www.example.com/", Shard: "2/3"}
	o, err := s.Options()
	fmt.Println(o.Shard, o.Shards, o.Build.Name, o.Build.Index, err)
	s.Robots = "robots.txt"
	_, err = s.Options()
	fmt.Println(err)
	// Output:
	// 2 3 sitemap-2 always <nil>
	// --robots with --shard: robots.txt should name the index `sitemap index` writes over every shard, not one shard's; drop --robots and add that Sitemap: line once
}

// --out - is standard output, one file: a shard, which writes its own
// index beside its sitemaps, is refused there.
func ExampleSettings_ToWriter() {
	s := generate.Settings{Output: build.DefaultSettings(), BaseURL: "https://www.example.com/", Out: "-"}
	fmt.Println(s.ToWriter())
	s.Shard = "1/2"
	_, err := s.Options()
	fmt.Println(err)
	// Output:
	// true
	// --shard writes a shard's sitemaps and index into a directory or bucket; give --out DIR or --out s3://bucket/prefix
}
