package graph

import (
	"bufio"
	"context"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
)

// DrawOptions configure a drawing (SVG, DOT, JSON, HTML).
type DrawOptions struct {
	// MaxNodes is the most sections drawn (0: DefaultMaxNodes); see
	// Tree.Limit.
	MaxNodes int
	// MaxLinks is the most links between sections a link view draws in
	// SVG and DOT, the heaviest (0: DefaultMaxLinks); the HTML map and
	// JSON have them all.
	MaxLinks int
	// Title names the drawing; the root's name when empty.
	Title string
}

// The SVG's geometry, in pixels.
const (
	rowHeight = 22.0
	charWidth = 7.0 // a generous width of one character at 12px
	margin    = 16.0
	topSpace  = 40.0
	labelMax  = 40  // runes of a name drawn
	headWidth = 9.0 // a generous width of one character of the heading line (14px, bold)
)

// DefaultMaxLinks is DrawOptions.MaxLinks when it is 0: more arcs
// than that make a static picture a tangle.
const DefaultMaxLinks = 2000

// arcs cuts edges (heaviest first) to o.MaxLinks; cut is how many were
// left out.
func (o DrawOptions) arcs(edges [][3]int) (kept [][3]int, cut int) {
	m := o.MaxLinks
	if m <= 0 {
		m = DefaultMaxLinks
	}
	if len(edges) <= m {
		return edges, 0
	}
	return edges[:m], len(edges) - m
}

func (o DrawOptions) title(root *Node) string {
	if o.Title != "" {
		return o.Title
	}
	return "Sections of " + root.Name
}

// nodeLabel is what the SVG writes beside a node: its name and pages.
func nodeLabel(n *Node) (name, count string) {
	name = label(n, labelMax)
	count = progress.Group(int64(n.Total.Pages))
	if n.Hidden > 0 {
		count += " (+" + progress.Group(int64(n.Hidden)) + ")"
	}
	return name, count
}

// SVG writes the tree as a static SVG image: a tidy tree growing to the
// right, each section a dot labelled with its name and number of pages
// (a tooltip gives all its counts), "+N more" nodes dashed. It is
// standalone XML (xmllint --noout accepts it) with a title and description
// for screen readers.
func (t *Tree) SVG(ctx context.Context, w io.Writer, o DrawOptions) error {
	return t.svg(ctx, w, o, nil)
}

// SVG writes the link view as the static picture of [Tree.SVG] with the
// links between sections (the DrawOptions.MaxLinks heaviest; the
// description says how many more) drawn as purple arcs as wide as they
// are many (each with a tooltip of its count), each section's inlinks, click depth
// and flagged pages in its tooltip, and the sections holding orphans or
// missing pages ringed in red.
func (lt *LinkTree) SVG(ctx context.Context, w io.Writer, o DrawOptions) error {
	if o.Title == "" {
		o.Title = "Links of " + lt.Root.Name
	}
	return lt.svg(ctx, w, o, lt)
}

// svg writes the SVG of t, with the links of lt when it is set.
func (t *Tree) svg(ctx context.Context, w io.Writer, o DrawOptions, lt *LinkTree) error {
	root := t.Limit(o.MaxNodes)
	all, rows := layout(root)
	if err := ctx.Err(); err != nil {
		return err
	}
	widths, labelW, colX := columns(all)
	title := o.title(root)
	desc, edges := t.svgCaption(o, all, lt)
	// As wide as the widest column's end or the heading line, whichever
	// is wider: a tree narrower than its heading would cut it.
	width := max(colX[len(widths)], margin+float64(utf8.RuneCountInString(title)+1+utf8.RuneCountInString(desc))*headWidth) + margin
	height := topSpace + rows*rowHeight + margin
	px := func(v *lnode) (float64, float64) {
		return colX[v.depth], topSpace + v.x*rowHeight + rowHeight/2
	}

	bw := bufio.NewWriterSize(w, 64<<10)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	bw.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="title desc" width="` + f(width) + `" height="` + f(height) + `" viewBox="0 0 ` + f(width) + " " + f(height) + `">` + "\n")
	bw.WriteString(`<title id="title">` + xmlText(title) + "</title>\n")
	bw.WriteString(`<desc id="desc">` + xmlText(desc) + "</desc>\n")
	bw.WriteString(`<style>
text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; fill: #1f2328; }
.c { fill: #59636e; }
text.h .c { font-weight: 400; }
text.h { font-size: 14px; font-weight: 600; }
path.e { fill: none; stroke: #afb8c1; stroke-width: 1; }
circle { fill: #0969da; }
path.k { fill: none; stroke: #8250df; stroke-opacity: .45; }
g.flag circle { stroke: #cf222e; stroke-width: 3; }
g.more circle { fill: #fff; stroke: #59636e; stroke-dasharray: 2 2; }
g.more text { font-style: italic; }
</style>
`)
	bw.WriteString(`<rect width="100%" height="100%" fill="#fff"/>` + "\n")
	bw.WriteString(`<text class="h" x="` + f(margin) + `" y="24">` + xmlText(title) + ` <tspan class="c">` + xmlText(desc) + "</tspan></text>\n")
	if err := writeTreeEdges(ctx, bw, all, labelW, px, f); err != nil {
		return err
	}
	if lt != nil {
		writeLinkArcs(bw, all, edges, labelW, px, f)
	}
	writeNodes(bw, all, px, f)
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// columns gives the width of each depth's column (its widest label and
// room for the dot), the width of each node's label and the x where
// each column starts, with one more entry for the end of the last. No
// nodes give no columns, and colX holds only the left margin.
func columns(all []*lnode) (widths, labelW, colX []float64) {
	// Columns: each depth as wide as its widest label.
	labelW = make([]float64, len(all))
	for i, v := range all {
		name, count := nodeLabel(v.n)
		labelW[i] = float64(utf8.RuneCountInString(name)+1+len(count)) * charWidth
		for len(widths) <= v.depth {
			widths = append(widths, 0)
		}
		widths[v.depth] = max(widths[v.depth], labelW[i]+40)
	}
	colX = make([]float64, len(widths)+1)
	colX[0] = margin + 6
	for d, wd := range widths {
		colX[d+1] = colX[d] + wd
	}
	return widths, labelW, colX
}

// svgCaption gives the picture's description, the counts of t, or with
// lt the link view's summary, and the arcs to draw between the nodes of
// all (indexes into all and the number of links; none without lt). When
// DrawOptions.MaxLinks left some out the description says how many.
func (t *Tree) svgCaption(o DrawOptions, all []*lnode, lt *LinkTree) (string, [][3]int) {
	desc := plural.Of(t.URLs-t.Skipped, "URL", "URLs") + " in " + plural.Of(t.Sections, "section", "sections") + "; " + plural.Of(len(all), "node", "nodes") + " drawn"
	var edges [][3]int
	if lt != nil {
		desc = lt.summary(len(all))
		at := make(map[*Node]int, len(all))
		for i, v := range all {
			at[orig(v.n)] = i
		}
		var cut int
		edges, cut = o.arcs(lt.drawnEdges(at))
		if cut > 0 {
			desc += " (the " + progress.Group(int64(len(edges))) + " heaviest links between sections drawn, " + progress.Group(int64(cut)) + " more left out)"
		}
	}
	return desc, edges
}

// writeTreeEdges writes the tree's edges as one path, from the end of
// each parent's label to its child's dot; the root has none. It stops
// with ctx's error (looked at every 1024 nodes), leaving the path open.
func writeTreeEdges(ctx context.Context, bw *bufio.Writer, all []*lnode, labelW []float64, px func(*lnode) (float64, float64), f func(float64) string) error {
	// Edges first, under the nodes: from the end of the parent's label
	// to the child's dot.
	bw.WriteString(`<path class="e" d="`)
	for i, v := range all {
		if v.parent == nil {
			continue
		}
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		x0, y0 := px(v.parent)
		x0 += 10 + labelW[v.parent.idx]
		x1, y1 := px(v)
		x1 -= 5
		bw.WriteString(curve(f, x0, y0, x1, y1))
	}
	bw.WriteString("\"/>\n")
	return nil
}

// writeLinkArcs writes one purple arc for each of edges (indexes into
// all and a number of links), as wide as it is heavy next to the
// heaviest, with a tooltip of its count; no edges write nothing.
func writeLinkArcs(bw *bufio.Writer, all []*lnode, edges [][3]int, labelW []float64, px func(*lnode) (float64, float64), f func(float64) string) {
	// As the map draws them: between columns from the end of the
	// shallower section's label to the deeper one's dot, within a
	// column a loop on the left.
	most := 1
	for _, e := range edges {
		most = max(most, e[2])
	}
	for _, e := range edges {
		a, b := all[e[0]], all[e[1]]
		var d string
		if a.depth != b.depth {
			up, down := a, b
			if up.depth > down.depth {
				up, down = b, a
			}
			x0, y0 := px(up)
			x0 += 10 + labelW[up.idx]
			x1, y1 := px(down)
			x1 -= 6
			d = curve(f, x0, y0, x1, y1)
		} else {
			x0, y0 := px(a)
			x1, y1 := px(b)
			bend := max(30, math.Abs(y1-y0)/3)
			d = "M" + f(x0-6) + " " + f(y0) + "C" + f(x0-bend) + " " + f(y0) + " " + f(x1-bend) + " " + f(y1) + " " + f(x1-6) + " " + f(y1)
		}
		width := 1 + 5*math.Sqrt(float64(e[2])/float64(most))
		bw.WriteString(`<path class="k" stroke-width="` + f(width) + `" d="` + d + `"><title>` +
			xmlText(nodePath(a.n)+" → "+nodePath(b.n)+": "+plural.Of(e[2], "link", "links")) + "</title></path>\n")
	}
}

// curve is the SVG path data of the S-curve from (x0, y0) to (x1, y1),
// leaving and arriving level, with its numbers written by f.
func curve(f func(float64) string, x0, y0, x1, y1 float64) string {
	mx := (x0 + x1) / 2
	return "M" + f(x0) + " " + f(y0) + "C" + f(mx) + " " + f(y0) + " " + f(mx) + " " + f(y1) + " " + f(x1) + " " + f(y1)
}

// writeNodes writes each node's dot and label, with its tooltip, in a
// group whose class marks an aggregate ("more") or a section holding
// orphans or missing pages ("flag").
func writeNodes(bw *bufio.Writer, all []*lnode, px func(*lnode) (float64, float64), f func(float64) string) {
	for _, v := range all {
		x, y := px(v)
		name, count := nodeLabel(v.n)
		switch {
		case v.n.More > 0:
			bw.WriteString(`<g class="more">`)
		case v.n.Link != nil && (v.n.Link.Orphans > 0 || v.n.Link.Missing > 0):
			bw.WriteString(`<g class="flag">`)
		default:
			bw.WriteString(`<g>`)
		}
		bw.WriteString(`<title>` + xmlText(nodePath(v.n)+": "+summary(v.n)+linkSummary(v.n.Link)) + `</title>`)
		bw.WriteString(`<circle cx="` + f(x) + `" cy="` + f(y) + `" r="4"/>`)
		bw.WriteString(`<text x="` + f(x+8) + `" y="` + f(y+4) + `">` + xmlText(name) + ` <tspan class="c">` + count + "</tspan></text></g>\n")
	}
}

// nodePath names a node in tooltips: its URL, or its name when it has
// none (an aggregate, the root of several sites).
func nodePath(n *Node) string {
	if n.Path != "" {
		return n.Path
	}
	return n.Name
}
