package rules

import (
	"bufio"
	"io"
	"strings"
)

// WriteMarkdown writes rs as a Markdown document: a heading per family (in
// the order the rules come), then each rule's ID, severity, level,
// statement, source with its link, and fix. docs/RULES.md is
// WriteMarkdown(w, All()), and `sitemap rules --format markdown` prints
// the same.
func WriteMarkdown(w io.Writer, rs []Rule) error {
	b := bufio.NewWriter(w)
	b.WriteString("# Rule book\n\n")
	b.WriteString("<!-- Generated from package rules by `go generate ./rules` (or `sitemap rules --format markdown`); do not edit. -->\n\n")
	b.WriteString("Every rule ID a diagnostic of this project can carry (`file:line:col: severity RULE: message`).\n")
	b.WriteString("The protocol rules restate, in our own words, the Sitemaps protocol (sitemaps.org), the sitemap\n")
	b.WriteString("XSDs, Google Search Central, Bing, IndexNow, RFC 9309 and W3C NOTE-datetime, plus the decisions\n")
	b.WriteString("this project takes where they leave a choice (source \"this project\", with the reason). The\n")
	b.WriteString("project rules (XML, LIM, GZ, READ, VAL, FETCH, DIFF, AUD, SRC) name problems the protocol has no number for.\n\n")
	b.WriteString("Severity is what is reported by default. Level is the requirement's strength (RFC 2119); a rule\n")
	b.WriteString("without one describes rather than requires. `sitemap explain ID` prints one rule; `sitemap rules`\n")
	b.WriteString("lists them.\n")
	fam := ""
	for _, r := range rs {
		if f := r.Family(); f != fam {
			fam = f
			name := f
			if ff, ok := FamilyOf(f); ok {
				name = ff.Name
				if ff.Project {
					name += " (project)"
				}
			}
			b.WriteString("\n## " + f + ": " + mdText(name) + "\n\n")
			b.WriteString("| ID | Severity | Level | Rule | Source | Fix |\n")
			b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
		}
		src := mdText(r.Source)
		if r.URL != "" {
			src += " ([link](" + r.URL + "))"
		}
		level := r.Level
		if level == "" {
			level = "—"
		}
		b.WriteString("| " + string(r.ID) + " | " + r.Severity.String() + " | " + level + " | " + mdText(r.Title) + " | " + src + " | " + mdText(r.Fix) + " |\n")
	}
	writeSearchConsole(b, rs)
	return b.Flush()
}

// writeSearchConsole writes the table of Search Console's messages whose
// rules are among rs, each with those of its IDs.
func writeSearchConsole(b *bufio.Writer, rs []Rule) {
	in := make(map[ID]bool, len(rs))
	for _, r := range rs {
		in[r.ID] = true
	}
	head := false
	for _, m := range SearchConsole() {
		var ids []string
		for _, id := range m.IDs {
			if in[id] {
				ids = append(ids, string(id))
			}
		}
		if len(ids) == 0 {
			continue
		}
		if !head {
			head = true
			b.WriteString("\n## Search Console's sitemap report, message by message\n\n")
			b.WriteString("What Search Console says of a submitted sitemap, and the rules that judge the same offline:\n")
			b.WriteString("`sitemap validate FILE` for the files, `sitemap validate https://SITE/` for what needs the\n")
			b.WriteString("site's robots.txt too.\n\n")
			b.WriteString("| Search Console | Severity | Rules |\n")
			b.WriteString("| --- | --- | --- |\n")
		}
		b.WriteString("| " + mdText(m.Message) + " | " + m.Severity.String() + " | " + strings.Join(ids, ", ") + " |\n")
	}
}

// mdText escapes what would break a table cell or read as markup: '|',
// '<' (element names like <loc>), '*' and '_' outside code spans.
func mdText(s string) string {
	var b strings.Builder
	code := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '`':
			code = !code
			b.WriteByte(c)
		case c == '|':
			b.WriteString(`\|`)
		case code:
			b.WriteByte(c)
		case c == '<':
			b.WriteString("&lt;")
		case c == '*' || c == '_':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
