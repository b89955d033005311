// Package record writes the JSONL entry record of docs/CONVENTIONS.md fast: by
// hand for the fields nearly every entry has (loc, lastmod, changefreq,
// priority, images, alternates, content_hash, source), and through
// encoding/json for the rest (videos, news). The output is byte-identical
// to encoding/json's with HTML escaping off, which a test and a fuzz
// target check.
package record

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
)

// AppendURL appends the record of u and a newline to b.
func AppendURL(b []byte, u *sitemap.URL) []byte {
	if len(u.Videos) > 0 || u.News != nil || !plainFloat(u.Priority) {
		return appendSlow(b, u)
	}
	b = append(b, `{"loc":`...)
	b = AppendString(b, u.Loc)
	if !u.LastMod.IsZero() {
		b = append(b, `,"lastmod":"`...)
		b = u.LastMod.AppendFormat(b)
		b = append(b, '"')
	}
	if u.ChangeFreq != "" {
		b = append(b, `,"changefreq":`...)
		b = AppendString(b, string(u.ChangeFreq))
	}
	if u.Priority != nil {
		b = append(b, `,"priority":`...)
		b = strconv.AppendFloat(b, *u.Priority, 'f', -1, 64)
	}
	if len(u.Images) > 0 {
		b = append(b, `,"images":[`...)
		for i := range u.Images {
			im := &u.Images[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			n := len(b)
			b = field(b, n, `"loc":`, im.Loc)
			b = field(b, n, `"caption":`, im.Caption)
			b = field(b, n, `"geo_location":`, im.GeoLocation)
			b = field(b, n, `"title":`, im.Title)
			b = field(b, n, `"license":`, im.License)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(u.Alternates) > 0 {
		b = append(b, `,"alternates":[`...)
		for i := range u.Alternates {
			a := &u.Alternates[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '{')
			n := len(b)
			b = field(b, n, `"hreflang":`, a.Hreflang)
			b = field(b, n, `"href":`, a.Href)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = optString(b, `,"content_hash":`, u.ContentHash)
	b = optString(b, `,"source":`, u.Source)
	b = optString(b, `,"title":`, u.Title)
	return append(b, "}\n"...)
}

// AppendIndex appends the record of an index entry and a newline to b.
func AppendIndex(b []byte, x *sitemap.IndexEntry) []byte {
	b = append(b, `{"loc":`...)
	b = AppendString(b, x.Loc)
	if !x.LastMod.IsZero() {
		b = append(b, `,"lastmod":"`...)
		b = x.LastMod.AppendFormat(b)
		b = append(b, '"')
	}
	b = optString(b, `,"source":`, x.Source)
	return append(b, "}\n"...)
}

// field appends the member key (a quoted name and ':') with the value s
// to an object opened at b[:start], preceded by a comma unless it is the
// object's first member; an empty s is left out, as omitempty does.
func field(b []byte, start int, key, s string) []byte {
	if s == "" {
		return b
	}
	if len(b) > start {
		b = append(b, ',')
	}
	b = append(b, key...)
	return AppendString(b, s)
}

func optString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	b = append(b, key...)
	return AppendString(b, s)
}

// plainFloat reports whether encoding/json writes *p in 'f' form (or p is
// nil): it switches to exponent form outside [1e-6, 1e21).
func plainFloat(p *float64) bool {
	if p == nil {
		return true
	}
	a := math.Abs(*p)
	return !math.IsNaN(a) && !math.IsInf(a, 0) && (a == 0 || (a >= 1e-6 && a < 1e21))
}

func appendSlow(b []byte, u *sitemap.URL) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(u); err != nil {
		// Only NaN or ±Inf priorities fail to marshal; no reader or
		// decoder produces them. Write the record without it.
		c := *u
		c.Priority = nil
		return AppendURL(b, &c)
	}
	return append(b, buf.Bytes()...)
}

const hex = "0123456789abcdef"

// AppendString appends s as a JSON string, quoted and escaped as
// encoding/json does with HTML escaping off (invalid UTF-8 becomes
// U+FFFD; U+2028 and U+2029 are escaped).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
