package robots

import (
	"bytes"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/sitemapkit/sitemap/rules"
)

// maxCrawlDelay bounds a Crawl-delay value; larger values are clamped.
const maxCrawlDelay = 24 * time.Hour

type config struct {
	maxBytes int
}

// Option configures [Parse] and [ParseBytes].
type Option func(*config)

// WithMaxBytes sets how many bytes of the file are read. Values below
// [DefaultMaxBytes] are raised to it: RFC 9309 requires a limit of at least
// 500 KiB (RB-03, RB-12).
func WithMaxBytes(n int) Option {
	return func(c *config) {
		if n < DefaultMaxBytes {
			n = DefaultMaxBytes
		}
		c.maxBytes = n
	}
}

// SitemapLine is one `Sitemap:` record as written in the file.
type SitemapLine struct {
	Line  int    // 1-based line number
	Value string // the value with comment and surrounding whitespace removed
}

// File is a parsed robots.txt file. It is safe for concurrent use by several
// goroutines once Parse has returned.
type File struct {
	groups    []group
	sitemaps  []SitemapLine
	warnings  []Warning
	truncated bool
}

// group is one group as written: the user-agent lines that open it and the
// records that follow until the next user-agent line after a rule.
type group struct {
	line       int
	agents     []string // product tokens, as written; never "*"
	global     bool     // a "*" user-agent line is part of the group
	rules      []Rule
	crawlDelay time.Duration
	hasDelay   bool
}

// Parse reads a robots.txt file from r, at most [DefaultMaxBytes] bytes
// unless [WithMaxBytes] says otherwise, and parses it. The only error is a
// read error from r; every problem in the content becomes a [Warning].
func Parse(r io.Reader, opts ...Option) (*File, error) {
	c := config{maxBytes: DefaultMaxBytes}
	for _, o := range opts {
		o(&c)
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(c.maxBytes)+1))
	if err != nil {
		return nil, err
	}
	return parse(b, c.maxBytes), nil
}

// ParseBytes parses a robots.txt file held in memory; see [Parse]. Bytes
// after the limit are ignored, as Parse would not have read them.
func ParseBytes(b []byte, opts ...Option) *File {
	c := config{maxBytes: DefaultMaxBytes}
	for _, o := range opts {
		o(&c)
	}
	if len(b) > c.maxBytes+1 {
		b = b[:c.maxBytes+1]
	}
	return parse(b, c.maxBytes)
}

func parse(b []byte, max int) *File {
	f := &File{}
	if len(b) > max {
		f.truncated = true
		b = b[:max]
		// Drop the cut-off last line: half a rule could say something the
		// whole rule does not (RB-04 ignores everything after the limit).
		b = dropPartialLine(b)
		f.warn(0, rules.RB03, "file is larger than "+strconv.Itoa(max)+" bytes; the rest is ignored")
	}
	text, w := decode(b)
	if w != nil {
		f.warnings = append(f.warnings, *w)
	}
	skip := bomLen(text)
	if skip > 0 && skip < len(utf8BOM) {
		f.warn(1, rules.RB10, "file starts with an incomplete UTF-8 byte order mark; skipped")
	}
	text = text[skip:]

	var (
		cur       *group // group being filled, nil before the first user-agent
		separator bool   // a rule was seen since the last user-agent line
	)
	scanLines(text, func(num, start, end, _ int) {
		raw := text[start:end]
		if len(raw) > maxLineBytes {
			raw = raw[:maxLineBytes]
			f.warn(num, rules.RB10, "line longer than "+strconv.Itoa(maxLineBytes)+" bytes; the rest is ignored")
		}
		content := trimSpace(stripComment(raw))
		if len(content) == 0 {
			return
		}
		key, value, colon, ok := splitKeyValue(content)
		if !ok {
			f.warn(num, rules.RB10, "line has no \"key: value\" form; ignored")
			return
		}
		kind, typo := classifyKey(key)
		if typo {
			f.warn(num, rules.RB01, "misspelled key \""+string(key)+"\" read as \""+kind.String()+"\"")
		}
		if kind != keyUnknown && !colon {
			f.warn(num, rules.RB10, "missing ':' after \""+string(key)+"\"; read as \""+kind.String()+": "+string(value)+"\"")
		}
		switch kind {
		case keyUserAgent:
			if cur == nil || separator {
				f.groups = append(f.groups, group{line: num})
				cur = &f.groups[len(f.groups)-1]
				separator = false
			}
			if isGlobalAgent(value) {
				cur.global = true
			} else if tok := productToken(value); tok != "" {
				cur.agents = append(cur.agents, tok)
			} else {
				f.warn(num, rules.RB01, "user-agent \""+string(value)+"\" has no product token; it matches no crawler")
			}
		case keyAllow, keyDisallow:
			if cur == nil {
				f.warn(num, rules.RB01, kind.String()+" before any User-agent line; ignored")
				return
			}
			separator = true
			cur.addRule(kind == keyAllow, string(value), num)
		case keyCrawlDelay:
			if cur == nil {
				f.warn(num, rules.RB01, "Crawl-delay before any User-agent line; ignored")
				return
			}
			// Crawl-delay is an "other record": it does not end a group (RB-01).
			d, ok := parseDelay(string(value))
			if !ok {
				f.warn(num, rules.RB01, "Crawl-delay \""+string(value)+"\" is not a number of seconds; ignored")
				return
			}
			if d > maxCrawlDelay {
				f.warn(num, rules.RB01, "Crawl-delay "+string(value)+" clamped to 86400 seconds")
				d = maxCrawlDelay
			}
			if !cur.hasDelay || d > cur.crawlDelay {
				cur.crawlDelay, cur.hasDelay = d, true
			}
		case keySitemap:
			// Sitemap lines belong to no group and never end one (RB-01, RB-06).
			f.sitemaps = append(f.sitemaps, SitemapLine{Line: num, Value: string(value)})
		default:
			if (bytes.EqualFold(key, []byte("http")) || bytes.EqualFold(key, []byte("https"))) && bytes.HasPrefix(value, []byte("//")) {
				f.warn(num, rules.RB05, "bare URL without \"Sitemap:\"; ignored (write \"Sitemap: "+string(content)+"\")")
			}
		}
	})
	return f
}

func (f *File) warn(line int, rule rules.ID, msg string) {
	f.warnings = append(f.warnings, warning(line, rule, msg))
}

// Warnings returns the problems found while parsing, in line order (file-wide
// problems first).
func (f *File) Warnings() []Warning { return f.warnings }

// Truncated reports whether the file was longer than the parsing limit and
// its end was ignored (RB-03, RB-04).
func (f *File) Truncated() bool { return f.truncated }

// SitemapLines returns every `Sitemap:` record in file order, unresolved and
// with duplicates (see [File.Sitemaps] for the cleaned list).
func (f *File) SitemapLines() []SitemapLine { return f.sitemaps }

// isGlobalAgent reports whether a user-agent value is "*": Google also
// accepts "*" followed by whitespace and more text.
func isGlobalAgent(v []byte) bool {
	return len(v) >= 1 && v[0] == '*' && (len(v) == 1 || isSpace(v[1]))
}

// productToken returns the leading run of [A-Za-z_-] of a user-agent value
// ("Googlebot/2.1 (+http://…)" → "Googlebot"), as Google's ExtractUserAgent.
func productToken(v []byte) string {
	i := 0
	for i < len(v) {
		c := v[i]
		if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || c == '-' || c == '_' {
			i++
			continue
		}
		break
	}
	return string(v[:i])
}

func parseDelay(v string) (time.Duration, bool) {
	s, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		return 0, false
	}
	if s > maxCrawlDelay.Seconds() {
		return maxCrawlDelay + time.Second, true
	}
	return time.Duration(s * float64(time.Second)), true
}

func (g *group) addRule(allow bool, value string, line int) {
	p := escapePattern(value)
	g.rules = append(g.rules, compileRule(allow, p, line))
	if !allow {
		return
	}
	// Google: allowing ".../index.htm" or ".../index.html" also allows the
	// directory itself, as ".../$" (robots.cc HandleAllow).
	if i := lastSlash(p); i >= 0 && hasPrefix(p[i:], "/index.htm") {
		g.rules = append(g.rules, compileRule(true, p[:i+1]+"$", line))
	}
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// dropPartialLine cuts b after its last line ending; for UTF-16 (by BOM) it
// works in whole code units.
func dropPartialLine(b []byte) []byte {
	if !isUTF16(b) {
		if i := bytes.LastIndexAny(b, "\r\n"); i >= 0 {
			return b[:i+1]
		}
		return nil
	}
	le := b[0] == 0xFF
	for i := (len(b) &^ 1) - 2; i >= 2; i -= 2 {
		lo, hi := b[i], b[i+1]
		if !le {
			lo, hi = hi, lo
		}
		if hi == 0 && (lo == '\n' || lo == '\r') {
			return b[:i+2]
		}
	}
	return b[:2]
}
