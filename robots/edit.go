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

// ErrBinary is returned by [AddSitemap] and [RemoveSitemap] for a file with
// a NUL byte (and no UTF-16 byte order mark): binary data, such as an image
// or a gzip file, not a robots.txt, which is left as it is.
var ErrBinary = errors.New("holds binary data (a NUL byte), not a robots.txt; give the path of the site's robots.txt (a text file)")

// checkText is the error of editing src: [ErrUTF16], [ErrBinary] or nil.
func checkText(src []byte) error {
	switch {
	case isUTF16(src):
		return ErrUTF16
	case bytes.IndexByte(src, 0) >= 0:
		return ErrBinary
	}
	return nil
}

// CheckSitemapURL reports whether u can be written on a `Sitemap:` line: an
// absolute http(s) URL with a host (RB-05), without whitespace, control
// characters or '#', which would end the value, and short enough that the
// line is read whole: crawlers ignore what follows the first 16,664 bytes
// of a line (RB-10), so the URL is at most 16,655 bytes. A character that
// is already percent-encoded (%0A, %20) is fine.
func CheckSitemapURL(u string) error {
	if u == "" {
		return errors.New("sitemap URL is empty")
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == ' ' || c == 0x7f || c < ' ':
			return fmt.Errorf("sitemap URL %q contains %s at byte %d, which would end or break the line; write it percent-encoded, as %%%02X", u, charName(c), i+1, c)
		case c == '#':
			return fmt.Errorf("sitemap URL %q contains '#', which starts a comment in robots.txt (RB-10)", u)
		}
	}
	if n := len(sitemapKey) + len(u); n > maxLineBytes {
		return fmt.Errorf("sitemap URL is %d bytes; the line would be %d bytes, and crawlers read only the first %d bytes of a line, so it would be read back cut (RB-10); use a URL of at most %d bytes", len(u), n, maxLineBytes, maxLineBytes-len(sitemapKey))
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

// sitemapKey starts the line AddSitemap writes.
const sitemapKey = "Sitemap: "

// charName names a byte CheckSitemapURL refuses.
func charName(c byte) string {
	switch c {
	case ' ':
		return "a space"
	case '\t':
		return "a tab"
	case '\n':
		return "a line feed"
	case '\r':
		return "a carriage return"
	}
	return fmt.Sprintf("the control character 0x%02X", c)
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
// after the file's last non-blank line when that is already a Sitemap line,
// otherwise after it (blank lines at the end of the file stay at the end),
// separated from it by an empty line (RB-13). The new line ends as the line
// before it does, or as the file's first line does; in a file whose last
// line has no line ending, the new line has none either. So [RemoveSitemap]
// of the same URL gives src back byte for byte. When a Sitemap line with
// exactly this URL exists (key compared case-insensitively, URL exactly)
// src is returned unchanged and changed is false. The URL must pass
// [CheckSitemapURL]; src must be UTF-8 text ([ErrUTF16], [ErrBinary]). It is an error when the result would be larger than
// [DefaultMaxBytes], as Google would not read the new line (RB-04).
func AddSitemap(src []byte, sitemapURL string) (out []byte, changed bool, err error) {
	if err := CheckSitemapURL(sitemapURL); err != nil {
		return src, false, err
	}
	if err := checkText(src); err != nil {
		return src, false, err
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
	record := sitemapKey + sitemapURL
	// ending is the line ending of l, or the file's first one when l has
	// none (it is then the file's last line).
	ending := func(l editLine) string {
		if l.next > l.end {
			return string(src[l.end:l.next])
		}
		return detectEOL(src)
	}
	out = make([]byte, 0, len(src)+3*2+len(record))
	switch {
	case len(lines) == 0 || len(src) == bomLen(src):
		// Empty (or a byte order mark only).
		out = append(out, src...)
		out = append(out, record...)
		out = append(out, detectEOL(src)...)
	case last >= 0 && lines[last].sitemap:
		// Extend the trailing block of Sitemap lines: the new line takes
		// the line ending of the one before it, which moves after it.
		l := lines[last]
		out = append(out, src[:l.end]...)
		out = append(out, ending(l)...)
		out = append(out, record...)
		out = append(out, src[l.end:]...)
	default:
		// After the last non-blank line (or, in a file of blank lines,
		// after the last line), an empty line between.
		l := lines[len(lines)-1]
		if last >= 0 {
			l = lines[last]
		}
		eol := ending(l)
		out = append(out, src[:l.next]...)
		if l.next == l.end {
			// The file's last line has no line ending: neither has the
			// new one.
			out = append(out, eol...)
			out = append(out, eol...)
			out = append(out, record...)
			break
		}
		out = append(out, eol...)
		out = append(out, record...)
		out = append(out, eol...)
		out = append(out, src[l.next:]...)
	}
	if len(out) > DefaultMaxBytes {
		return src, false, fmt.Errorf("robots.txt would be %d bytes; lines after %s bytes are ignored by crawlers (RB-04)", len(out), strconv.Itoa(DefaultMaxBytes))
	}
	return out, true, nil
}

// RemoveSitemap removes every Sitemap line whose URL is exactly sitemapURL
// (key compared case-insensitively), each with its line ending, and keeps
// every other byte. When the line removed is the last non-blank one, the
// empty line that separated it from the lines above goes with it, and so
// does the line ending before it when it had none itself: the file is
// then as it was before [AddSitemap] added the line. changed is false when
// there is no such line. A UTF-16 or binary src is refused ([ErrUTF16],
// [ErrBinary]).
func RemoveSitemap(src []byte, sitemapURL string) (out []byte, changed bool, err error) {
	if err := checkText(src); err != nil {
		return src, false, err
	}
	lines := editLines(src)
	last := -1
	for i, l := range lines {
		if !l.blank {
			last = i
		}
	}
	empty := func(i int) bool { return i >= 0 && lines[i].start == lines[i].end }
	type cut struct{ from, to int }
	var cuts []cut
	for i, l := range lines {
		if !l.sitemap || l.value != sitemapURL {
			continue
		}
		c := cut{l.start, l.next}
		if i == last {
			switch {
			case l.next > l.end && empty(i-1):
				c.from = lines[i-1].start
			case l.next == l.end && empty(i-1) && i >= 2:
				c.from = lines[i-2].end
			case l.next == l.end && i >= 1 && lines[i-1].sitemap:
				c.from = lines[i-1].end
			}
		}
		if n := len(cuts); n > 0 && c.from <= cuts[n-1].to {
			cuts[n-1].from = min(cuts[n-1].from, c.from)
			cuts[n-1].to = c.to
			continue
		}
		cuts = append(cuts, c)
	}
	if len(cuts) == 0 {
		return src, false, nil
	}
	out = make([]byte, 0, len(src))
	pos := 0
	for _, c := range cuts {
		out = append(out, src[pos:c.from]...)
		pos = c.to
	}
	out = append(out, src[pos:]...)
	return out, true, nil
}
