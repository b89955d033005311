package generate

import (
	"fmt"
	"io"
	"slices"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// DefaultMaxReported is how many skipped entries, and how many remarks of
// one severity and rule, a [Reporter] writes one by one by default.
const DefaultMaxReported = 100

// Reporter writes the Problems of a Run for people, as `sitemap
// generate` does (its Report method is Options.Report): an invalid entry,
// or a remark of one severity and rule, one line each up to Max, the
// rest counted by WriteHeld; a remark of the run itself (no file, line or
// URL) always. A bad million-line file so costs a few hundred lines and
// memory that grows with the rules, not the entries.
type Reporter struct {
	// Print writes one line (no newline at its end).
	Print func(line string)
	// Strict writes every invalid entry: Run stops at the first.
	Strict bool
	// Max is how many are written one by one (0: DefaultMaxReported).
	Max int

	invalid int
	perRule *report.Cap // remarks written so far, by severity and rule
}

// Report writes p, or counts it past Max.
func (r *Reporter) Report(p Problem) {
	if r.Max <= 0 {
		r.Max = DefaultMaxReported
	}
	if r.perRule == nil {
		r.perRule = report.NewCap(r.Max)
	}
	switch {
	case p.Severity != sitemap.SeverityError && p.File == "" && p.Line == 0 && p.URL == "":
		r.Print(fmt.Sprintf("sitemap: warning %s: %s", p.Rule, p.Message))
	case p.Severity == sitemap.SeverityInfo:
		r.remark(p, "info")
	case p.Severity != sitemap.SeverityError:
		r.remark(p, "warning")
	case r.Strict:
		r.Print(p.Error())
	default:
		if r.invalid++; r.invalid <= r.Max {
			r.Print(p.Error())
		}
	}
}

func (r *Reporter) remark(p Problem, sev string) {
	if r.perRule.Show(sev + " " + string(p.Rule)) {
		r.Print(p.Error() + " (" + sev + ")")
	}
}

// WriteHeld writes what Report did not show: "… and N more invalid
// entries" past Max of the run's skipped entries, and a line per
// severity and rule of the remarks held back.
func (r *Reporter) WriteHeld(w io.Writer, skipped int) {
	m := r.Max
	if m <= 0 {
		m = DefaultMaxReported
	}
	if skipped > m {
		fmt.Fprintf(w, "… and %d more invalid entries\n", skipped-m)
	}
	held := r.perRule.Held()
	slices.SortFunc(held, func(a, b report.Held) int { return strings.Compare(a.Key, b.Key) })
	for _, h := range held {
		sev, rule, _ := strings.Cut(h.Key, " ")
		fmt.Fprintf(w, "… and %d more %s %s lines (counted below)\n", h.N, sev, rule)
	}
}

// WhyEmpty says why a run that built nothing (build.ErrNoEntries) had no
// entry to publish, for the shard of shards it wrote (0, 0 for none).
func (s Summary) WhyEmpty(shard, shards int) string {
	switch {
	case s.Skipped > 0:
		return "no valid entries"
	case s.Excluded > 0 || s.OtherShards > 0:
		var why []string
		if s.Excluded > 0 {
			why = append(why, fmt.Sprintf("%d left out by --include/--exclude", s.Excluded))
		}
		if s.OtherShards > 0 {
			why = append(why, fmt.Sprintf("%d left to other shards", s.OtherShards))
		}
		if shards > 1 && s.Excluded == 0 {
			// Its index would be missing for good (an index lists at
			// least one sitemap), and index refuses a missing shard.
			return fmt.Sprintf("shard %d of %d has no entry: 'sitemap index --shards %d' cannot be written over it; give fewer shards, or --shard-by input (%s)",
				shard, shards, shards, strings.Join(why, ", "))
		}
		return "no entry left to publish: " + strings.Join(why, ", ")
	}
	// Not one entry read: an empty file, or only comments.
	return "the input holds no entries (empty, or only blank and # lines)"
}

// WriteScope writes, when entries were refused as outside the directory
// the sitemaps are served from (L-15) and no site URL was given, how to
// publish them: the usual cause is sitemaps served from a directory, or
// another host, that list the whole site.
func (s Summary) WriteScope(w io.Writer, baseURL, siteURL string) {
	if s.OutOfScope > 0 && siteURL == "" {
		fmt.Fprintf(w, "sitemap: %s outside %s: sitemaps list only URLs under the directory they are served from (L-15); serve them from the site's root, or give --site-url with the site's root and add the Sitemap: line to its robots.txt (--robots, O-03)\n",
			plural.Of(s.OutOfScope, "entry is", "entries are"), slash(baseURL))
	}
}

// WriteNotes writes what follows the summary table: the duplicates
// skipped (L-17), the repairs and skipped entries by rule
// ([Summary.WriteRepairs]), and, when the entries' site (siteURL) is not
// where the sitemaps are served (baseURL), the robots.txt line that
// cross-submission needs (O-03).
func (s Summary) WriteNotes(w io.Writer, dryRun bool, baseURL, siteURL string) {
	if s.Duplicates > 0 {
		fmt.Fprintf(w, "sitemap: %s skipped (L-17); the first valid one of each was kept (--keep-duplicates keeps them all)\n",
			plural.Of(s.Duplicates, "duplicate URL", "duplicate URLs"))
	}
	s.WriteRepairs(w, dryRun)
	if siteURL == "" {
		return
	}
	base, ok1 := urlnorm.ParseSite(baseURL)
	site, ok2 := urlnorm.ParseSite(siteURL)
	if !ok1 || !ok2 || base == site {
		return
	}
	fmt.Fprintf(w, "sitemap: warning O-03: the sitemaps on %s list URLs of %s; search engines accept them only when %s has the line \"Sitemap: %s\" (cross-submission, RB-08); add it with --robots or \"sitemap robots add\"\n",
		base.HostPort(true), site.HostPort(true), site.Display()+"/robots.txt", s.Sitemap)
}

// WriteClosing writes the last line of a run that skipped entries, or
// kept pages after dropping fields from them, and reports whether it
// did (the run found problems: exit status 1).
func (s Summary) WriteClosing(w io.Writer, dryRun bool) bool {
	done := "published"
	if dropped := s.Dropped(); s.Skipped == 0 && dropped > 0 {
		if dryRun {
			done = "dry run, nothing written"
		}
		fmt.Fprintf(w, "sitemap: %s dropped from pages that were kept; %s\n", plural.Of(dropped, "field or block", "fields or blocks"), done)
		return true
	}
	if s.Skipped > 0 {
		done = "the valid ones were published"
		if dryRun {
			done = "dry run, nothing written"
		}
		fmt.Fprintf(w, "sitemap: %s skipped; %s\n", plural.Of(s.Skipped, "invalid entry", "invalid entries"), done)
		return true
	}
	return false
}

// WriteText says what Run did to the robots.txt (nothing for a nil u).
func (u *RobotsUpdate) WriteText(w io.Writer) {
	if u == nil {
		return
	}
	switch {
	case u.DryRun:
		fmt.Fprintf(w, "%s: would add Sitemap: %s (dry run)\n", u.Path, u.Sitemap)
	case !u.Added && len(u.Removed) == 0:
		fmt.Fprintf(w, "%s: already lists Sitemap: %s\n", u.Path, u.Sitemap)
	}
	if u.Added {
		fmt.Fprintf(w, "%s: added Sitemap: %s\n", u.Path, u.Sitemap)
	}
	for _, r := range u.Removed {
		fmt.Fprintf(w, "%s: removed Sitemap: %s (no longer published)\n", u.Path, r)
	}
}
