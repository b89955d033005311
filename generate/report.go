package generate

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/sitemapkit/sitemap/rules"
)

// WriteRepairs writes for people what a run did to keep pages
// (s.Repairs) and why it skipped entries (s.SkippedByRule, duplicates
// counted under L-17), one line per rule with the rule book's title, so
// that a run with bad rows reads like a report a person can act on:
//
//	sitemap: repairs; the pages were kept and published (sitemap explain RULE says more):
//	  3  normalized  loc     L-18  A URL is written in its normal form: …
//	  1  dropped     videos  V-01  …
//	sitemap: entries skipped, by rule:
//	  1  L-01  A <loc> is an absolute URL …
//
// and the rows a crawler export marks as not to publish (s.OmittedByRule),
// by rule, before the skipped ones.
// dryRun says "would be published". It writes nothing when there was
// nothing to repair or skip, and returns the first write error.
func (s Summary) WriteRepairs(w io.Writer, dryRun bool) error {
	rw := &rowWriter{w: w}
	if len(s.Repairs) > 0 {
		what := "published"
		if dryRun {
			what = "would be published"
		}
		rw.printf("sitemap: repairs; the pages were kept and %s (sitemap explain RULE says more):\n", what)
		rows := [][]string{}
		for _, r := range s.Repairs {
			rows = append(rows, []string{strconv.Itoa(r.Count), r.Action, r.Field, string(r.Rule), ruleTitle(r.Rule)})
		}
		rw.rows(rows)
	}
	if len(s.OmittedByRule) > 0 {
		rw.printf("sitemap: rows left out as the export marks them (--all-rows keeps them), by rule:\n")
		var rows [][]string
		for _, rule := range slices.Sorted(maps.Keys(s.OmittedByRule)) {
			rows = append(rows, []string{strconv.Itoa(s.OmittedByRule[rule]), string(rule), ruleTitle(rule)})
		}
		rw.rows(rows)
	}
	if len(s.SkippedByRule) > 0 {
		// Every entry skipped, duplicates (L-17) included, as the closing
		// line and the JSON's skipped_by_rule count them.
		byRule := maps.Clone(s.SkippedByRule)
		if s.Duplicates > 0 {
			byRule[rules.L17] += s.Duplicates
		}
		rw.printf("sitemap: entries skipped, by rule:\n")
		var rows [][]string
		for _, rule := range slices.Sorted(maps.Keys(byRule)) {
			name := string(rule)
			if name == "" {
				name = "-"
			}
			rows = append(rows, []string{strconv.Itoa(byRule[rule]), name, ruleTitle(rule)})
		}
		rw.rows(rows)
	}
	return rw.err
}

// Dropped is the number of fields and blocks dropped from pages that were
// published (the Repairs whose Action is "dropped").
func (s Summary) Dropped() int {
	n := 0
	for _, r := range s.Repairs {
		if r.Action == "dropped" {
			n += r.Count
		}
	}
	return n
}

// rowWriter writes lines and keeps the first error.
type rowWriter struct {
	w   io.Writer
	err error
}

func (rw *rowWriter) printf(format string, args ...any) {
	if rw.err == nil {
		_, rw.err = fmt.Fprintf(rw.w, format, args...)
	}
}

// rows writes rows indented, in columns; the first column (a count)
// right-aligned, the last one as it is.
func (rw *rowWriter) rows(rows [][]string) {
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
		rw.printf("%s\n", line)
	}
}

// ruleTitle is the rule book's one-line statement of rule, or "".
func ruleTitle(rule rules.ID) string {
	if r, ok := rules.Lookup(rule); ok {
		return r.Title
	}
	return ""
}
