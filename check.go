package sitemap

import (
	"errors"
	"strconv"

	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
)

// EntryError says why the encoder refused one entry, a [rules.Problem]
// with Field, Value, Message and Rule set (Suggest when a corrected value
// can be told). Nothing of the entry was written; the document stays
// valid and the caller may go on with the next entry.
//
// Its Error text names the field, quotes the value (shortened past 120
// bytes with "…") and says what to do, ending with the rule ID:
//
//	loc "/x" is not an absolute URL; sitemaps need https://… (L-01)
//
// It is a Diagnostic as it is: its String and JSON carry the same text
// (without the rule at the end), its Severity is SeverityError.
type EntryError = rules.Problem

// field names a (possibly nested) field without allocating until an error
// needs its text: name[i].sub[j].leaf, each part left out when absent
// (i < 0, sub "", j == 0, leaf "").
type field struct {
	name string
	i    int // index into name; -1 for none
	sub  string
	j    int // index into sub plus one; 0 for none
	leaf string
}

func (f field) String() string {
	s := f.name
	if f.i >= 0 {
		s += "[" + strconv.Itoa(f.i) + "]"
	}
	if f.sub != "" {
		s += "." + f.sub
		if f.j > 0 {
			s += "[" + strconv.Itoa(f.j-1) + "]"
		}
	}
	if f.leaf != "" {
		s += "." + f.leaf
	}
	return s
}

// with names a child of f.
func (f field) with(name string) field {
	if f.sub == "" {
		f.sub = name
	} else {
		f.leaf = name
	}
	return f
}

// at names element j of f's child list name.
func (f field) at(name string, j int) field {
	f.sub, f.j = name, j+1
	return f
}

func top(name string) field { return field{name: name, i: -1} }

func entryErr(f field, rule rules.ID, value, msg string) *EntryError {
	return &EntryError{Field: f.String(), Rule: rule, Value: value, Message: msg}
}

// errNilURL is returned by Check for a nil *URL.
var errNilURL = errors.New("sitemap: nil *URL")

// Check runs every write-time check on u and returns the first problem as
// an *EntryError, or nil when u can be written. AppendURL and
// Encoder.Encode call it; call it yourself to vet entries without writing.
//
// What it checks, with the rule IDs (package rules, docs/RULES.md); the
// value rules are the ones package validate applies too, with the same
// rule IDs and messages:
//
//   - loc: present; no surrounding white space; an absolute http or
//     https URL (L-01, L-02, L-16) with a host, an optional port 1–65535
//     and no user info; RFC 3986 syntax with every character outside the
//     URI set percent-encoded (L-07): raw non-ASCII, spaces, "<>\"{}|\\^`",
//     a second '#' and a '%' not followed by two hex digits are refused,
//     with the percent-encoded (or, for a host, punycode) form in
//     EntryError.Suggest. The encoder never rewrites a URL, so valid
//     %XX escapes are never encoded twice. Fewer than 2,048 characters
//     (L-04) and at least 12 (L-05), both L-06. In scope of o.Scope when
//     set (L-09, L-15; I-05 and I-06 for an index entry); a host with a
//     trailing dot is another host.
//   - lastmod: day, minute or second precision (a year or year and month
//     alone breaks M-04: the schema rejects them, and M-08 will not invent
//     a day); year 0001–9999 (M-01).
//   - changefreq: one of the seven values (C-01), in lowercase (C-04).
//   - priority: 0.0–1.0, not NaN (P-01).
//   - every extension the entry uses is declared in o.Extensions (EX-05).
//   - images: at most 1,000 (IM-02), each with an absolute http(s) loc
//     (IM-01); the deprecated fields only when o.Legacy is set, since
//     they are written only then (IM-04).
//   - videos (V-01): thumbnail_loc, title (≤ 100 characters, the XSD's
//     limit), description (≤ 2,048 characters) and content_loc or
//     player_loc; duration 1–28,800; rating 0–5; view_count ≥ 0; dates
//     like lastmod; non-empty tags; restriction and platform with
//     relationship allow|deny and the XSD's list patterns; uploader name
//     ≤ 255 characters, info an http(s) URL. V-06: content_loc and
//     player_loc differ from loc, at most 32 tags (S-08), the uploader's
//     info on the registrable domain of loc. Deprecated fields only with
//     o.Legacy (V-04).
//   - news (N-01..N-03): publication name, language (zh-cn, zh-tw or two
//     or three lowercase letters), publication_date and title; the 2010
//     XSD's optional tags only with o.Legacy (N-08, N-09).
//   - alternates (H-05, H-06, H-08): hreflang language[-Script][-REGION]
//     or x-default, no hreflang twice (case-insensitive), at most one
//     x-default, href an absolute http(s) URL under 2,048 characters.
//     Alternates may point to other hosts: no scope check.
//   - every text value (titles, names, descriptions, tags…): no character
//     XML 1.0 forbids (C0 controls other than TAB, LF and CR, U+FFFE,
//     U+FFFF) and valid UTF-8 (E-03, X-01). Such values are refused, not
//     repaired: the document would otherwise say something other than the
//     entry. Use strings.ToValidUTF8 first if lossy repair is acceptable.
//
// When o.Scope is set but is not an absolute http(s) URL, Check returns a
// plain error (not an *EntryError) for every entry.
func (o EncoderOptions) Check(u *URL) error {
	_, err := o.check(u)
	return err
}

// check is Check that also reports whether u.Loc has nothing appendText
// would escape, as the fast path of the URL checks finds on its way (so
// appendURL copies it instead of reading it again).
func (o EncoderOptions) check(u *URL) (plainLoc bool, err error) {
	if u == nil {
		return false, errNilURL
	}
	if need := Extensions(u) &^ o.Extensions; need != 0 {
		return false, undeclared(need)
	}
	plainLoc, err = o.checkLocPlain(top("loc"), u.Loc, check.Page)
	if err != nil {
		return false, err
	}
	if err := checkDate(top("lastmod"), rules.M08, u.LastMod); err != nil {
		return false, err
	}
	if u.ChangeFreq != "" && !u.ChangeFreq.Valid() {
		return false, problemErr(top("changefreq"), string(u.ChangeFreq), check.ChangeFreq(string(u.ChangeFreq)))
	}
	if u.Priority != nil {
		if pr := check.Priority(*u.Priority); !pr.OK() {
			return false, problemErr(top("priority"), strconv.FormatFloat(*u.Priority, 'g', -1, 64), pr)
		}
	}
	if len(u.Alternates) > 0 {
		if err := checkAlternates(u.Alternates); err != nil {
			return false, err
		}
	}
	if len(u.Images) > MaxImagesPerURL {
		return false, entryErr(top("images"), rules.IM02, "",
			"has "+strconv.Itoa(len(u.Images))+" images; a <url> may carry at most 1,000; split the images over several pages or drop some")
	}
	for i := range u.Images {
		if err := o.checkImage(field{name: "images", i: i}, &u.Images[i]); err != nil {
			return false, err
		}
	}
	for i := range u.Videos {
		if err := o.checkVideo(field{name: "videos", i: i}, u.Loc, &u.Videos[i]); err != nil {
			return false, err
		}
	}
	if u.News != nil {
		if err := o.checkNews(u.News); err != nil {
			return false, err
		}
	}
	return plainLoc, nil
}

// CheckIndexEntry runs the write-time checks on one <sitemap> of an index:
// loc as for a URL entry (X-04, L-01..L-07, L-16, in scope of o.Scope per
// I-05/I-06 when set) and lastmod (M-04, M-01).
func (o EncoderOptions) CheckIndexEntry(x *IndexEntry) error {
	if x == nil {
		return errors.New("sitemap: nil *IndexEntry")
	}
	if err := o.checkLoc(top("loc"), x.Loc, check.Child); err != nil {
		return err
	}
	return checkDate(top("lastmod"), rules.I04, x.LastMod)
}

func undeclared(need Ext) error {
	var name, ext, fld string
	switch {
	case need&ExtImage != 0:
		name, ext, fld = "image", "ExtImage", "images"
	case need&ExtVideo != 0:
		name, ext, fld = "video", "ExtVideo", "videos"
	case need&ExtNews != 0:
		name, ext, fld = "news", "ExtNews", "news"
	default:
		name, ext, fld = "xhtml", "ExtXHTML", "alternates"
	}
	return &EntryError{Field: fld, Rule: rules.EX05,
		Message: "needs the " + name + " namespace, which this document does not declare; set EncoderOptions.Extensions |= " + ext}
}

// checkTextField checks a free-text field (E-03, X-01); required fields
// must not be empty or white space only (readers trim values, X-12);
// maxRunes > 0 caps the length in characters.
func checkTextField(f field, rule rules.ID, s string, required bool, maxRunes int) error {
	if required {
		// Readers trim text values: white space alone reads as empty.
		if pr := check.Required(rule, s); !pr.OK() {
			return problemErr(f, s, pr)
		}
	}
	if s == "" {
		return nil
	}
	if bad, ok := checkText(s); !ok {
		rule := rules.E03
		if !bad.utf8 {
			rule = rules.X01
		}
		return entryErr(f, rule, s, "contains "+bad.describe())
	}
	if maxRunes > 0 {
		if pr := check.MaxRunes(rule, s, maxRunes); !pr.OK() {
			return problemErr(f, s, pr)
		}
	}
	return nil
}
