package view

import (
	"context"
	"io"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Options configure the view of one document. The zero value is ready to
// use.
type Options struct {
	// Title is the page's h1 and <title>; "Sitemap" (or "Sitemap index")
	// when empty.
	Title string
	// Self is the URL of the XML form of the document (the file or URL the
	// view shows): linked as "the XML" for people who want it. Empty: no
	// link.
	Self string
	// Lang is the language of the page (the lang attribute); "en" when
	// empty.
	Lang string
	// CSS replaces the default stylesheet ([DefaultCSS]), inlined in a
	// <style> element ("</style" in it is refused by escaping its "<").
	CSS string
	// Prev and Next are the URLs of the previous and next page of a paged
	// document (serve's keyset pages), linked in a nav landmark. Empty:
	// no link.
	Prev, Next string
	// Start is the number of the first entry minus one (0 for the first
	// page), so entries are numbered across pages.
	Start int
}

// IndexEntries is a stream of the entries of a sitemap index, in the
// module's push shape (see sitemap.Entries): yield is called once per
// entry, in order; the *IndexEntry is only read during the call.
type IndexEntries func(ctx context.Context, yield func(*sitemap.IndexEntry) error) error

// IndexList returns the stream of a slice of index entries.
func IndexList(list []sitemap.IndexEntry) IndexEntries {
	return func(ctx context.Context, yield func(*sitemap.IndexEntry) error) error {
		for i := range list {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := yield(&list[i]); err != nil {
				return err
			}
		}
		return nil
	}
}

// URLSet writes the HTML view of a sitemap (a urlset) to w: a table of its
// entries, each URL a link, with lastmod, changefreq, priority, the number
// of images, videos and hreflang alternates, and the news title; then how
// many entries there were. It returns the first error of entries, of w, or
// of ctx (checked between entries).
func URLSet(ctx context.Context, w io.Writer, entries sitemap.Entries, o Options) error {
	p := newPage(w, o, "Sitemap")
	p.head()
	p.s(`<p class="lead">A sitemap: the pages of a site, as search engines read them.`)
	p.self()
	p.s("</p>\n")
	p.nav()
	p.s(`<table><caption>Pages listed in this sitemap</caption>` + "\n" +
		`<thead><tr><th scope="col" class="n">#</th><th scope="col">URL</th><th scope="col">Last modified</th>` +
		`<th scope="col">Change freq.</th><th scope="col" class="n">Priority</th><th scope="col" class="n">Images</th>` +
		`<th scope="col" class="n">Videos</th><th scope="col" class="n">Alternates</th><th scope="col">News</th></tr></thead>` + "\n<tbody>\n")
	n := 0
	err := entries(ctx, func(u *sitemap.URL) error {
		if n&255 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		n++
		p.s(`<tr><td class="n">`)
		p.int(o.Start + n)
		p.s(`</td><td class="loc">`)
		p.link(u.Loc)
		p.s(`</td><td class="date">`)
		if !u.LastMod.IsZero() {
			p.b = u.LastMod.AppendFormat(p.b)
		}
		p.s(`</td><td>`)
		p.text(string(u.ChangeFreq))
		p.s(`</td><td class="n">`)
		if u.Priority != nil {
			p.s(sitemap.FormatPriority(*u.Priority))
		}
		p.s(`</td><td class="n">`)
		p.count(len(u.Images))
		p.s(`</td><td class="n">`)
		p.count(len(u.Videos))
		p.s(`</td><td class="n">`)
		p.count(len(u.Alternates))
		p.s(`</td><td>`)
		if u.News != nil {
			p.text(u.News.Title)
		}
		p.s("</td></tr>\n")
		return p.flushIfFull()
	})
	p.s("</tbody></table>\n")
	p.footer(n, "URL", "URLs")
	return p.finish(err)
}

// Index writes the HTML view of a sitemap index to w: a table of its child
// sitemaps, each a link, with its lastmod; then how many there were.
// Errors as for [URLSet].
func Index(ctx context.Context, w io.Writer, children IndexEntries, o Options) error {
	p := newPage(w, o, "Sitemap index")
	p.head()
	p.s(`<p class="lead">A sitemap index: the sitemaps of a site, each listing its pages.`)
	p.self()
	p.s("</p>\n")
	p.nav()
	p.s(`<table><caption>Sitemaps listed in this index</caption>` + "\n" +
		`<thead><tr><th scope="col" class="n">#</th><th scope="col">Sitemap</th><th scope="col">Last modified</th></tr></thead>` + "\n<tbody>\n")
	n := 0
	err := children(ctx, func(e *sitemap.IndexEntry) error {
		if n&255 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		n++
		p.s(`<tr><td class="n">`)
		p.int(o.Start + n)
		p.s(`</td><td class="loc">`)
		p.link(e.Loc)
		p.s(`</td><td class="date">`)
		if !e.LastMod.IsZero() {
			p.b = e.LastMod.AppendFormat(p.b)
		}
		p.s("</td></tr>\n")
		return p.flushIfFull()
	})
	p.s("</tbody></table>\n")
	p.footer(n, "sitemap", "sitemaps")
	return p.finish(err)
}

// page is the buffered writer of one HTML page. Writes go to b, flushed
// to w past 32 KiB; the first write error is kept and returned by finish.
type page struct {
	w     io.Writer
	b     []byte
	err   error
	o     Options
	title string
}

func newPage(w io.Writer, o Options, title string) *page {
	if o.Title != "" {
		title = o.Title
	}
	return &page{w: w, b: make([]byte, 0, 40<<10), o: o, title: title}
}

func (p *page) s(s string) { p.b = append(p.b, s...) }

func (p *page) int(n int) { p.b = strconv.AppendInt(p.b, int64(n), 10) }

func (p *page) count(n int) {
	if n > 0 {
		p.int(n)
	}
}

// text appends s escaped for HTML text and attribute values.
func (p *page) text(s string) { p.b = appendEscaped(p.b, s) }

// link appends s as a link when it is an http(s) URL, else as text.
func (p *page) link(s string) {
	if !urlnorm.IsHTTP(s) {
		p.text(s)
		return
	}
	p.s(`<a href="`)
	p.text(s)
	p.s(`">`)
	p.text(s)
	p.s(`</a>`)
}

func (p *page) head() {
	lang := p.o.Lang
	if lang == "" {
		lang = "en"
	}
	p.s("<!doctype html>\n<html lang=\"")
	p.text(lang)
	p.s("\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>")
	p.text(p.title)
	p.s("</title>\n<style>\n")
	css := p.o.CSS
	if css == "" {
		css = DefaultCSS
	}
	p.s(safeCSS(css))
	p.s("\n</style>\n</head>\n<body>\n<header>\n<h1>")
	p.text(p.title)
	p.s("</h1>\n</header>\n<main>\n")
}

func (p *page) self() {
	if urlnorm.IsHTTP(p.o.Self) || (p.o.Self != "" && !strings.Contains(p.o.Self, ":")) {
		p.s(` <a href="`)
		p.text(p.o.Self)
		p.s(`">The XML</a> is what they read.`)
	}
}

func (p *page) nav() {
	if p.o.Prev == "" && p.o.Next == "" {
		return
	}
	p.s(`<nav aria-label="Pages"><ul class="pager">`)
	if p.o.Prev != "" {
		p.s(`<li><a rel="prev" href="`)
		p.text(p.o.Prev)
		p.s(`">Previous page</a></li>`)
	}
	if p.o.Next != "" {
		p.s(`<li><a rel="next" href="`)
		p.text(p.o.Next)
		p.s(`">Next page</a></li>`)
	}
	p.s("</ul></nav>\n")
}

func (p *page) footer(n int, one, many string) {
	p.s("</main>\n<footer>\n<p>")
	p.int(n)
	if n == 1 {
		p.s(" " + one)
	} else {
		p.s(" " + many)
	}
	if p.o.Start > 0 {
		p.s(" on this page")
	}
	p.s(".</p>\n</footer>\n</body>\n</html>\n")
}

func (p *page) flushIfFull() error {
	if len(p.b) < 32<<10 || p.err != nil {
		return p.err
	}
	_, p.err = p.w.Write(p.b)
	p.b = p.b[:0]
	return p.err
}

// finish writes what is buffered and returns err (the stream's), else the
// first write error.
func (p *page) finish(err error) error {
	if p.err == nil {
		_, p.err = p.w.Write(p.b)
	}
	p.b = p.b[:0]
	if err != nil {
		return err
	}
	return p.err
}

// appendEscaped appends s with &, <, >, " and ' escaped.
func appendEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		default:
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, esc...)
		last = i + 1
	}
	return append(b, s[last:]...)
}

// safeCSS keeps a stylesheet from closing its <style> element early.
func safeCSS(css string) string {
	if !strings.Contains(css, "<") {
		return css
	}
	return strings.ReplaceAll(css, "<", `\3c `)
}
