package build_test

import (
	"context"
	"fmt"
	"os"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/store"
)

// `sitemap index --shards 2 --out DIR` as a program runs it: the
// settings checked (the base URL put in its normal form, and said), the
// shards' directory locked and their children listed in one index.
func ExampleMergeSettings_Merge() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "shards")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	st, _ := store.Dir(dir)
	for k, loc := range []string{"https://www.example.com/a", "https://www.example.com/b"} {
		// What `sitemap generate --shard K/2` writes: NAME-K, with its index.
		b, _ := build.New(st, build.Options{BaseURL: "https://www.example.com/", Name: build.ShardName("sitemap", k+1), Index: build.IndexAlways})
		b.Add(ctx, &sitemap.URL{Loc: loc})
		if _, err := b.Commit(ctx); err != nil {
			fmt.Println(err)
			return
		}
	}
	s := build.MergeSettings{Out: dir, Name: "sitemap", BaseURL: "https://WWW.example.com", Shards: 2}
	if err := s.Check(os.Stdout); err != nil {
		fmt.Println(err)
		return
	}
	_, err = s.Merge(ctx, nil, os.Stdout)
	fmt.Println(err)
	s.Shards = 3
	_, err = s.Merge(ctx, nil, os.Stdout)
	fmt.Println(err != nil)
	// Output:
	// sitemap: --base-url "https://WWW.example.com" written as "https://www.example.com/" (host lower-cased, empty path written as /; L-18)
	// sitemap: wrote sitemap.xml: 2 sitemaps from 2 shards, no lastmod
	// <nil>
	// true
}

// Check refuses what MergeShards cannot take, naming the flag.
func ExampleMergeSettings_Check() {
	s := build.MergeSettings{Out: ".", Name: "sitemap.xml", BaseURL: "https://www.example.com/", Shards: 2}
	fmt.Println(s.Check(os.Stdout))
	s.Shards = 0
	fmt.Println(s.Check(os.Stdout))
	// Output:
	// --name sitemap.xml: give the base name without the extension: --name sitemap (the files are sitemap.xml, sitemap-1.xml, …)
	// --shards is required: the N of the `generate --shard K/N` runs
}

// NormalURLSetting writes a URL flag's value as the entries are written,
// and says so when it changed more than the slash of an empty path.
func ExampleNormalURLSetting() {
	fmt.Println(build.NormalURLSetting("--base-url", "https://www.example.com", os.Stdout))
	fmt.Println(build.NormalURLSetting("--site-url", "https://www.Example.com:443/a%7eb/", os.Stdout))
	// Output:
	// https://www.example.com/
	// sitemap: --site-url "https://www.Example.com:443/a%7eb/" written as "https://www.example.com/a~b/" (host lower-cased, default port removed, escapes normalised; L-18)
	// https://www.example.com/a~b/
}
