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
	c := &cobra.Command{
		Use:   "rules [flags] [FAMILY|ID...]",
		Short: "List the rules behind every diagnostic: ID, severity, statement",
		Long: `Rules lists the rule book: every rule ID a diagnostic can carry, with its severity and
statement; FAMILY (L, X, M, I, H, RB, FETCH, …; any case) or ID keeps those. The same book
is docs/RULES.md; 'sitemap explain ID' prints one rule in full.`,
		Example: `  sitemap rules
  sitemap rules L
  sitemap rules x fetch
  sitemap rules --format json H
  sitemap rules --format markdown > RULES.md`,
		RunE: func(c *cobra.Command, args []string) error {
			o.Filter = args
			return runRules(o, s)
		},
	}
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
	c := &cobra.Command{
		Use:   "explain [flags] ID...",
		Short: "Explain a rule ID from a diagnostic: what it requires, who says so, how to fix it",
		Long: `Explain prints each rule in full: statement, severity, level, source with a link, and how to
fix a finding. ID is what a diagnostic prints (X-06), in any case (l-7 is L-07); an unknown ID
gets the closest ones and exit status 2. See docs/RULES.md.`,
		Example: `  sitemap explain X-06
  sitemap explain l-7 I-05 FETCH-HTTP
  sitemap explain --format json M-07`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.IDs = args
			return runExplain(o, s)
		},
	}
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
