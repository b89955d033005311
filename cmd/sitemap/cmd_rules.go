package main

import (
	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/rules"
)

func newRulesCmd(s *streams) *cobra.Command {
	var format string
	c := withHelp("rules", &cobra.Command{
		Use: "rules [flags] [FAMILY|ID...]",
		RunE: func(c *cobra.Command, args []string) error {
			write, err := rules.ListWriter(format)
			if err != nil {
				return cannotRun("%v", err)
			}
			rs, err := rules.Select(args) // family prefixes or rule IDs
			if err != nil {
				return cannotRun("%v", err)
			}
			return outputError(write(s.Out, rs))
		},
	})
	c.Flags().StringVar(&format, "format", "text", "output: text (one rule a line), json, or markdown (as docs/RULES.md)")
	return c
}

// outputError is err, an error writing standard output, as the run's
// error: the command could not do its work (exit 2), which is no usage
// error; nil stays nil.
func outputError(err error) error {
	if err == nil {
		return nil
	}
	return cannotRun("writing output: %v", err)
}

func newExplainCmd(s *streams) *cobra.Command {
	var format string
	c := withHelp("explain", &cobra.Command{
		Use:  "explain [flags] ID...",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			write, err := rules.ExplainWriter(format)
			if err != nil {
				return cannotRun("%v", err)
			}
			found, unknown := rules.LookupAll(args)
			if err := write(s.Out, found); err != nil {
				return outputError(err)
			}
			if unknown != nil {
				return cannotRun("%v", unknown)
			}
			return nil
		},
	})
	c.Flags().StringVar(&format, "format", "text", "output: text or json (an array of full rules)")
	return c
}
