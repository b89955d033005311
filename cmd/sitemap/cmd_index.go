package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/store"
)

// indexOptions are the flags of `sitemap index`.
type indexOptions struct {
	build.MergeSettings
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
	if err := o.Check(s.Err); err != nil {
		return cannotRun("%v", err)
	}
	var st store.Store // nil: the directory --out, locked
	if store.IsS3(o.Out) {
		s3, err := s3Store(o.Out, store.S3Options{Endpoint: o.S3Endpoint, Region: o.S3Region, CacheControl: o.Cache}, o.userAgent)
		if err != nil {
			return err
		}
		st = s3
	}
	if _, err := o.Merge(ctx, st, s.Err); err != nil {
		return cannotRun("%v", err)
	}
	return nil
}
