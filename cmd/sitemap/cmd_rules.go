package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

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
	rs, err := selectRules(o.Filter)
	if err != nil {
		return err
	}
	switch o.Format {
	case "json":
		return outputError(writeRulesJSON(s.Out, rs))
	case "markdown":
		return outputError(rules.WriteMarkdown(s.Out, rs))
	}
	w := 0
	for _, r := range rs {
		w = max(w, len(r.ID))
	}
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%-*s  %-7s  %s\n", w, r.ID, r.Severity, r.Title)
	}
	_, err = io.WriteString(s.Out, b.String())
	return outputError(err)
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

// selectRules returns the rules the arguments name, in natural order: all
// of them without arguments, else each family prefix's rules and each
// ID's rule.
func selectRules(args []string) ([]rules.Rule, error) {
	if len(args) == 0 {
		return rules.All(), nil
	}
	keep := map[rules.ID]bool{}
	for _, a := range args {
		up := strings.ToUpper(strings.TrimSpace(a))
		if f, ok := rules.FamilyOf(up); ok {
			for _, r := range f.Rules() {
				keep[r.ID] = true
			}
			continue
		}
		if id := rules.Normalize(a); rules.Known(id) {
			keep[id] = true
			continue
		}
		if strings.Contains(a, "-") {
			if near := rules.Suggest(a, 3); len(near) > 0 {
				return nil, cannotRun("no rule family or rule %q; did you mean %s? ('sitemap rules' lists every rule)", a, strings.Join(near, ", "))
			}
		}
		var names []string
		for _, f := range rules.Families() {
			names = append(names, f.Prefix)
		}
		return nil, cannotRun("no rule family or rule %q; the families are %s", a, strings.Join(names, ", "))
	}
	var out []rules.Rule
	for _, r := range rules.All() {
		if keep[r.ID] {
			out = append(out, r)
		}
	}
	return out, nil
}

func writeRulesJSON(w io.Writer, rs []rules.Rule) error {
	if rs == nil {
		rs = []rules.Rule{}
	}
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false) // <loc> stays <loc>
	e.SetIndent("", "  ")
	return e.Encode(rs)
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
	var found []rules.Rule
	var unknown []string
	families := 0 // unknown IDs that name a family, each already pointing to 'sitemap rules F'
	for _, a := range o.IDs {
		r, ok := rules.Lookup(rules.Normalize(a))
		if !ok {
			msg := fmt.Sprintf("no rule %q", a)
			if f, ok := rules.FamilyOf(strings.ToUpper(strings.TrimSpace(a))); ok {
				msg += fmt.Sprintf(": %s is a family of %d rules ('sitemap rules %s' lists them)", f.Prefix, len(f.Rules()), f.Prefix)
				families++
			} else if near := rules.Suggest(a, 3); len(near) > 0 {
				msg += "; did you mean " + strings.Join(near, ", ") + "?"
			}
			unknown = append(unknown, msg)
			continue
		}
		found = append(found, r)
	}
	var err error
	if o.Format == "json" {
		err = writeRulesJSON(s.Out, found)
	} else {
		var b strings.Builder
		for i, r := range found {
			if i > 0 {
				b.WriteByte('\n')
			}
			writeExplain(&b, r)
		}
		_, err = io.WriteString(s.Out, b.String())
	}
	if err != nil {
		return outputError(err)
	}
	if len(unknown) > 0 && families == len(unknown) {
		return cannotRun("%s", strings.Join(unknown, "; "))
	}
	if len(unknown) > 0 {
		return cannotRun("%s ('sitemap rules' lists every rule)", strings.Join(unknown, "; "))
	}
	return nil
}

// writeExplain writes one rule for people, wrapped at 80 columns:
//
//	error (MUST)
//	  Inside <url> the children come in the order …
//
//	  Source: sitemap XSD (sitemaps.org)
//	          https://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd
//	  Fix:    Reorder the children of each <url> …
func writeExplain(b *strings.Builder, r rules.Rule) {
	b.WriteString(string(r.ID) + ": " + r.Severity.String())
	if r.Level != "" {
		b.WriteString(" (" + r.Level + ")")
	}
	if f, ok := rules.FamilyOf(r.Family()); ok {
		b.WriteString(", " + f.Name)
	}
	b.WriteString("\n")
	wrap(b, "  ", "  ", r.Title)
	b.WriteString("\n")
	wrap(b, "  Source: ", "          ", r.Source)
	if r.URL != "" {
		b.WriteString("          " + r.URL + "\n")
	}
	wrap(b, "  Fix:    ", "          ", r.Fix)
}

// wrap writes text after first, continuing lines after rest, breaking at
// spaces before column 80.
func wrap(b *strings.Builder, first, rest, text string) {
	const width = 80
	line := first
	empty := true
	for _, w := range strings.Fields(text) {
		if !empty && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line, empty = rest, true
		}
		if !empty {
			line += " "
		}
		line += w
		empty = false
	}
	b.WriteString(line + "\n")
}
