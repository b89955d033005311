package audit

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
)

// WriteRecords writes the records of the audit a ran (Records) as
// `sitemap audit` prints them, through an [Output] of format to out,
// and, when report is not nil, the HTML report of them (a
// [ReportWriter], its head from sum; crawled says the site was crawled
// too). With Options.History the history's verdict on the site follows
// the records ([Output.WriteSite]). It returns the tally of the records.
func (a *Auditor) WriteRecords(ctx context.Context, sum Summary, out io.Writer, format string, report io.Writer, crawled bool) (Tally, error) {
	var rep *ReportWriter
	if report != nil {
		rep = NewReportWriter(report, ReportInfo{Start: sum.Start, Sample: sum.Sample, Listed: sum.Listed, Sampled: sum.Sampled, Crawled: crawled,
			History: a.o.History, Time: time.Now()})
	}
	o, err := NewOutput(out, format, rep)
	if err != nil {
		return Tally{}, err
	}
	tally, err := a.Records(ctx, o.Write)
	if err == nil && tally.History != nil {
		err = o.WriteSite(tally.History)
	}
	if err == nil {
		err = o.Close()
	}
	return tally, err
}

// DefaultShownDiagnostics is how many problems reading the sitemaps a
// [DiagnosticPrinter] shows unless Max says otherwise.
const DefaultShownDiagnostics = 50

// DiagnosticPrinter prints the problems an audit finds reading the
// sitemaps (its Print is an Options.OnDiagnostic) as `sitemap audit`
// does: one line each, notes left out, at most Max of them (0:
// DefaultShownDiagnostics), the rest counted in one line by End. Errors
// are counted: a sitemap that could not be read is not audited.
type DiagnosticPrinter struct {
	W   io.Writer
	Max int
	// Shown counts the problems printed or held back; Errors the errors.
	Shown, Errors int
}

// Print prints d, or counts it past Max.
func (p *DiagnosticPrinter) Print(d sitemap.Diagnostic) {
	if d.Severity == sitemap.SeverityInfo {
		return
	}
	if d.Severity == sitemap.SeverityError {
		p.Errors++
	}
	if d.Rule == rules.VAL01 {
		// Where local children are looked for is Options.Site (--site).
		d.Message = strings.Replace(d.Message, "by its path under --base", "by its path under --site", 1)
	}
	if p.Shown++; p.Shown <= p.max() {
		fmt.Fprintln(p.W, d.String())
	}
}

// End writes the line that counts the problems not shown, if any.
func (p *DiagnosticPrinter) End() {
	if p.Shown > p.max() {
		fmt.Fprintf(p.W, "sitemap: %d more problems reading the sitemaps not shown (sitemap validate lists them)\n", p.Shown-p.max())
	}
}

func (p *DiagnosticPrinter) max() int {
	if p.Max <= 0 {
		return DefaultShownDiagnostics
	}
	return p.Max
}
