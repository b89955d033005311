package main

import (
	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
)

// maxErrorsUsage is the help of --max-errors, the same flag on every
// command that reads sitemaps (parse, validate, fetch, diff, generate).
const maxErrorsUsage = "abandon a document after this many errors (LIM-05; 0: no limit)"

// addMaxErrors adds --max-errors to c, into p.
func addMaxErrors(c *cobra.Command, p *int) {
	c.Flags().IntVar(p, "max-errors", sitemap.DefaultDecodeMaxErrors, maxErrorsUsage)
}

// decoderMaxErrors turns --max-errors into DecoderOptions.MaxErrors:
// 0 (no limit) is the decoder's negative.
func decoderMaxErrors(n int) int {
	if n <= 0 {
		return -1
	}
	return n
}
