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
			return runOutcome(c.Context(), rules.List(s.Out, format, args), false)
		},
	})
	c.Flags().StringVar(&format, "format", "text", "output: text (one rule a line), json, or markdown (as docs/RULES.md)")
	return c
}

func newExplainCmd(s *streams) *cobra.Command {
	var format string
	c := withHelp("explain", &cobra.Command{
		Use:  "explain [flags] ID...",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return runOutcome(c.Context(), rules.Explain(s.Out, format, args), false)
		},
	})
	c.Flags().StringVar(&format, "format", "text", "output: text or json (an array of full rules)")
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
