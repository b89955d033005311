package graph

import (
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
)

// label is a node's name cut to at most max runes, with "…" when cut.
func label(n *Node, max int) string {
	s := n.Name
	if n.Parent != nil && n.More == 0 {
		s += "/"
	}
	r := []rune(s)
	if len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// xmlText returns s escaped for XML text and attribute values, with the
// characters XML 1.0 cannot hold (controls, invalid UTF-8) replaced by
// U+FFFD.
func xmlText(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '&' || c == '<' || c == '>' || c == '"' || c == '\'' || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xFFFE, r == 0xFFFF, r >= 0xD800 && r <= 0xDFFF:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// summary is a node's counts in words, for tooltips and labels.
func summary(n *Node) string {
	s := plural.Of(n.Total.Pages, "page", "pages")
	if n.Total.Pages != n.Here && n.More == 0 {
		s += " (" + progress.Group(int64(n.Here)) + " here)"
	}
	if !n.Total.Newest.IsZero() {
		s += ", newest " + n.Total.Newest.String()
	}
	for _, c := range []struct {
		n         int
		one, many string
	}{{n.Total.Images, "image", "images"}, {n.Total.Videos, "video", "videos"}, {n.Total.News, "news article", "news articles"}, {n.Total.Hreflang, "hreflang alternate", "hreflang alternates"}} {
		if c.n > 0 {
			s += ", " + plural.Of(c.n, c.one, c.many)
		}
	}
	if n.More > 0 {
		s += "; " + plural.Of(n.More, "section", "sections") + " not drawn"
	}
	if n.Hidden > 0 {
		s += "; " + plural.Of(n.Hidden, "section", "sections") + " below not drawn"
	}
	return s
}

// linkSummary is the link view's counts of a section in words, after
// its summary ("" outside a link view).
func linkSummary(l *LinkStats) string {
	if l == nil {
		return ""
	}
	s := "; " + plural.Of(l.Inlinks, "inlink", "inlinks")
	if l.Depth >= 0 {
		s += ", click depth " + strconv.Itoa(l.Depth)
	}
	return s + ", " + plural.Of(l.Orphans, "orphan", "orphans") + ", " + progress.Group(int64(l.Missing)) + " missing, " + progress.Group(int64(l.Left)) + " left out"
}
