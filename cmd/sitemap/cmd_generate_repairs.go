package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// writeRepairs writes what generate did to keep pages (sum.Repairs) and
// why it skipped entries (sum.SkippedByRule), one line per rule, so that
// a run with bad rows reads like a report a person can act on:
//
//	sitemap: pages kept after repairs:
//	     3  normalized  loc         L-18  A URL is written in its normal form: …
//	     1  dropped     videos      V-01  …
//	sitemap: entries skipped:
//	     1  L-01  A <loc> is an absolute URL …
func writeRepairs(w io.Writer, sum generate.Summary, dryRun bool) {
	if len(sum.Repairs) > 0 {
		what := "published"
		if dryRun {
			what = "would be published"
		}
		fmt.Fprintf(w, "sitemap: repairs; the pages were kept and %s (sitemap explain RULE says more):\n", what)
		rows := [][]string{}
		for _, r := range sum.Repairs {
			rows = append(rows, []string{strconv.Itoa(r.Count), r.Action, r.Field, string(r.Rule), ruleTitle(r.Rule)})
		}
		writeRows(w, rows)
	}
	if len(sum.SkippedByRule) > 0 {
		// Every entry skipped, duplicates (L-17) included, as the closing
		// line and --json's skipped_by_rule count them.
		byRule := maps.Clone(sum.SkippedByRule)
		if sum.Duplicates > 0 {
			byRule[rules.L17] += sum.Duplicates
		}
		fmt.Fprintln(w, "sitemap: entries skipped, by rule:")
		var rows [][]string
		for _, rule := range sortedKeys(byRule) {
			name := string(rule)
			if name == "" {
				name = "-"
			}
			rows = append(rows, []string{strconv.Itoa(byRule[rule]), name, ruleTitle(rule)})
		}
		writeRows(w, rows)
	}
}

// writeRows writes rows indented, in columns; the first column (a count)
// right-aligned, the last one as it is.
func writeRows(w io.Writer, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	for _, r := range rows {
		line := "  "
		for i, c := range r {
			switch {
			case i == 0:
				line += fmt.Sprintf("%*s", width[i], c)
			case i == len(r)-1:
				line += "  " + c
			default:
				line += fmt.Sprintf("  %-*s", width[i], c)
			}
		}
		fmt.Fprintln(w, line)
	}
}

// ruleTitle is the rule book's one-line statement of rule, or "".
func ruleTitle(rule rules.ID) string {
	if r, ok := rules.Lookup(rule); ok {
		return r.Title
	}
	return ""
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// droppedCount is the number of fields and blocks dropped from pages that
// were published.
func droppedCount(rs []generate.Repair) int {
	n := 0
	for _, r := range rs {
		if r.Action == "dropped" {
			n += r.Count
		}
	}
	return n
}

// normalURLFlag returns the value of a URL flag (--base-url, --site-url)
// in its normal form (urlnorm.Normalize, L-18), as the entries are written:
// a punycode, lower-case host, no default port or fragment, percent-
// encoded. A rewrite is said on standard error, but for the slash of an
// empty path (https://www.example.com). A value with no normal form is
// returned as it is, for the builder to refuse with its reason.
func normalURLFlag(flag, v string, s *streams) string {
	n, ch, err := urlnorm.Normalize(v)
	if err != nil || ch == 0 {
		return v
	}
	if ch&^urlnorm.ChangedPath != 0 {
		fmt.Fprintf(s.Err, "sitemap: %s %q written as %q (%s; L-18)\n", flag, check.EscapeControls(v), n, ch)
	}
	return n
}
