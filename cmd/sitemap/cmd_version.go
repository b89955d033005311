package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newVersionCmd(s *streams) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version of sitemap",
		Example: "  sitemap version",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			fmt.Fprintf(s.Out, "sitemap %s\n", version())
			return nil
		},
	}
}
