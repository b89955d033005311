package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Select returns the rules args name, in the book's order: every rule
// without arguments, else each family prefix's rules (any case: "l", "FETCH")
// and each ID's rule (as [Normalize] reads it). An argument that is
// neither is an error that suggests the nearest IDs or lists the families.
func Select(args []string) ([]Rule, error) {
	if len(args) == 0 {
		return All(), nil
	}
	keep := map[ID]bool{}
	for _, a := range args {
		up := strings.ToUpper(strings.TrimSpace(a))
		if f, ok := FamilyOf(up); ok {
			for _, r := range f.Rules() {
				keep[r.ID] = true
			}
			continue
		}
		if id := Normalize(a); Known(id) {
			keep[id] = true
			continue
		}
		if strings.Contains(a, "-") {
			if near := Suggest(a, 3); len(near) > 0 {
				return nil, fmt.Errorf("no rule family or rule %q; did you mean %s? ('sitemap rules' lists every rule)", a, strings.Join(near, ", "))
			}
		}
		var names []string
		for _, f := range families {
			names = append(names, f.Prefix)
		}
		return nil, fmt.Errorf("no rule family or rule %q; the families are %s", a, strings.Join(names, ", "))
	}
	var out []Rule
	for _, r := range All() {
		if keep[r.ID] {
			out = append(out, r)
		}
	}
	return out, nil
}

// LookupAll returns the rules of ids (each as [Normalize] reads it), in
// the order given. The IDs the book does not have make the error, which
// says for each what it may have meant (a family's listing, the nearest
// IDs); the rules found are returned with it.
func LookupAll(ids []string) ([]Rule, error) {
	var found []Rule
	var unknown []string
	families := 0 // unknown IDs that name a family, each already pointing to 'sitemap rules F'
	for _, a := range ids {
		r, ok := Lookup(Normalize(a))
		if ok {
			found = append(found, r)
			continue
		}
		msg := fmt.Sprintf("no rule %q", a)
		if f, ok := FamilyOf(strings.ToUpper(strings.TrimSpace(a))); ok {
			msg += fmt.Sprintf(": %s is a family of %d rules ('sitemap rules %s' lists them)", f.Prefix, len(f.rules), f.Prefix)
			families++
		} else if near := Suggest(a, 3); len(near) > 0 {
			msg += "; did you mean " + strings.Join(near, ", ") + "?"
		}
		unknown = append(unknown, msg)
	}
	switch {
	case len(unknown) == 0:
		return found, nil
	case families == len(unknown):
		return found, errors.New(strings.Join(unknown, "; "))
	}
	return found, fmt.Errorf("%s ('sitemap rules' lists every rule)", strings.Join(unknown, "; "))
}

// WriteText writes rs one a line, ID, severity and statement in columns
// (what `sitemap rules` prints).
func WriteText(w io.Writer, rs []Rule) error {
	width := 0
	for _, r := range rs {
		width = max(width, len(r.ID))
	}
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "%-*s  %-7s  %s\n", width, r.ID, r.Severity, r.Title)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes rs as one indented JSON array, "[]" when empty.
func WriteJSON(w io.Writer, rs []Rule) error {
	if rs == nil {
		rs = []Rule{}
	}
	e := json.NewEncoder(w)
	e.SetEscapeHTML(false) // <loc> stays <loc>
	e.SetIndent("", "  ")
	return e.Encode(rs)
}

// WriteExplain writes each of rs in full for people, a blank line
// between two, wrapped at 80 columns (what `sitemap explain` prints):
//
//	error (MUST), XML structure
//	  Inside <url> the children come in the order …
//
//	  Source: sitemap XSD (sitemaps.org)
//	          https://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd
//	  Fix:    Reorder the children of each <url> …
func WriteExplain(w io.Writer, rs []Rule) error {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(r.ID) + ": " + r.Severity.String())
		if r.Level != "" {
			b.WriteString(" (" + r.Level + ")")
		}
		if f, ok := FamilyOf(r.Family()); ok {
			b.WriteString(", " + f.Name)
		}
		b.WriteString("\n")
		wrap(&b, "  ", "  ", r.Title)
		b.WriteString("\n")
		wrap(&b, "  Source: ", "          ", r.Source)
		if r.URL != "" {
			b.WriteString("          " + r.URL + "\n")
		}
		wrap(&b, "  Fix:    ", "          ", r.Fix)
	}
	_, err := io.WriteString(w, b.String())
	return err
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
