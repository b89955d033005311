package robots

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strconv"
)

// ErrUTF16 is returned by [AddSitemap] and [RemoveSitemap] for a UTF-16
// file: robots.txt must be UTF-8 (RB-02), and editing it byte-exactly in
// another encoding is not supported.
var ErrUTF16 = errors.New("robots.txt is UTF-16; convert it to UTF-8 (RB-02) before editing")

// CheckSitemapURL reports whether u can be written on a `Sitemap:` line: an
// absolute http(s) URL with a host (RB-05), without whitespace, control
// characters or '#', which would end the value (RB-10).
func CheckSitemapURL(u string) error {
	if u == "" {
		return errors.New("sitemap URL is empty")
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c <= ' ' || c == 0x7f:
			return fmt.Errorf("sitemap URL %q contains whitespace or a control character; percent-encode it", u)
		case c == '#':
			return fmt.Errorf("sitemap URL %q contains '#', which starts a comment in robots.txt (RB-10)", u)
		}
	}
	p, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("sitemap URL %q: %v", u, err)
	}
	if p.Scheme != "http" && p.Scheme != "https" || p.Host == "" {
		return fmt.Errorf("sitemap URL %q is not an absolute http(s) URL; write https://host/… (RB-05)", u)
	}
	return nil
}

// detectEOL returns the first line ending in src, or "\n" if it has none.
func detectEOL(src []byte) string {
	i := bytes.IndexAny(src, "\r\n")
	switch {
	case i < 0 || src[i] == '\n':
		return "\n"
	case i+1 < len(src) && src[i+1] == '\n':
		return "\r\n"
	}
	return "\r"
}

// editLine is one line of a file being edited.
type editLine struct {
	start, end, next int // content src[start:end] (BOM excluded), line ending up to next
	blank            bool
	sitemap          bool
	value            string
}

func editLines(src []byte) []editLine {
	skip := bomLen(src)
	var lines []editLine
	scanLines(src, func(num, start, end, next int) {
		if num == 1 {
			start += skip
			if start > end {
				// The BOM prefix ran into the line ending (cannot happen: BOM
				// bytes are not CR or LF), keep the offsets sane anyway.
				start = end
			}
		}
		l := editLine{start: start, end: end, next: next}
		raw := src[start:end]
		l.blank = len(trimSpace(raw)) == 0
		if key, value, _, ok := splitKeyValue(stripComment(raw)); ok {
			if kind, _ := classifyKey(key); kind == keySitemap {
				l.sitemap = true
				l.value = string(value)
			}
		}
		lines = append(lines, l)
	})
	return lines
}

// AddSitemap adds the line "Sitemap: sitemapURL" to the robots.txt file src
// and returns the new file. Every byte of src is kept: the line goes right
// after the file's last line when that is already a Sitemap line, otherwise
// at the end after the groups, separated by a blank line (RB-13). The file's
// line-ending style is used. When a Sitemap line with exactly this URL exists
// (key compared case-insensitively, URL exactly) src is returned unchanged and
// changed is false. The URL must pass [CheckSitemapURL]. It is an error when
// the result would be larger than [DefaultMaxBytes], as Google would not read
// the new line (RB-04).
func AddSitemap(src []byte, sitemapURL string) (out []byte, changed bool, err error) {
	if err := CheckSitemapURL(sitemapURL); err != nil {
		return src, false, err
	}
	if isUTF16(src) {
		return src, false, ErrUTF16
	}
	lines := editLines(src)
	last := -1
	for i, l := range lines {
		if l.sitemap && l.value == sitemapURL {
			return src, false, nil
		}
		if !l.blank {
			last = i
		}
	}
	eol := detectEOL(src)
	record := "Sitemap: " + sitemapURL
	switch {
	case last >= 0 && lines[last].sitemap:
		// Extend the trailing block of Sitemap lines.
		at := lines[last].end
		out = make([]byte, 0, len(src)+len(eol)+len(record))
		out = append(out, src[:at]...)
		out = append(out, eol...)
		out = append(out, record...)
		out = append(out, src[at:]...)
	default:
		out = make([]byte, 0, len(src)+3*len(eol)+len(record))
		out = append(out, src...)
		if n := len(src); n > bomLen(src) && src[n-1] != '\n' && src[n-1] != '\r' {
			out = append(out, eol...)
		}
		if last >= 0 && lines[last].next == len(src) {
			// The last non-blank line ends the file: add the blank separator.
			out = append(out, eol...)
		}
		out = append(out, record...)
		out = append(out, eol...)
	}
	if len(out) > DefaultMaxBytes {
		return src, false, fmt.Errorf("robots.txt would be %d bytes; lines after %s bytes are ignored by crawlers (RB-04)", len(out), strconv.Itoa(DefaultMaxBytes))
	}
	return out, true, nil
}

// RemoveSitemap removes every Sitemap line whose URL is exactly sitemapURL
// (key compared case-insensitively), each with its line ending, and keeps
// every other byte. changed is false when there is no such line.
func RemoveSitemap(src []byte, sitemapURL string) (out []byte, changed bool, err error) {
	if isUTF16(src) {
		return src, false, ErrUTF16
	}
	lines := editLines(src)
	pos := 0
	for _, l := range lines {
		if !l.sitemap || l.value != sitemapURL {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(src))
		}
		out = append(out, src[pos:l.start]...)
		pos = l.next
		changed = true
	}
	if !changed {
		return src, false, nil
	}
	out = append(out, src[pos:]...)
	return out, true, nil
}
