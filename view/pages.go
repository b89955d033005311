package view

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/urlnorm"
)

//go:embed pages.tmpl
var pagesTmpl string

// DefaultTemplate returns the html/template Pages renders each page with
// unless PageOptions.Template replaces it, parsed anew at each call (so a
// caller may change its copy). It is executed with a [PageData]. A
// function, not a variable: parsing it costs hundreds of allocations,
// which every command of the program would pay at start-up.
func DefaultTemplate() *template.Template {
	return template.Must(template.New("page").Funcs(templateFuncs).Parse(pagesTmpl))
}

// templateFuncs are the functions page templates may call: group writes
// a number with thousands separators (100000 is "100,000").
var templateFuncs = template.FuncMap{"group": group}

func group(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + group(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// natKey returns s with each run of digits written so that byte order
// is the order people count in (page-2 before page-10): "0", its length
// without leading zeros in three digits, then those digits. Runs longer
// than 999 digits are kept as they are.
func natKey(s string) string {
	if !strings.ContainsAny(s, "0123456789") {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			b = append(b, s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && '0' <= s[j] && s[j] <= '9' {
			j++
		}
		d := strings.TrimLeft(s[i:j], "0")
		if len(d) > 999 {
			b = append(b, s[i:j]...)
		} else {
			b = append(b, '0', byte('0'+len(d)/100), byte('0'+len(d)/10%10), byte('0'+len(d)%10))
			b = append(b, d...)
		}
		i = j
	}
	return string(b)
}

// DefaultPerPage is the number of links on a page of [Pages] when
// PageOptions.PerPage is 0: as many as a person scrolls through.
const DefaultPerPage = 200

// PageOptions configure [Pages].
type PageOptions struct {
	// Title is the h1 of every page; "Site map" when empty.
	Title string
	// Lang is the pages' language; "en" when empty.
	Lang string
	// PerPage is the most links on one page (0: DefaultPerPage).
	PerPage int
	// CSS replaces DefaultCSS in the default template.
	CSS string
	// Template replaces DefaultTemplate.
	Template *template.Template
	// Titles, when set, gives the title of a page whose entry has none
	// (sitemap.URL.Title: a CSV or JSONL title column); a crawl knows
	// them. "" falls back to a readable form of the URL's path.
	Titles func(ctx context.Context, loc string) (string, error)
	// TempDir is where the sort spills (default: the system's); Memory
	// the URLs sorted in memory before it does (default 200,000).
	TempDir string
	Memory  int
}

// PageData is what a page template is executed with.
type PageData struct {
	Title string
	Lang  string
	CSS   template.CSS
	// Number is the page's number (1-based); Pages the number of pages.
	Number, Pages int
	// Name is the page's file name; Prev and Next the neighbours' ("" at
	// the ends).
	Name, Prev, Next string
	Sections         []PageSection
	// First and Last number the links of the page among all (1-based);
	// Links is the number of them all.
	First, Last, Links int
	// Nav lists the pages to link to by number: the first and last two,
	// and two on each side of this one; a zero Number is a gap ("…").
	Nav []PageRef
}

// PageRef is a page of the site map in PageData.Nav.
type PageRef struct {
	// Number is the page's number (0: a gap between the numbers listed);
	// Name its file name; Current is set for the page it is on.
	Number  int
	Name    string
	Current bool
}

// pageNav returns PageData.Nav of page n of pages.
func pageNav(n, pages int) []PageRef {
	if pages < 2 {
		return nil
	}
	var nav []PageRef
	for i := 1; i <= pages; i++ {
		if i > 2 && i < pages-1 && (i < n-2 || i > n+2) {
			if nav[len(nav)-1].Number != 0 {
				nav = append(nav, PageRef{})
			}
			continue
		}
		nav = append(nav, PageRef{Number: i, Name: PageName(i), Current: i == n})
	}
	return nav
}

// PageSection is a section on a page: its heading and links.
type PageSection struct {
	// Heading is the section in words ("Blog › 2026"); Path its URL.
	Heading, Path string
	// Continued is set when the section began on an earlier page.
	Continued bool
	Links     []PageLink
}

// PageLink is one page of the site.
type PageLink struct {
	URL, Text string
}

// PagesSummary is what [Pages] wrote.
type PagesSummary struct {
	// Pages is the number of files written; Links the URLs listed;
	// Skipped the entries that are not http(s) URLs.
	Pages, Links, Skipped int
}

// PageName is the file name of page n: index.html, page-2.html, …
func PageName(n int) string {
	if n == 1 {
		return "index.html"
	}
	return "page-" + strconv.Itoa(n) + ".html"
}

// Pages writes a site map for a site's visitors: its pages as links
// grouped under a heading per section (the URL's path up to its last
// "/"), sections in path order, PerPage links a page, each page a file
// (PageName) created through create and closed by Pages (or, when its
// page failed and it has an Abort method, aborted). A section that
// does not fit on one page continues on the next under its heading. Every
// page is self-contained (stylesheet inline, no script) and accessible:
// landmarks, one h1, h2 per section, lists of links, pages linked in a
// nav. Entries are sorted in bounded memory (a spill to TempDir past
// Memory URLs); a template error, a write error or ctx stops the run.
func Pages(ctx context.Context, entries sitemap.Entries, create func(name string) (io.WriteCloser, error), o PageOptions) (PagesSummary, error) {
	var sum PagesSummary
	if o.PerPage <= 0 {
		o.PerPage = DefaultPerPage
	}
	if o.Memory <= 0 {
		o.Memory = 200_000
	}
	if o.Title == "" {
		o.Title = "Site map"
	}
	if o.Lang == "" {
		o.Lang = "en"
	}
	if o.CSS == "" {
		o.CSS = DefaultCSS
	}
	tmpl := o.Template
	if tmpl == nil {
		tmpl = DefaultTemplate()
	}
	s := newSorter(o.Memory, o.TempDir)
	defer s.close()
	sites := map[string]bool{}
	total := 0
	err := entries(ctx, func(u *sitemap.URL) error {
		site, dir, ok := sectionOf(u.Loc)
		if !ok || strings.ContainsAny(u.Loc, "\n\x00") {
			sum.Skipped++
			return nil
		}
		if len(sites) < 2 {
			sites[site] = true
		}
		// Sections in path order, a section's own pages before its
		// subsections, numbers in natural order: the key is the
		// section's and the URL's natKey, then the section and the URL
		// themselves, NUL between.
		total++
		sec := site + dir
		return s.add(natKey(sec) + "\x00" + natKey(u.Loc) + "\x00" + sec + "\x00" + u.Loc + "\x00" + linkTitle(u.Title))
	})
	if err != nil {
		return sum, err
	}
	w := &pageWriter{ctx: ctx, o: o, tmpl: tmpl, create: create, sum: &sum, several: len(sites) > 1,
		links: total, pages: max(1, (total+o.PerPage-1)/o.PerPage)}
	err = s.each(ctx, func(rec string) error {
		_, rec, _ = strings.Cut(rec, "\x00")
		_, rec, _ = strings.Cut(rec, "\x00")
		sec, rec, _ := strings.Cut(rec, "\x00")
		loc, title, _ := strings.Cut(rec, "\x00")
		return w.add(sec, loc, title)
	})
	if err == nil {
		err = w.flush(true)
	}
	return sum, err
}

// linkTitle is an entry's title as a link text: white space collapsed,
// NUL (the sort record's separator) and other control characters out.
func linkTitle(t string) string {
	if t == "" {
		return ""
	}
	return strings.Join(strings.FieldsFunc(t, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}

// pageWriter collects the links of one page and writes it when full.
type pageWriter struct {
	ctx     context.Context
	o       PageOptions
	tmpl    *template.Template
	create  func(string) (io.WriteCloser, error)
	sum     *PagesSummary
	several bool // URLs of several sites: headings name the site
	links   int  // links on all pages
	pages   int  // pages in all

	page    PageData
	n       int    // links on the page
	lastSec string // section of the last link written
}

func (w *pageWriter) add(sec, loc, title string) error {
	if w.n == w.o.PerPage {
		if err := w.flush(false); err != nil {
			return err
		}
	}
	if w.n == 0 {
		w.page = PageData{Title: w.o.Title, Lang: w.o.Lang, CSS: template.CSS(w.o.CSS), Number: w.sum.Pages + 1, First: w.sum.Links + 1,
			Links: w.links, Pages: w.pages}
		w.page.Name = PageName(w.page.Number)
		w.page.Nav = pageNav(w.page.Number, w.pages)
		if w.page.Number > 1 {
			w.page.Prev = PageName(w.page.Number - 1)
		}
	}
	if len(w.page.Sections) == 0 || w.page.Sections[len(w.page.Sections)-1].Path != sec {
		w.page.Sections = append(w.page.Sections, PageSection{Heading: heading(sec, w.several), Path: sec, Continued: sec == w.lastSec})
	}
	if title == "" && w.o.Titles != nil {
		t, err := w.o.Titles(w.ctx, loc)
		if err != nil {
			return err
		}
		title = strings.TrimSpace(t)
	}
	if title == "" {
		title = readable(loc, sec)
	}
	cur := &w.page.Sections[len(w.page.Sections)-1]
	cur.Links = append(cur.Links, PageLink{URL: loc, Text: title})
	w.lastSec = sec
	w.n++
	w.sum.Links++
	return nil
}

// flush writes the page collected; last says no page follows.
func (w *pageWriter) flush(last bool) error {
	if w.n == 0 {
		if w.sum.Pages == 0 && last {
			// No URL at all: one page that says so.
			w.page = PageData{Title: w.o.Title, Lang: w.o.Lang, CSS: template.CSS(w.o.CSS), Number: 1, Name: PageName(1), Pages: 1}
			return w.write()
		}
		return nil
	}
	w.page.Last = w.sum.Links
	if !last {
		w.page.Next = PageName(w.page.Number + 1)
	}
	err := w.write()
	w.n = 0
	return err
}

func (w *pageWriter) write() error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	f, err := w.create(w.page.Name)
	if err != nil {
		return err
	}
	err = w.tmpl.Execute(f, &w.page)
	if a, ok := f.(interface{ Abort() }); ok && err != nil {
		a.Abort()
	} else if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", w.page.Name, err)
	}
	w.sum.Pages++
	return nil
}

// sectionOf returns the site and section path of an http(s) URL.
func sectionOf(loc string) (site, dir string, ok bool) {
	if !urlnorm.IsHTTP(loc) {
		return "", "", false
	}
	i := strings.Index(loc, "://") + 3
	j := strings.IndexAny(loc[i:], "/?#")
	if j == 0 {
		return "", "", false
	}
	if j < 0 {
		return loc, "/", true
	}
	site, p := loc[:i+j], loc[i+j:]
	if k := strings.IndexAny(p, "?#"); k >= 0 {
		p = p[:k]
	}
	if p == "" {
		p = "/"
	}
	return site, p[:strings.LastIndexByte(p, '/')+1], true
}

// heading is a section in words: "Home" for the root, else its segments
// made readable and joined by " › "; the site first when several.
func heading(sec string, several bool) string {
	i := strings.Index(sec, "://") + 3
	j := strings.IndexByte(sec[i:], '/')
	site, p := sec[:i+j], sec[i+j:]
	var parts []string
	for _, seg := range strings.Split(strings.Trim(p, "/"), "/") {
		if seg != "" {
			parts = append(parts, words(seg))
		}
	}
	h := "Home"
	if len(parts) > 0 {
		h = strings.Join(parts, " › ")
	}
	if several {
		h = site[i:] + ": " + h
	}
	return h
}

// readable is the link text of a page without a title: its last path
// segment in words (without a file extension), the section's name for
// the section's own index page, with its query after it.
func readable(loc, sec string) string {
	_, path, _ := strings.Cut(loc[strings.Index(loc, "://")+3:], "/")
	path, query, _ := strings.Cut(path, "?")
	path, _, _ = strings.Cut(path, "#")
	name := path[strings.LastIndexByte(path, '/')+1:]
	var s string
	if name == "" {
		s = heading(sec, false)
		if k := strings.LastIndex(s, " › "); k >= 0 {
			s = s[k+len(" › "):]
		}
	} else {
		if k := strings.LastIndexByte(name, '.'); k > 0 && len(name)-k <= 5 {
			name = name[:k]
		}
		s = words(name)
	}
	if query != "" {
		if q, err := url.QueryUnescape(query); err == nil && utf8.ValidString(q) {
			query = q
		}
		s += " (" + query + ")"
	}
	return s
}

// words turns a path segment into words: percent-decoded when that gives
// text, '-', '_' and '+' as spaces, the first letter upper case.
func words(seg string) string {
	if u, err := url.PathUnescape(seg); err == nil && utf8.ValidString(u) && !strings.ContainsFunc(u, unicode.IsControl) {
		seg = u
	}
	seg = strings.Join(strings.FieldsFunc(seg, func(r rune) bool { return r == '-' || r == '_' || r == '+' || unicode.IsSpace(r) }), " ")
	if seg == "" {
		return "Page"
	}
	r, n := utf8.DecodeRuneInString(seg)
	return string(unicode.ToUpper(r)) + seg[n:]
}

// ErrNoTemplate is returned by ParseTemplate for a file without a
// template.
var ErrNoTemplate = errors.New("the file holds no template")

// ParseTemplate parses a page template (html/template) from text, with
// the name of the file it came from.
func ParseTemplate(name, text string) (*template.Template, error) {
	if strings.TrimSpace(text) == "" {
		return nil, ErrNoTemplate
	}
	return template.New(name).Funcs(templateFuncs).Parse(text)
}
