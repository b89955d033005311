package main

import (
	"github.com/spf13/cobra"

	"github.com/sitemapkit/sitemap/rules"
)

// rulesOptions are the flags and arguments of `sitemap rules`.
type rulesOptions struct {
	Format string
	Filter []string // family prefixes or rule IDs
}

func newRulesCmd(s *streams) *cobra.Command {
	o := &rulesOptions{}
	c := withHelp("rules", &cobra.Command{
		Use: "rules [flags] [FAMILY|ID...]",
		RunE: func(c *cobra.Command, args []string) error {
			o.Filter = args
			return runRules(o, s)
		},
	})
	f := c.Flags()
	f.StringVar(&o.Format, "format", "text", "output: text (one rule a line), json, or markdown (as docs/RULES.md)")
	return c
}

func runRules(o *rulesOptions, s *streams) error {
	switch o.Format {
	case "text", "json", "markdown":
	default:
		return cannotRun("--format %q: want text, json or markdown", o.Format)
	}
	rs, err := rules.Select(o.Filter)
	if err != nil {
		return cannotRun("%v", err)
	}
	switch o.Format {
	case "json":
		return outputError(rules.WriteJSON(s.Out, rs))
	case "markdown":
		return outputError(rules.WriteMarkdown(s.Out, rs))
	}
	return outputError(rules.WriteText(s.Out, rs))
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

// explainOptions are the flags and arguments of `sitemap explain`.
type explainOptions struct {
	Format string
	IDs    []string
}

func newExplainCmd(s *streams) *cobra.Command {
	o := &explainOptions{}
	c := withHelp("explain", &cobra.Command{
		Use:  "explain [flags] ID...",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.IDs = args
			return runExplain(o, s)
		},
	})
	f := c.Flags()
	f.StringVar(&o.Format, "format", "text", "output: text or json (an array of full rules)")
	return c
}

func runExplain(o *explainOptions, s *streams) error {
	if o.Format != "text" && o.Format != "json" {
		return cannotRun("--format %q: want text or json", o.Format)
	}
	found, unknown := rules.LookupAll(o.IDs)
	write := rules.WriteExplain
	if o.Format == "json" {
		write = rules.WriteJSON
	}
	if err := write(s.Out, found); err != nil {
		return outputError(err)
	}
	if unknown != nil {
		return cannotRun("%v", unknown)
	}
	return nil
}
