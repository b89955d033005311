package robots

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"

	"github.com/sitemapkit/sitemap/internal/ctrl"
	"github.com/sitemapkit/sitemap/rules"
)

// List is what `sitemap robots list` prints of one robots.txt: the
// sitemap URLs it lists ([File.Sitemaps]) and its warnings.
type List struct {
	// Name is the robots.txt: its URL (FromURL) or its file name.
	Name    string
	FromURL bool
	// Sitemaps are the URLs of its Sitemap: lines, in file order.
	Sitemaps []string
	// Warnings are the problems of the file and of its Sitemap: lines.
	Warnings []Warning
}

// ListOf is the List of f, read from name: a URL when base is not nil
// (the URL that answered; relative Sitemap: values are resolved against
// it), else a file. The warnings of its Sitemap: lines are returned
// apart too: each is a problem found (exit status 1 in the command).
func ListOf(f *File, name string, base *url.URL) (List, []Warning) {
	l := List{Name: name, FromURL: base != nil}
	var swarn []Warning
	l.Sitemaps, swarn = f.Sitemaps(base)
	l.Warnings = append(append([]Warning(nil), f.Warnings()...), swarn...)
	return l, swarn
}

// NotFound is the List of a robots.txt URL that answered status, a 4xx:
// no robots.txt, so no rules and no sitemaps (RFC 9309 §2.3.1.3), said
// by one RB-02 warning.
func NotFound(url string, status int) List {
	msg := fmt.Sprintf("HTTP %d: no robots.txt, so no Sitemap lines (RB-02: it must be at /robots.txt)", status)
	return List{Name: url, FromURL: true, Warnings: []Warning{{Rule: rules.RB02, Severity: rules.Warning, Message: msg, URL: url}}}
}

// listJSON is the document of List.Write's "json".
type listJSON struct {
	Robots   string    `json:"robots"`
	Sitemaps []string  `json:"sitemaps"`
	Warnings []Warning `json:"warnings"`
}

// Write writes the list in format: "text" (one URL a line), "jsonl" (one
// {"loc": URL} a line) or "json" (one indented document with the
// robots.txt's name, its sitemaps and its warnings, each placed at the
// robots.txt: its url or file; empty lists as []). Any other format
// writes nothing.
func (l List) Write(w io.Writer, format string) error {
	switch format {
	case "text":
		for _, u := range l.Sitemaps {
			if _, err := fmt.Fprintln(w, u); err != nil {
				return err
			}
		}
	case "jsonl":
		enc := json.NewEncoder(w)
		for _, u := range l.Sitemaps {
			if err := enc.Encode(map[string]string{"loc": u}); err != nil {
				return err
			}
		}
	case "json":
		out := listJSON{Robots: l.Name, Sitemaps: append([]string{}, l.Sitemaps...), Warnings: []Warning{}}
		for _, wa := range l.Warnings {
			if l.FromURL {
				wa.URL = l.Name
			} else {
				wa.File = l.Name
			}
			out.Warnings = append(out.Warnings, wa)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return nil
}

// WriteWarnings writes the warnings one line each ("NAME:LINE: warning
// RULE: message"), at most maxPerRule of one rule (0: all), then one note
// per rule that had more, saying how many; control characters escaped.
func (l List) WriteWarnings(w io.Writer, maxPerRule int) {
	name := ctrl.Escape(l.Name)
	shown := map[rules.ID]int{}
	var capped []rules.ID // rules with warnings not shown, in order of first
	for _, wa := range l.Warnings {
		shown[wa.Rule]++
		if maxPerRule > 0 && shown[wa.Rule] > maxPerRule {
			if shown[wa.Rule] == maxPerRule+1 {
				capped = append(capped, wa.Rule)
			}
			continue
		}
		if wa.Line > 0 {
			fmt.Fprintf(w, "%s:%d: warning %s: %s\n", name, wa.Line, wa.Rule, ctrl.Escape(wa.Message))
		} else {
			fmt.Fprintf(w, "%s: warning %s: %s\n", name, wa.Rule, ctrl.Escape(wa.Message))
		}
	}
	for _, r := range capped {
		n := shown[r] - maxPerRule
		what := "warnings"
		if n == 1 {
			what = "warning"
		}
		fmt.Fprintf(w, "%s: note %s: and %d more %s %s (use --max-per-rule 0 to see all)\n", name, r, n, r, what)
	}
}
