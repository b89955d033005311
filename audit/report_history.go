package audit

import (
	"fmt"
	"slices"
)

// maxSections bounds the sections the report's history chart counts
// apart; the URLs of the others are counted together, so memory does not
// grow with a site whose every page is a section.
const (
	maxSections   = 40
	otherSections = "(other sections)"
)

// countSection counts a record's verdict under its section.
func (rw *ReportWriter) countSection(r *Record) {
	if !rw.info.History || r.History == nil {
		return
	}
	if rw.sections == nil {
		rw.sections = map[string]*SiteHistory{}
	}
	sec := section(r.URL)
	c := rw.sections[sec]
	if c == nil {
		if len(rw.sections) >= maxSections {
			sec = otherSections
			c = rw.sections[sec]
		}
		if c == nil {
			c = &SiteHistory{Site: sec}
			rw.sections[sec] = c
		}
	}
	c.count(r.History)
}

// SetSite gives the report the history's verdict on the site (Tally.History,
// what [Output.WriteSite] passes on), shown above the chart; its findings
// (AUD-30) are counted with the classes. Call it before Close.
func (rw *ReportWriter) SetSite(s *SiteHistory) {
	rw.site = s
	rw.tally.addSite(s)
}

// writeHistory writes the history's section: the site's score and
// findings, and a bar per section of its honest, churning and stale URLs.
func (rw *ReportWriter) writeHistory() {
	if !rw.info.History {
		return
	}
	rw.printf("<section id=\"history\"><h2>Is lastmod honest?</h2>\n")
	if s := rw.site; s != nil {
		if s.Score != nil {
			rw.printf("<p id=\"history-score\"><strong>%.0f%% honest</strong>: of the %d URLs compared with an earlier run, %d have a lastmod that moved with their main content, %d churning (a lastmod that moves without a change, goes back or comes late), %d stale (a change the lastmod does not date).</p>\n",
				*s.Score, s.Compared(), s.Honest, s.Churning, s.Stale)
		} else {
			rw.printf("<p id=\"history-score\">No URL compared yet: this run recorded what it saw, and the next run with history compares with it.</p>\n")
		}
		for _, f := range s.Findings {
			rw.printf("<p class=\"site-finding\"><span class=\"%s\">%s</span> %s</p>\n", esc(f.Severity.String()), esc(string(f.Rule)), esc(f.Message))
		}
	}
	names := make([]string, 0, len(rw.sections))
	for n, c := range rw.sections {
		if c.Compared() > 0 && n != otherSections {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if c := rw.sections[otherSections]; c != nil && c.Compared() > 0 {
		names = append(names, otherSections)
	}
	if len(names) == 0 {
		rw.printf("</section>\n")
		return
	}
	rw.printf("<p class=\"legend\"><span class=\"key honest\"></span> honest <span class=\"key churning\"></span> churning <span class=\"key stale\"></span> stale</p>\n")
	rw.printf("<table id=\"history-chart\"><thead><tr><th>Section</th><th>URLs compared</th><th>Honest</th><th>Churning</th><th>Stale</th></tr></thead><tbody>\n")
	for _, n := range names {
		c := rw.sections[n]
		total := float64(c.Compared())
		label := fmt.Sprintf("%s: %d honest, %d churning, %d stale", n, c.Honest, c.Churning, c.Stale)
		rw.printf("<tr data-section=\"%s\"><td>%s</td><td><div class=\"bar\" role=\"img\" aria-label=\"%s\" title=\"%s\">", esc(n), esc(n), esc(label), esc(label))
		for _, seg := range []struct {
			class string
			n     int
		}{{VerdictHonest, c.Honest}, {VerdictChurning, c.Churning}, {VerdictStale, c.Stale}} {
			if seg.n > 0 {
				rw.printf("<span class=\"%s\" style=\"width:%.2f%%\"></span>", seg.class, float64(seg.n)*100/total)
			}
		}
		rw.printf("</div></td><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td></tr>\n", c.Honest, c.Churning, c.Stale)
	}
	rw.printf("</tbody></table></section>\n")
}
