// Package graph draws a site's structure: a tree of sections by URL path,
// with the number of pages, the newest lastmod and the image, video, news
// and hreflang counts of every section ([Build], [Tree]); drawn as SVG
// with a tidy-tree layout computed here in O(n) ([Tree.SVG]), as Graphviz
// DOT ([Tree.DOT]), as JSON ([Tree.JSON]), or as one self-contained
// interactive HTML map ([Tree.HTML]). [Links] adds the internal link graph
// of a crawl.
//
// # Sections
//
// A URL's section is its path up to its last "/": https://ex.com/blog/a
// is a page of the section /blog/, and https://ex.com/blog/ the index page
// of /blog/ itself. The query is part of the page, not of the section. The
// root is the site (scheme and host); URLs of several sites hang under one
// root named by the number of sites.
//
// # Bounds
//
// Building holds sections, not pages: at most Options.MaxSections of them
// (a URL that would open one more is counted in its deepest section
// already held, and Tree.Folded says how many were), at most MaxDepth
// levels deep, and up to MaxPages pages per section for listing, MaxKept
// in all. Memory
// therefore has a ceiling whatever the number of URLs. Drawing shows at
// most MaxNodes sections; past that the smaller sections of a level are
// aggregated into "+N more" nodes that carry their counts ([Tree.Limit]).
package graph

import (
	"context"
	"net/url"
	"sort"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
)

// Defaults of Options.
const (
	DefaultMaxSections = 100_000
	DefaultMaxDepth    = 32
	DefaultMaxPages    = 50
	DefaultMaxNodes    = 2000
	DefaultMaxKept     = 100_000
)

// Options bound a Tree. Zero values take the defaults above.
type Options struct {
	// MaxSections is the most sections held while building.
	MaxSections int
	// MaxDepth is the most path levels below the site; deeper sections
	// count in the one at MaxDepth.
	MaxDepth int
	// MaxPages is how many pages of each section are kept to list (the
	// first ones read); the counts include them all.
	MaxPages int
	// MaxKept is how many pages are kept to list in all (default
	// 100,000): the pages of sections first reached past it are counted,
	// not listed.
	MaxKept int
}

func (o *Options) defaults() {
	if o.MaxSections <= 0 {
		o.MaxSections = DefaultMaxSections
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxKept <= 0 {
		o.MaxKept = DefaultMaxKept
	}
	if o.MaxPages < 0 {
		o.MaxPages = 0
	} else if o.MaxPages == 0 {
		o.MaxPages = DefaultMaxPages
	}
}

// Stats are the counts of a section and everything below it.
type Stats struct {
	// Pages is the number of URLs.
	Pages int `json:"pages"`
	// Images, Videos and Hreflang count the extension entries of those
	// URLs; News the URLs with a news block.
	Images   int `json:"images,omitempty"`
	Videos   int `json:"videos,omitempty"`
	News     int `json:"news,omitempty"`
	Hreflang int `json:"hreflang,omitempty"`
	// Newest is the latest lastmod among them (zero: none has one).
	Newest sitemap.Date `json:"newest,omitzero"`
}

func (s *Stats) add(o *Stats) {
	s.Pages += o.Pages
	s.Images += o.Images
	s.Videos += o.Videos
	s.News += o.News
	s.Hreflang += o.Hreflang
	if !o.Newest.IsZero() && (s.Newest.IsZero() || o.Newest.Time.After(s.Newest.Time)) {
		s.Newest = o.Newest
	}
}

// Page is one page kept for listing.
type Page struct {
	Loc     string       `json:"loc"`
	Title   string       `json:"title,omitempty"`
	LastMod sitemap.Date `json:"lastmod,omitzero"`
}

// Node is one section.
type Node struct {
	// Name is the path segment ("blog"), the site ("https://ex.com") for
	// a site's root, or "+N more" for an aggregate.
	Name string
	// Path is the section's URL (https://ex.com/blog/); empty for an
	// aggregate and for the root of several sites.
	Path string
	// Total counts the section and everything below it; Here its own
	// pages only.
	Total Stats
	Here  int
	// Pages are the first pages of the section itself (Options.MaxPages).
	Pages []Page
	// More, for an aggregate node, is how many sections it stands for.
	More int
	// Hidden is how many sections below this one are not drawn (Limit).
	Hidden   int
	Children []*Node
	Parent   *Node

	// Link is the link view's counts of the section and everything
	// below it (nil outside a link view); Marks are its flagged pages
	// (up to Options.MaxPages), Flagged the number of them all.
	Link    *LinkStats
	Marks   []Mark
	Flagged int

	kids  map[string]*Node
	depth int
	src   *Node // the tree node a Limit copy was made from
}

// Tree is the section tree of a set of URLs.
type Tree struct {
	Root *Node
	// URLs is the number of entries added; Skipped those that are not
	// http(s) URLs (not counted anywhere else).
	URLs, Skipped int
	// Sections is the number of sections held (the root included).
	Sections int
	// Folded is the number of URLs counted in an ancestor of their section
	// because of MaxSections or MaxDepth.
	Folded int

	o      Options
	kept   int // pages kept in all
	sites  map[string]*Node
	sealed bool
}

// New returns an empty tree bounded by o.
func New(o Options) *Tree {
	o.defaults()
	return &Tree{o: o, sites: map[string]*Node{}, Root: &Node{}}
}

// Build reads entries into a new tree. It returns the entries' error, or
// ctx's.
func Build(ctx context.Context, entries sitemap.Entries, o Options) (*Tree, error) {
	t := New(o)
	n := 0
	err := entries(ctx, func(u *sitemap.URL) error {
		if n++; n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		t.Add(u)
		return nil
	})
	if err != nil {
		return nil, err
	}
	t.Seal()
	return t, nil
}

// splitURL returns the site (scheme://host) and the path of an http(s)
// URL, ok false for anything else.
func splitURL(loc string) (site, path string, ok bool) {
	i := strings.Index(loc, "://")
	if i < 4 || i > 5 || !strings.EqualFold(loc[:i], "http") && !strings.EqualFold(loc[:i], "https") {
		return "", "", false
	}
	rest := loc[i+3:]
	j := strings.IndexAny(rest, "/?#")
	if j < 0 {
		if rest == "" {
			return "", "", false
		}
		return loc, "/", true
	}
	if j == 0 {
		return "", "", false
	}
	site = loc[:i+3+j]
	path = rest[j:]
	if k := strings.IndexAny(path, "?#"); k >= 0 {
		path = path[:k]
	}
	if path == "" || path[0] != '/' {
		path = "/" + path
	}
	return site, path, true
}

// Add counts one URL. The URL is only read during the call.
func (t *Tree) Add(u *sitemap.URL) {
	t.URLs++
	var s Stats
	s.Pages = 1
	s.Images, s.Videos, s.Hreflang = len(u.Images), len(u.Videos), len(u.Alternates)
	if u.News != nil {
		s.News = 1
	}
	s.Newest = u.LastMod
	n := t.section(u.Loc, true, &s)
	if n == nil {
		t.Skipped++
		return
	}
	n.Here++
	if len(n.Pages) < t.o.MaxPages && t.kept < t.o.MaxKept {
		n.Pages = append(n.Pages, Page{Loc: u.Loc, Title: u.Title, LastMod: u.LastMod})
		t.kept++
	}
}

// section returns the section of loc: with create, made when missing
// (within MaxSections and MaxDepth; past them the deepest section held,
// counted in Folded when s is set), and s added to it and every section
// above it; without, the deepest section held. It returns nil when loc
// is not an http(s) URL, or (without create) of no site held.
func (t *Tree) section(loc string, create bool, s *Stats) *Node {
	site, path, ok := splitURL(loc)
	if !ok {
		return nil
	}
	n := t.sites[site]
	if n == nil {
		if !create {
			return nil
		}
		n = &Node{Name: site, Path: site + "/", Parent: t.Root}
		t.sites[site] = n
		t.Root.Children = append(t.Root.Children, n)
		t.Sections++
	}
	if s != nil {
		t.Root.Total.add(s)
		n.Total.add(s)
	}
	folded := false
	dir := path[1 : strings.LastIndexByte(path, '/')+1] // "a/b/" of "/a/b/c"
	end := 1                                            // path[:end] is n's path
	for dir != "" {
		k := strings.IndexByte(dir, '/')
		seg := dir[:k]
		dir = dir[k+1:]
		end += k + 1
		if seg == "" {
			continue
		}
		c := n.kids[seg]
		if c == nil {
			if !create || n.depth >= t.o.MaxDepth || t.Sections >= t.o.MaxSections {
				folded = true
				break
			}
			c = &Node{Name: unescape(seg), Path: site + path[:end], Parent: n, depth: n.depth + 1}
			if n.kids == nil {
				n.kids = map[string]*Node{}
			}
			n.kids[seg] = c
			n.Children = append(n.Children, c)
			t.Sections++
		}
		n = c
		if s != nil {
			n.Total.add(s)
		}
	}
	if folded && s != nil {
		t.Folded++
	}
	return n
}

// unescape returns a segment's percent-decoded form for display when it
// is valid UTF-8 text, else the segment as written.
func unescape(seg string) string {
	if !strings.ContainsRune(seg, '%') {
		return seg
	}
	s, err := url.PathUnescape(seg)
	if err != nil || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0xfffd }) {
		return seg
	}
	return s
}

// Seal ends building: children are sorted by name (natLess: page-2
// before page-10), the build maps are
// dropped, and a root over a single site becomes that site. Adding after
// Seal is a mistake the tree ignores.
func (t *Tree) Seal() {
	if t.sealed {
		return
	}
	t.sealed = true
	t.sites = nil
	var walk func(n *Node)
	walk = func(n *Node) {
		n.kids = nil
		sort.Slice(n.Children, func(i, j int) bool { return natLess(n.Children[i].Name, n.Children[j].Name) })
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(t.Root)
	if len(t.Root.Children) == 1 {
		t.Root = t.Root.Children[0]
		t.Root.Parent = nil
	} else {
		t.Sections++
		t.Root.Name = plural.Of(len(t.Root.Children), "site", "sites")
	}
}

// natLess orders names as people do: runs of digits by their value
// ("page-2" before "page-10"), the rest byte by byte; names equal that
// way (page-02, page-2) by their bytes.
func natLess(a, b string) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			// Compare the values without leading zeros: the longer is
			// greater, else digit by digit.
			x, y := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if len(x) != len(y) {
				return len(x) < len(y)
			}
			if x != y {
				return x < y
			}
			continue
		}
		if ca != cb {
			return ca < cb
		}
		i++
		j++
	}
	if len(a)-i != len(b)-j {
		return len(a)-i < len(b)-j
	}
	return a < b
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Walk calls f for n and every node below it, parents first.
func Walk(n *Node, f func(*Node)) {
	f(n)
	for _, c := range n.Children {
		Walk(c, f)
	}
}
