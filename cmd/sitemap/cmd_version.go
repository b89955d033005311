package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/internal/version"
)

func newVersionCmd(s *streams) *cobra.Command {
	return withHelp("version", &cobra.Command{
		Use:  "version",
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(s.Out, version.Line())
			return outputError(err)
		},
	})
}
