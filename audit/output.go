package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/rules"
)

// Output writes the records of an audit the way `sitemap audit` prints
// them: "text", one line per finding ("URL: SEVERITY RULE: message", a
// clean record prints nothing), or "jsonl", one [Record] a line; and
// each record to an HTML report too when one is given. It buffers: Close
// writes the rest (and ends the report).
type Output struct {
	bw     *bufio.Writer
	enc    *json.Encoder // nil: text
	report *ReportWriter
}

// NewOutput returns an Output of format to w, adding every record to
// report as well when it is not nil. An unknown format is an error that
// names the two.
func NewOutput(w io.Writer, format string, report *ReportWriter) (*Output, error) {
	o := &Output{bw: bufio.NewWriterSize(w, 64<<10), report: report}
	switch format {
	case "text":
	case "jsonl":
		o.enc = json.NewEncoder(o.bw)
		o.enc.SetEscapeHTML(false)
	default:
		return nil, fmt.Errorf("--format %q: want text or jsonl", format)
	}
	return o, nil
}

// Write writes one record. A message is kept on its line whatever it
// quotes (\n and \r escaped).
func (o *Output) Write(r *Record) error {
	if o.report != nil {
		if err := o.report.Add(r); err != nil {
			return err
		}
	}
	if o.enc != nil {
		return o.enc.Encode(r)
	}
	for _, f := range r.Findings {
		msg := f.Message
		if strings.ContainsAny(msg, "\n\r") {
			msg = strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(msg)
		}
		if _, err := fmt.Fprintf(o.bw, "%s: %s %s: %s\n", r.URL, f.Severity, f.Rule, msg); err != nil {
			return err
		}
	}
	return nil
}

// WriteSite writes the history's verdict on the site (Tally.History),
// after the records: as jsonl one line, the [SiteHistory]; as text a line
// per finding about the site ("SITE: SEVERITY RULE: message"); and to the
// report, its chart's head.
func (o *Output) WriteSite(s *SiteHistory) error {
	if o.report != nil {
		o.report.SetSite(s)
	}
	if o.enc != nil {
		return o.enc.Encode(s)
	}
	return o.Write(&Record{URL: s.Site, Findings: s.Findings})
}

// Close writes what is buffered and ends the report (it does not close
// the io.Writers).
func (o *Output) Close() error {
	if err := o.bw.Flush(); err != nil {
		return err
	}
	if o.report != nil {
		return o.report.Close()
	}
	return nil
}

// WriteText writes the summary of a run for people: what was audited,
// then t's count of every rule found, with its severity and class.
func (s Summary) WriteText(w io.Writer, t Tally) error {
	how := "audited"
	if s.Resumed {
		how = "resumed the audit of"
	}
	sample := ""
	if s.Sample > 0 {
		sample = fmt.Sprintf(" (a uniform random sample of at most %d per sitemap)", s.Sample)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s, %d audited%s; %d checked in this run, in %s\n", how, s.Start, plural.Of(s.Listed, "listed URL", "listed URLs"),
		s.Sampled, sample, s.Checked, s.Elapsed.Round(time.Millisecond))
	if s.Crawled > 0 {
		fmt.Fprintf(&b, "  the crawl fetched %s\n", plural.Of(s.Crawled, "page", "pages"))
	}
	if h := t.History; h != nil {
		if h.Score != nil {
			fmt.Fprintf(&b, "  lastmod history: %d honest, %d churning, %d stale of %s compared with an earlier run (%.0f%% honest)",
				h.Honest, h.Churning, h.Stale, plural.Of(h.Compared(), "URL", "URLs"), *h.Score)
		} else {
			b.WriteString("  lastmod history: no URL compared yet (the first run with history records; the next compares)")
		}
		if h.New > 0 && h.Score != nil {
			fmt.Fprintf(&b, "; %d seen for the first time", h.New)
		}
		b.WriteString("\n")
	}
	ids := make([]rules.ID, 0, len(t.Rules))
	for id := range t.Rules {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		fmt.Fprintf(&b, "  %s %-7s %-34s %d\n", id, Severity(id), ClassName(id), t.Rules[id])
	}
	_, err := io.WriteString(w, b.String())
	return err
}
