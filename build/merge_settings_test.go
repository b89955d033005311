package build_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/store"
)

// Check refuses each setting MergeShards cannot take, naming its flag,
// in the order the command always said them.
func TestMergeSettingsCheck(t *testing.T) {
	for _, c := range []struct {
		s    build.MergeSettings
		want string
	}{
		{build.MergeSettings{Out: "", Name: "sitemap"}, "--shards is required"},
		{build.MergeSettings{Out: "", Name: "sitemap", Shards: 2}, store.ErrEmptyOut.Error()},
		{build.MergeSettings{Out: ".", Name: "sitemap", Shards: -1}, "--shards -1: give N, 1 or more"},
		// "-" is not standard output here: the shards are read in --out.
		{build.MergeSettings{Out: "-", Name: "sitemap", Shards: 2, BaseURL: "https://e.com/"}, "--out -: index reads the shards in --out and writes sitemap.xml beside them, so --out takes the directory (or s3://bucket/prefix) the `generate --shard K/2` runs wrote into, not standard output"},
		{build.MergeSettings{Out: ".", Name: "sitemap", Shards: 2}, "--base-url is required"},
		{build.MergeSettings{Out: ".", Name: "s.xml.gz", Shards: 2, BaseURL: "https://e.com/"}, "--name s.xml.gz: give the base name without the extension"},
		{build.MergeSettings{Out: ".", Name: "a/b", Shards: 2, BaseURL: "https://e.com/"}, `--name "a/b": use letters, digits`},
		{build.MergeSettings{Out: ".", Name: "sitemap", Shards: 2, BaseURL: "ftp://e.com/"}, `--base-url "ftp://e.com/" is not an absolute http(s) URL`},
		{build.MergeSettings{Out: ".", Name: "sitemap", Shards: 2, BaseURL: "https://e.com/"}, ""},
	} {
		var said strings.Builder
		err := c.s.Check(&said)
		if (c.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), c.want)) || said.Len() != 0 {
			t.Errorf("%+v: %v (said %q), want %q", c.s, err, said.String(), c.want)
		}
	}
}

// Merge refuses a directory that is not there (never made: the shards
// are read there), a set locked by a shard run, and a missing shard,
// each saying what to do; nothing is published.
func TestMergeSettingsMergeRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "none")
	s := build.MergeSettings{Out: missing, Name: "sitemap", Shards: 3, BaseURL: "https://e.com/"}
	if _, err := s.Merge(ctx, nil, nil); err == nil || err.Error() != "--out "+missing+": no such directory; give the directory the `generate --shard K/3` runs wrote into" {
		t.Errorf("missing directory: %v", err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("the directory was made: %v", err)
	}
	s.Out = dir
	d, err := store.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := d.Lock(ctx, "sitemap")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Merge(ctx, nil, nil); err == nil || !strings.Contains(err.Error(), "(a shard run is writing there; run index after it)") {
		t.Errorf("locked: %v", err)
	}
	unlock()
	if _, err := s.Merge(ctx, nil, nil); err == nil || !strings.HasPrefix(err.Error(), "shard 1 of 3: ") || !strings.HasSuffix(err.Error(), "; nothing was published") {
		t.Errorf("no shard: %v", err)
	}
	if names, _ := os.ReadDir(dir); len(names) > 1 {
		t.Errorf("published %v", names)
	}
}
