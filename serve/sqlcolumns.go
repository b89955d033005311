package serve

import (
	"fmt"
	"slices"
	"strings"
)

// The entry fields a column maps, in the order of Columns and of the
// mapping syntax (loc=…,lastmod=…).
const (
	fieldLoc = iota
	fieldLastMod
	fieldChangeFreq
	fieldPriority
	fieldExt
	numFields
)

var fieldNames = [numFields]string{"loc", "lastmod", "changefreq", "priority", "ext"}

// field returns a pointer to the column name of field f.
func (c *Columns) field(f int) *string {
	switch f {
	case fieldLoc:
		return &c.Loc
	case fieldLastMod:
		return &c.LastMod
	case fieldChangeFreq:
		return &c.ChangeFreq
	case fieldPriority:
		return &c.Priority
	}
	return &c.Ext
}

// String writes c as a column mapping ParseColumns reads back:
// "loc=url,lastmod=updated_at", the fields without a column left out.
func (c Columns) String() string {
	var b strings.Builder
	for f := range numFields {
		if n := *c.field(f); n != "" {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(fieldNames[f] + "=" + n)
		}
	}
	return b.String()
}

// columnNames returns the names a column of field f is found by when
// Query.Columns leaves the field empty, best first, as foldName writes
// them (see the list on [Columns]). It is a function, not a table, so that
// nothing is built when the program starts.
func columnNames(f int) []string {
	switch f {
	case fieldLoc:
		return []string{"loc", "url", "pageurl", "permalink", "link", "href"}
	case fieldLastMod:
		return []string{"lastmod", "lastmodified", "updatedat", "updated", "modifiedat", "modified",
			"lastupdated", "datemodified", "dateupdated",
			"postmodifiedgmt", // WordPress wp_posts (UTC; post_modified is local time without a zone)
			"pagetouched",     // MediaWiki page
			"changed",         // Drupal node_field_data (Unix seconds)
			"lastpublishedat", // Wagtail wagtailcore_page
		}
	case fieldChangeFreq:
		return []string{"changefreq", "changefrequency", "sitemapchangefreq"}
	case fieldPriority:
		return []string{"priority", "sitemappriority"}
	}
	return []string{"ext", "extensions", "json"}
}

// foldName folds a column name for matching by name: lower case, without
// '_', '-' and spaces ("updated_at", "UpdatedAt" and "Updated At" are one
// name).
func foldName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r != '_' && r != '-' && r != ' ' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// resolveColumns checks the columns s.q names against names, the columns
// of the table or query, and fills in the fields it leaves empty: by name
// (columnNames), then, for a query, by position. It records what it found
// in s.found. A named column (or key) that names lacks is an error that
// lists the columns there are, and so is no loc column at the end (no
// names included); on an error s.found is left as it was.
func (s *SQLSource) resolveColumns(names []string) error {
	c := &s.q.Columns
	used := make([]bool, len(names))
	if err := s.checkNamedColumns(names, used); err != nil {
		return err
	}
	found, also := fillColumnsByName(c, names, used)
	var pos []string
	if s.q.Query != "" && len(names) > 0 {
		pos = s.fillColumnsByPosition(names, used)
	}
	if c.Loc == "" {
		return fmt.Errorf("%s has no loc column: name the URL column (Columns.Loc, --columns loc=NAME); it has %s, and none of them is named loc, url, page_url, permalink, link or href", s.what(), listColumns(names))
	}
	s.found = foundSummary(found, pos, also)
	return nil
}

// checkNamedColumns checks that every column s.q names (a field's, and the
// key) is one of names, and marks in used the columns the fields took.
// The first one missing is an error saying so (noColumn); none named is
// no error.
func (s *SQLSource) checkNamedColumns(names []string, used []bool) error {
	c := &s.q.Columns
	// What the caller named must exist, each field in its own column.
	for f := range numFields {
		n := *c.field(f)
		if n == "" {
			continue
		}
		i := slices.Index(names, n)
		if i < 0 {
			return s.noColumn(names, fieldNames[f]+"="+n, n, f)
		}
		used[i] = true
	}
	if s.q.Key != "" && slices.Index(names, s.q.Key) < 0 {
		return s.noColumn(names, "Query.Key, --key", s.q.Key, -1)
	}
	return nil
}

// fillColumnsByName fills in the fields of c left empty by name: the first
// name of the field's list (columnNames) a column not used yet has, marked
// used then. It returns what it found ("lastmod=updated_at") and the
// other columns that have one of a field's names, to be said
// ("lastmod=modified"); both empty when no column matches.
func fillColumnsByName(c *Columns, names []string, used []bool) (found, also []string) {
	for f := range numFields {
		p := c.field(f)
		if *p != "" {
			continue
		}
		best, others := bestColumnByName(f, names, used)
		if best < 0 {
			continue
		}
		*p, used[best] = names[best], true
		found = append(found, fieldNames[f]+"="+names[best])
		for _, o := range others {
			also = append(also, fmt.Sprintf("%s=%s", fieldNames[f], o))
		}
	}
	return found, also
}

// bestColumnByName returns the index in names of the column not used
// whose folded name comes first in field f's list (the leftmost of equal
// rank), or -1 when none matches, and the names of the other columns that
// match one of the list's names, in the order met.
func bestColumnByName(f int, names []string, used []bool) (int, []string) {
	best, bestRank := -1, 0
	var others []string
	for i, n := range names {
		if used[i] {
			continue
		}
		fn := foldName(n)
		for rank, want := range columnNames(f) {
			if fn != want {
				continue
			}
			switch {
			case best < 0 || rank < bestRank:
				if best >= 0 {
					others = append(others, names[best])
				}
				best, bestRank = i, rank
			default:
				others = append(others, n)
			}
			break
		}
	}
	return best, others
}

// fillColumnsByPosition fills in a query's loc and lastmod by position,
// for names not empty: the loc the first column no field took, the
// lastmod the second when no field took it and it is not the key. It
// marks them used and returns what it took ("loc=u (first column)"), none
// when the fields were set already.
func (s *SQLSource) fillColumnsByPosition(names []string, used []bool) []string {
	c := &s.q.Columns
	var pos []string
	// A query's columns by position: the loc the first column no field
	// took, the lastmod the second when no field took it.
	if c.Loc == "" {
		for i, n := range names {
			if !used[i] {
				c.Loc, used[i] = n, true
				pos = append(pos, "loc="+n+" (first column)")
				break
			}
		}
	}
	if c.LastMod == "" && len(names) > 1 && !used[1] && names[1] != s.q.Key {
		c.LastMod, used[1] = names[1], true
		pos = append(pos, "lastmod="+names[1]+" (second column)")
	}
	return pos
}

// foundSummary says how the columns were found, for SQLSource.found:
// "found by name: …; by position: …; also matching: … (--columns to
// choose)", each part only when it has a column ("" for none).
func foundSummary(found, pos, also []string) string {
	var parts []string
	if len(found) > 0 {
		parts = append(parts, "found by name: "+strings.Join(found, ", "))
	}
	if len(pos) > 0 {
		parts = append(parts, "by position: "+strings.Join(pos, ", "))
	}
	if len(also) > 0 {
		parts = append(parts, "also matching: "+strings.Join(also, ", ")+" (--columns to choose)")
	}
	return strings.Join(parts, "; ")
}

// noColumn is the error for a column n that the table or query does not
// have, named by what ("lastmod=updated", "Query.Key, --key"), for field
// f (-1 for another column, such as the key): it lists the columns there are and suggests the likely one.
func (s *SQLSource) noColumn(names []string, what, n string, f int) error {
	msg := fmt.Sprintf("%s has no column %q (%s); it has %s", s.what(), n, what, listColumns(names))
	if m := likelyColumn(names, n, f); m != "" {
		if f >= 0 {
			msg += "; did you mean " + fieldNames[f] + "=" + m + "?"
		} else {
			msg += fmt.Sprintf("; did you mean %q?", m)
		}
	}
	return fmt.Errorf("%s", msg)
}

// likelyColumn returns the column of names the name n most likely meant,
// for field f (-1: none in particular), or "": one equal but for case or
// '_' (SQL quoted names are case-sensitive), one whose name starts n's or
// starts with it, or contains it or is contained in it (three letters at
// least), or the one field f would be found by.
func likelyColumn(names []string, n string, f int) string {
	for _, x := range names {
		if strings.EqualFold(x, n) {
			return x
		}
	}
	fn := foldName(n)
	for _, x := range names {
		if foldName(x) == fn {
			return x
		}
	}
	for _, x := range names {
		fx := foldName(x)
		if len(fx) >= 2 && len(fn) >= 2 && (strings.HasPrefix(fx, fn) || strings.HasPrefix(fn, fx)) ||
			len(fx) >= 3 && len(fn) >= 3 && (strings.Contains(fx, fn) || strings.Contains(fn, fx)) {
			return x
		}
	}
	if f >= 0 {
		for _, want := range columnNames(f) {
			for _, x := range names {
				if foldName(x) == want {
					return x
				}
			}
		}
	}
	return ""
}

// maxListed is how many column names an error lists.
const maxListed = 40

// listColumns lists names for an error: "id, url, updated_at", at most
// maxListed of them.
func listColumns(names []string) string {
	if len(names) == 0 {
		return "no columns"
	}
	if len(names) > maxListed {
		return strings.Join(names[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(names)-maxListed)
	}
	return strings.Join(names, ", ")
}
