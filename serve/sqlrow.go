package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/source"
)

// sqlRow is one row of the SELECT Entries runs: the key, then the loc,
// lastmod, changefreq, priority and ext columns (NULL for a field without
// one), as the driver gives them.
type sqlRow struct {
	key, loc, lastmod, freq, prio, ext any
}

// dest returns the Scan destinations of r, in the order of the SELECT.
func (r *sqlRow) dest() []any {
	return []any{&r.key, &r.loc, &r.lastmod, &r.freq, &r.prio, &r.ext}
}

// maxDroppedValue bounds the bytes of a value told to Query.Dropped.
const maxDroppedValue = 200

// rowEntry sets *u to the entry of row r. A value that cannot be read is left
// out and Query.Dropped told; the entry is always made (a loc the encoder
// refuses is the handler's to skip):
//
//   - lastmod: what dateOf reads; anything else (not NULL, not blank, not
//     a zero time) is dropped (M-01);
//   - changefreq: read in any case (C-04); the encoder checks the value;
//   - priority: a number, or text that is one; anything else dropped
//     (P-01); the encoder checks the range;
//   - ext: NULL, "null" or a JSON object of the entry record's extension
//     fields; text that is not one is dropped whole (SRC-06), and an
//     object with a field or element that does not fit loses that field
//     or element only (see extOf).
func (s *SQLSource) rowEntry(r *sqlRow, u *sitemap.URL) {
	*u = sitemap.URL{Loc: text(r.loc), LastMod: dateOf(r.lastmod)}
	if u.LastMod.IsZero() && !blankValue(r.lastmod) {
		s.dropValue(r, u.Loc, "lastmod", rules.M01, r.lastmod, "is not a date (a timestamp, a W3C Datetime such as 2026-11-02T10:00:00Z, SQLite's 2026-11-02 10:00:00, or Unix seconds); the row is served without a lastmod")
	}
	if f := strings.TrimSpace(text(r.freq)); f != "" {
		u.ChangeFreq = sitemap.ChangeFreq(f)
		if c := sitemap.ChangeFreq(strings.ToLower(f)); c.Valid() {
			u.ChangeFreq = c
		}
	}
	if p, ok := number(r.prio); ok {
		u.Priority = &p
	} else if !blankValue(r.prio) {
		s.dropValue(r, u.Loc, "priority", rules.P01, r.prio, "is not a number; the row is served without a priority (store a decimal from 0.0 to 1.0, or NULL)")
	}
	if b := strings.TrimSpace(text(r.ext)); b != "" && b != "null" {
		s.extOf(r, u, b)
	}
	if s.q.URL != nil && u.Loc != "" {
		u.Loc = s.q.URL(u.Loc)
	}
}

// extOf sets the extension fields of u from b, the row's ext value: read
// in one go when it fits the entry record, else, when b is a JSON object,
// field by field and element by element by package source's lenient
// reading of an entry record, each field or element that does not fit
// dropped alone; when b is no JSON object at all, the extensions are
// dropped whole (SRC-06).
func (s *SQLSource) extOf(r *sqlRow, u *sitemap.URL, b string) {
	var x sitemap.URL
	err := json.Unmarshal([]byte(b), &x)
	if err == nil {
		u.Images, u.Videos, u.News, u.Alternates = x.Images, x.Videos, x.News, x.Alternates
		return
	}
	whole := func(why string) {
		s.dropValue(r, u.Loc, "ext", rules.SRC06, b, "is not a JSON object of extension fields ({\"images\": […], \"videos\": […], \"news\": {…}, \"alternates\": […]}): "+why+"; the row is served without its extensions")
	}
	var syn *json.SyntaxError
	var line bytes.Buffer
	switch {
	case errors.As(err, &syn):
		whole(err.Error())
		return
	case b[0] != '{':
		whole("it is a JSON " + jsonKindOf(b[0]))
		return
	case json.Compact(&line, []byte(b)) != nil: // one line for the record reader
		whole(err.Error())
		return
	}
	rd := source.NewJSONL(&line, source.Options{Format: source.FormatJSONL, MaxLineBytes: line.Len() + 1, Warn: func(e *source.Error) {
		name, _, _ := strings.Cut(e.Dropped, "[")
		switch name {
		case "images", "videos", "news", "alternates":
			msg := strings.TrimPrefix(e.Message, e.Dropped+" dropped, the page kept: ")
			s.dropValue(r, u.Loc, e.Dropped, e.Rule, nil, "is left out, the row served without it: "+msg)
		}
	}})
	rec, rerr := rd.Next()
	if rerr != nil {
		whole(err.Error())
		return
	}
	u.Images, u.Videos, u.News, u.Alternates = rec.URL.Images, rec.URL.Videos, rec.URL.News, rec.URL.Alternates
}

// jsonKindOf names the JSON value that starts with c.
func jsonKindOf(c byte) string {
	switch c {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// dropValue tells Query.Dropped that field of row r was left out: its value
// v (nil when the message names it) cut to maxDroppedValue bytes.
func (s *SQLSource) dropValue(r *sqlRow, loc, field string, rule rules.ID, v any, msg string) {
	if s.q.Dropped == nil {
		return
	}
	var val string
	if v != nil {
		val = clipValue(text(v), maxDroppedValue)
	}
	s.q.Dropped(r.key, loc, &sitemap.EntryError{Field: field, Rule: rule, Value: val, Message: msg})
}

// blankValue reports whether a column value says "no value": NULL, text of
// white space only, or a zero time.
func blankValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []byte:
		return len(bytes.TrimSpace(x)) == 0
	case time.Time:
		return x.IsZero()
	}
	return false
}

// clipValue cuts s to at most n bytes, at a character boundary, marking the
// cut with "…".
func clipValue(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
