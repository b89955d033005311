package audit

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/sitemapkit/sitemap/rules"
)

// ReportInfo is what the head of an HTML report says about the run.
type ReportInfo struct {
	Start string
	// Sample is the per-sitemap sample size (0: every URL was audited).
	Sample          int
	Listed, Sampled int
	// Crawled is set when the site was crawled too (orphans, missing
	// pages and click depth are in the report).
	Crawled bool
	// History is set when the audit compared with earlier runs
	// (Options.History): the report charts its verdicts by section.
	History bool
	Time    time.Time
}

// ReportWriter writes the self-contained HTML report of an audit: one
// file, its style and script inline, no request to anywhere. It shows the
// counts by class (each explained from the rule book) and a table of
// every record, sortable by column and filterable by class and text. It
// streams: each record becomes a table row as it is added, and the counts,
// written after the table, are shown above it by the style sheet. Memory
// does not grow with the number of records.
type ReportWriter struct {
	w     *bufio.Writer
	info  ReportInfo
	tally Tally
	err   error
	// sections count the verdicts by section (ReportInfo.History), at
	// most maxSections of them (the rest in otherSections); site is the
	// verdict on the site (SetSite).
	sections map[string]*SiteHistory
	site     *SiteHistory
}

// NewReportWriter starts a report on w.
func NewReportWriter(w io.Writer, info ReportInfo) *ReportWriter {
	rw := &ReportWriter{w: bufio.NewWriterSize(w, 64<<10), info: info}
	title := "Sitemap audit of " + info.Start
	rw.printf(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>%s</style></head>
<body><main>
<header><h1>%s</h1><p>%s</p></header>
<section id="urls"><h2>URLs</h2>
<p class="controls"><label>Class <select id="class-filter"><option value="">every class</option></select></label>
<label>Find <input id="filter" type="search" placeholder="text in the URL or a message"></label>
<span id="shown" aria-live="polite"></span></p>
<table id="table"><thead><tr><th data-type="text">URL</th><th data-type="num">Status</th><th data-type="text">Class</th><th data-type="text">Findings</th><th data-type="num">Click depth</th><th data-type="num">Inlinks</th><th data-type="text">Listed in</th></tr></thead>
<tbody>
`, esc(title), reportCSS, esc(title), esc(rw.about()))
	return rw
}

func (rw *ReportWriter) about() string {
	s := fmt.Sprintf("%d listed URLs", rw.info.Listed)
	if rw.info.Sample > 0 {
		s += fmt.Sprintf("; a uniform random sample of at most %d URLs per sitemap was audited (%d URLs)", rw.info.Sample, rw.info.Sampled)
	} else {
		s += ", every one audited"
	}
	if rw.info.Crawled {
		s += "; the site was crawled from its homepage for orphans and missing pages"
	}
	if !rw.info.Time.IsZero() {
		s += "; " + rw.info.Time.UTC().Format("2006-01-02 15:04 UTC")
	}
	return s + "."
}

func (rw *ReportWriter) printf(format string, args ...any) {
	if rw.err == nil {
		_, rw.err = fmt.Fprintf(rw.w, format, args...)
	}
}

func esc(s string) string { return html.EscapeString(s) }

// Add writes the row of one record.
func (rw *ReportWriter) Add(r *Record) error {
	rw.tally.add(r)
	rw.countSection(r)
	class := r.Class
	if class == "" {
		class = classOf(r.Findings)
	}
	sev := Severity(class)
	var msgs strings.Builder
	for i, f := range r.Findings {
		if i > 0 {
			msgs.WriteString("<br>")
		}
		fmt.Fprintf(&msgs, `<span class="%s">%s</span> %s`, esc(f.Severity.String()), esc(string(f.Rule)), esc(f.Message))
	}
	ids := make([]string, 0, len(r.Findings))
	for _, f := range r.Findings {
		ids = append(ids, string(f.Rule))
	}
	if len(ids) == 0 {
		ids = append(ids, string(rules.AUD01))
	}
	depth, status, inlinks := "", "", ""
	if r.Depth != nil {
		depth = strconv.Itoa(*r.Depth)
	}
	if rw.info.Crawled {
		inlinks = strconv.Itoa(r.Inlinks)
	}
	if r.Status != 0 {
		status = strconv.Itoa(r.Status)
	}
	source := r.Source
	if !r.Listed {
		source = "(not listed)"
	}
	rw.printf("<tr data-rules=\"%s\" class=\"%s\"><td><a href=\"%s\">%s</a></td><td>%s</td><td>%s %s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
		esc(strings.Join(ids, " ")), esc(sev), esc(r.URL), esc(r.URL), status, esc(string(class)), esc(ClassName(class)), msgs.String(), depth, inlinks, esc(source))
	return rw.err
}

// Close writes the counts, the history's chart (ReportInfo.History), the
// classes explained and the script, and flushes. It does not close the
// underlying writer.
func (rw *ReportWriter) Close() error {
	rw.printf("</tbody></table></section>\n")
	rw.writeHistory()
	rw.printf("<section id=\"summary\"><h2>Counts by class</h2>\n<table id=\"counts\"><thead><tr><th>Rule</th><th>Class</th><th>Severity</th><th>URLs</th></tr></thead><tbody>\n")
	for _, c := range Classes() {
		n := rw.tally.Rules[c.Rule]
		if n == 0 {
			continue
		}
		count := fmt.Sprintf("<button type=\"button\" data-rule=\"%s\">%d</button>", c.Rule, n)
		if siteRule(c.Rule) {
			count = fmt.Sprintf("<a href=\"#history\">%d</a>", n) // about the site: no row to filter
		}
		rw.printf("<tr class=\"%s\"><td><a href=\"#%s\">%s</a></td><td>%s</td><td>%s</td><td class=\"count\" data-rule=\"%s\">%s</td></tr>\n",
			esc(c.Severity), c.Rule, c.Rule, esc(c.Name), esc(c.Severity), c.Rule, count)
	}
	rw.printf("</tbody><tfoot><tr><td colspan=\"3\">URLs in the report (%d with errors)</td><td class=\"count\" data-rule=\"\">%d</td></tr></tfoot></table>\n</section>\n", rw.tally.Errors, rw.tally.Records)
	rw.printf("<section id=\"classes\"><h2>What each class means</h2><dl>\n")
	for _, c := range Classes() {
		rw.printf("<dt id=\"%s\">%s %s <span class=\"%s\">%s</span></dt><dd>%s <em>Fix:</em> %s</dd>\n", c.Rule, c.Rule, esc(c.Name), esc(c.Severity), esc(c.Severity), esc(c.Title), esc(c.Fix))
	}
	rw.printf("</dl></section>\n</main>\n<script>%s</script>\n</body></html>\n", reportJS)
	if rw.err == nil {
		rw.err = rw.w.Flush()
	}
	return rw.err
}

const reportCSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1b1f24;background:#fff}
main{display:flex;flex-direction:column;padding:1rem 1.5rem;max-width:100rem}
header{order:0}#summary{order:1}#history{order:2}#urls{order:3}#classes{order:4}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.2rem 0 .4rem}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #d8dee4;padding:.25rem .5rem;text-align:left;vertical-align:top}
#counts{width:auto}th{background:#f3f5f7;position:sticky;top:0}#table th{cursor:pointer;user-select:none}
#table th[aria-sort=ascending]::after{content:" \25B2"}#table th[aria-sort=descending]::after{content:" \25BC"}
td:first-child{word-break:break-all}span.error,#counts tr.error td{color:#a40e26}span.warning,#counts tr.warning td{color:#7a4d00}
tr.error td:first-child{border-left:3px solid #cf222e}tr.warning td:first-child{border-left:3px solid #bf8700}
td button{font:inherit;background:none;border:1px solid #8c959f;border-radius:3px;padding:0 .4rem;cursor:pointer}
.controls{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}input[type=search]{min-width:20rem}
dt{font-weight:600;margin-top:.4rem}dd{margin:0 0 0 1.5rem}
#history-chart{width:auto}#history-chart td.n{text-align:right}.bar{display:flex;width:24rem;height:1rem;background:#eaeef2}
.bar span,.key{display:inline-block;height:1rem}.key{width:.8rem;vertical-align:middle}
.honest{background:#2da44e}.churning{background:#bf8700}.stale{background:#cf222e}
`

const reportJS = `
(function(){
var tb=document.querySelector('#table tbody'),rows=Array.prototype.slice.call(tb.rows);
var sel=document.getElementById('class-filter'),q=document.getElementById('filter'),shown=document.getElementById('shown');
document.querySelectorAll('#counts td.count button').forEach(function(b){
  var o=document.createElement('option');o.value=b.dataset.rule;
  o.textContent=b.dataset.rule+' '+b.closest('tr').cells[1].textContent+' ('+b.textContent+')';sel.appendChild(o);
  b.addEventListener('click',function(){sel.value=b.dataset.rule;apply();document.getElementById('urls').scrollIntoView();});
});
function apply(){
  var c=sel.value,t=q.value.toLowerCase(),n=0;
  rows.forEach(function(r){
    var ok=(!c||(' '+r.dataset.rules+' ').indexOf(' '+c+' ')>=0)&&(!t||r.textContent.toLowerCase().indexOf(t)>=0);
    r.hidden=!ok;if(ok)n++;
  });
  shown.textContent=n+' of '+rows.length+' URLs shown';
}
sel.addEventListener('change',apply);q.addEventListener('input',apply);
document.querySelectorAll('#table th').forEach(function(th,i){
  th.setAttribute('aria-sort','none');
  th.addEventListener('click',function(){
    var asc=th.getAttribute('aria-sort')!=='ascending',num=th.dataset.type==='num';
    document.querySelectorAll('#table th').forEach(function(h){h.setAttribute('aria-sort','none');});
    th.setAttribute('aria-sort',asc?'ascending':'descending');
    rows.sort(function(a,b){
      var x=a.cells[i].textContent,y=b.cells[i].textContent,d;
      if(num){d=(x===''?1e9:+x)-(y===''?1e9:+y);}else{d=x<y?-1:x>y?1:0;}
      return asc?d:-d;
    });
    rows.forEach(function(r){tb.appendChild(r);});
  });
});
apply();
})();
`
