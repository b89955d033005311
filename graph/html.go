package graph

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"html"
	"io"
	"strings"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/urlnorm"
)

//go:embed map.js
var mapJS string

//go:embed map.css
var mapCSS string

// mapNode is a section in the data of the HTML map. Short keys: the data
// of 2,000 sections with their pages is most of the file.
type mapNode struct {
	Name     string `json:"n"`
	Path     string `json:"p,omitempty"`
	Pages    int    `json:"t"`
	Here     int    `json:"h,omitempty"`
	Images   int    `json:"im,omitempty"`
	Videos   int    `json:"vi,omitempty"`
	News     int    `json:"ne,omitempty"`
	Hreflang int    `json:"hl,omitempty"`
	Newest   string `json:"nw,omitempty"`
	More     int    `json:"m,omitempty"`
	Hidden   int    `json:"x,omitempty"`
	Children []int  `json:"c,omitempty"`
	// List is the section's pages: [loc, title, lastmod], the loc
	// relative to Path when below it, trailing empty fields left out.
	List [][]string `json:"pg,omitempty"`
	Link *LinkStats `json:"lk,omitempty"`
	// Marks are the section's flagged pages: [loc, title, kind, why];
	// Flagged counts them all.
	Marks   [][4]string `json:"mk,omitempty"`
	Flagged int         `json:"fh,omitempty"`
}

// mapData is the whole data of an HTML map.
type mapData struct {
	Title   string    `json:"title"`
	Summary string    `json:"summary"`
	Nodes   []mapNode `json:"nodes"`
	// Edges are the link view's aggregated links, [from, to, links] by
	// index in Nodes.
	Edges [][3]int `json:"edges,omitempty"`
}

// flatten lists the drawn tree below root in pre-order, with children by
// index; at is filled with each node's index.
func flatten(root *Node, at map[*Node]int) []mapNode {
	var out []mapNode
	var walk func(n *Node) int
	walk = func(n *Node) int {
		i := len(out)
		at[orig(n)] = i
		m := mapNode{Name: n.Name, Path: n.Path, Pages: n.Total.Pages, Here: n.Here, Images: n.Total.Images, Videos: n.Total.Videos,
			News: n.Total.News, Hreflang: n.Total.Hreflang, More: n.More, Hidden: n.Hidden, Link: n.Link, Flagged: n.Flagged}
		for _, k := range n.Marks {
			m.Marks = append(m.Marks, [4]string{k.Loc, k.Title, k.Kind, k.Why})
		}
		if !n.Total.Newest.IsZero() {
			m.Newest = n.Total.Newest.String()
		}
		for _, p := range n.Pages {
			loc := p.Loc
			if n.Path != "" && strings.HasPrefix(loc, n.Path) && len(loc) > len(n.Path) {
				loc = loc[len(n.Path):] // relative: never starts with "http" + "://" … unless a segment does
				// Then it is written whole: the map tells relative from
				// absolute by that prefix.
				if urlnorm.IsHTTP(loc) {
					loc = p.Loc
				}
			}
			row := []string{loc, p.Title, p.LastMod.String()}
			for len(row) > 1 && row[len(row)-1] == "" {
				row = row[:len(row)-1]
			}
			m.List = append(m.List, row)
		}
		out = append(out, m)
		for _, c := range n.Children {
			ci := walk(c)
			out[i].Children = append(out[i].Children, ci)
		}
		return i
	}
	walk(root)
	return out
}

// HTML writes the tree as one self-contained interactive HTML page (its
// script, stylesheet and data inline; no request to anywhere): the
// sections as a collapsible tidy tree (a click on a section opens or
// closes it and lists its pages beside the map), a search box that keeps
// only the sections whose name, path or pages match and highlights them
// (and the matching text in the pages listed),
// zoom (wheel, buttons, + and -) and pan (drag, arrow keys). Sections past
// MaxNodes are "+N more" nodes as in the SVG.
func (t *Tree) HTML(ctx context.Context, w io.Writer, o DrawOptions) error {
	root := t.Limit(o.MaxNodes)
	d := mapData{Title: o.title(root)}
	d.Nodes = flatten(root, map[*Node]int{})
	d.Summary = plural.Of(t.URLs-t.Skipped, "URL", "URLs") + " in " + plural.Of(t.Sections, "section", "sections")
	if len(d.Nodes) < t.Sections {
		d.Summary += " (" + progress.Group(int64(len(d.Nodes))) + " drawn)"
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return writeMap(w, &d)
}

// HTML writes the link view as one self-contained interactive page: the
// map of [Tree.HTML] with the links between the sections drawn as arcs
// (thicker for more links), each section's inlinks, click depth and
// flagged pages (orphans, missing, left out, each with why) listed when it
// is clicked, and the sections holding flagged pages ringed in red.
func (lt *LinkTree) HTML(ctx context.Context, w io.Writer, o DrawOptions) error {
	root := lt.Limit(o.MaxNodes)
	if o.Title == "" {
		o.Title = "Links of " + root.Name
	}
	d := mapData{Title: o.Title}
	at := map[*Node]int{}
	d.Nodes = flatten(root, at)
	d.Edges = lt.drawnEdges(at)
	d.Summary = lt.summary(len(d.Nodes))
	if err := ctx.Err(); err != nil {
		return err
	}
	return writeMap(w, &d)
}

// summary is the link view's counts in words.
func (lt *LinkTree) summary(drawn int) string {
	s := plural.Of(lt.URLs-lt.Skipped, "sitemap URL", "sitemap URLs") + " in " + plural.Of(lt.Sections, "section", "sections")
	if drawn < lt.Sections {
		s += " (" + progress.Group(int64(drawn)) + " drawn)"
	}
	links := 0
	for _, e := range lt.Edges {
		links += e.Links
	}
	s += "; " + plural.Of(links, "internal link", "internal links")
	if l := lt.Root.Link; l != nil {
		s += "; " + plural.Of(l.Orphans, "orphan", "orphans") + ", " + plural.Of(l.Missing, "page", "pages") + " missing from the sitemap, " + plural.Of(l.Left, "page", "pages") + " left out"
	}
	return s
}

// writeMap writes the page of d.
func writeMap(w io.Writer, d *mapData) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	title := html.EscapeString(d.Title)
	bw.WriteString(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>` + title + `</title>
<style>
` + mapCSS + `</style>
</head>
<body>
<header>
<h1>` + title + `</h1>
<p id="summary">` + html.EscapeString(d.Summary) + `</p>
<div class="tools" role="toolbar" aria-label="Map tools">
<label for="q">Search</label> <input id="q" type="search" placeholder="section, path or page" autocomplete="off">
<span id="hits" aria-live="polite"></span>
<button type="button" id="expand">Expand all</button>
<button type="button" id="collapse">Collapse all</button>
<button type="button" id="zoomin" aria-label="Zoom in">+</button>
<button type="button" id="zoomout" aria-label="Zoom out">−</button>
<button type="button" id="fit">Fit</button>
</div>
</header>
<main>
<div id="map" tabindex="0" aria-label="Map of sections: drag or use the arrow keys to pan, the wheel or + and - to zoom">
<svg id="svg" xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="svgtitle"><title id="svgtitle">` + title + `</title><g id="vp"><g id="edges"></g><g id="links"></g><g id="nodes"></g></g></svg>
</div>
<aside id="panel" aria-labelledby="ptitle">
<h2 id="ptitle">Pages</h2>
<div id="pbody"><p>Click a section to list its pages.</p></div>
</aside>
</main>
<script type="application/json" id="data">`)
	// encoding/json escapes <, > and & in strings, so the data cannot
	// end its script element.
	enc := json.NewEncoder(bw)
	if err := enc.Encode(d); err != nil {
		return err
	}
	bw.WriteString("</script>\n<script>\n" + mapJS + "</script>\n</body>\n</html>\n")
	return bw.Flush()
}
