package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/store"
)

// indexOptions are the flags of `sitemap index`.
type indexOptions struct {
	Out, Name, BaseURL          string
	Shards                      int
	GzipIndex                   bool
	S3Endpoint, S3Region, Cache string
	userAgent                   string // --user-agent, of the S3 requests
}

func newIndexCmd(s *streams) *cobra.Command {
	o := &indexOptions{}
	c := withHelp("index", &cobra.Command{
		Use:  "index --shards N --base-url URL [flags]",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			o.userAgent = userAgent(c)
			return runIndex(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.IntVar(&o.Shards, "shards", 0, "number of shards, N (required)")
	f.StringVar(&o.BaseURL, "base-url", "", "URL the sitemaps are served from, e.g. https://www.example.com/ (required)")
	f.StringVar(&o.Out, "out", ".", "directory or s3://bucket/prefix the shards were written into")
	f.StringVar(&o.Name, "name", "sitemap", "base name of the set: NAME.xml over NAME-1 … NAME-N")
	f.BoolVar(&o.GzipIndex, "gzip-index", false, "write NAME.xml.gz")
	f.StringVar(&o.S3Endpoint, "s3-endpoint", "", "S3-compatible service `URL` (default $AWS_ENDPOINT_URL_S3, else AWS)")
	f.StringVar(&o.S3Region, "s3-region", "", "S3 signing region (default $AWS_REGION, else us-east-1)")
	f.StringVar(&o.Cache, "cache-control", store.DefaultCacheControl, "Cache-Control of the index on S3")
	return c
}

func runIndex(ctx context.Context, o *indexOptions, s *streams) error {
	if o.Shards == 0 {
		return cannotRun("--shards is required: the N of the `generate --shard K/N` runs")
	}
	if o.Out == "" {
		return errEmptyOut
	}
	if o.Shards < 0 {
		return cannotRun("--shards %d: give N, 1 or more: the N of the `generate --shard K/N` runs", o.Shards)
	}
	if o.BaseURL == "" {
		return cannotRun("--base-url is required: the URL of the directory the sitemaps are served from, e.g. --base-url https://www.example.com/")
	}
	o.BaseURL = build.NormalURLSetting("--base-url", o.BaseURL, s.Err)
	if err := build.CheckName(o.Name); err != nil {
		return cannotRun("%v", err)
	}
	var st store.Store
	if store.IsS3(o.Out) {
		s3, err := s3Store(o.Out, store.S3Options{Endpoint: o.S3Endpoint, Region: o.S3Region, CacheControl: o.Cache}, o.userAgent)
		if err != nil {
			return err
		}
		st = s3
	} else {
		// The shards are read from --out: one that does not exist is a
		// wrong path, not a directory to make.
		if _, err := os.Stat(o.Out); errors.Is(err, fs.ErrNotExist) {
			return cannotRun("--out %s: no such directory; give the directory the `generate --shard K/%d` runs wrote into", o.Out, o.Shards)
		}
		d, err := store.Dir(o.Out)
		if err != nil {
			return cannotRun("--out %s: %v", o.Out, err)
		}
		unlock, err := d.Lock(ctx, o.Name)
		if err != nil {
			return cannotRun("--out %s: %v (a shard run is writing there; run index after it)", o.Out, err)
		}
		defer unlock()
		st = d
	}
	sum, err := build.MergeShards(ctx, st, build.MergeOptions{Name: o.Name, Shards: o.Shards, BaseURL: o.BaseURL, GzipIndex: o.GzipIndex})
	var se *build.ShardError
	switch {
	case errors.As(err, &se):
		return cannotRun("%v; nothing was published", err)
	case err != nil:
		return cannotRun("%v", err)
	}
	lm := "no lastmod"
	if !sum.LastMod.IsZero() {
		lm = "newest lastmod " + sum.LastMod.String()
	}
	fmt.Fprintf(s.Err, "sitemap: wrote %s: %d sitemaps from %d shards, %s\n", sum.Name, sum.URLs, o.Shards, lm)
	return nil
}
