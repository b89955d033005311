package graph

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/internal/plural"
)

// DOT writes the drawn tree (Tree.Limit) as a Graphviz digraph growing to
// the right: one box per section labelled with its name, pages and newest
// lastmod, a tooltip with all its counts, "+N more" nodes dashed. Node IDs
// are n0, n1, … in pre-order, so the same tree gives the same bytes.
func (t *Tree) DOT(ctx context.Context, w io.Writer, o DrawOptions) error {
	return writeDOT(ctx, w, t.Limit(o.MaxNodes), o, nil)
}

// DOT writes the link view as [Tree.DOT] writes a tree, plus the links
// between sections (the DrawOptions.MaxLinks heaviest) as dashed purple
// edges that do not change the layout, as wide as they are many,
// labelled with their number; the tooltip of a section adds its link
// counts.
func (lt *LinkTree) DOT(ctx context.Context, w io.Writer, o DrawOptions) error {
	root := lt.Limit(o.MaxNodes)
	if o.Title == "" {
		o.Title = "Links of " + root.Name
	}
	return writeDOT(ctx, w, root, o, func(bw *bufio.Writer, at map[*Node]int) {
		edges, cut := o.arcs(lt.drawnEdges(at))
		if cut > 0 {
			bw.WriteString("  // the " + strconv.Itoa(len(edges)) + " heaviest links between sections; " + strconv.Itoa(cut) + " more left out (DrawOptions.MaxLinks)\n")
		}
		most := 1
		for _, e := range edges {
			most = max(most, e[2])
		}
		for _, e := range edges {
			width := 1 + 4*float64(e[2])/float64(most)
			bw.WriteString("  n" + strconv.Itoa(e[0]) + " -> n" + strconv.Itoa(e[1]) + " [style=dashed, color=\"#8250df\", constraint=false, penwidth=" +
				strconv.FormatFloat(width, 'f', 1, 64) + ", label=\"" + strconv.Itoa(e[2]) + "\", tooltip=" + dotQuote(plural.Of(e[2], "link", "links")) + "];\n")
		}
	})
}

// writeDOT writes the drawn tree below root; extra, when set, writes more
// statements given each drawn node's ID number (by its tree node).
func writeDOT(ctx context.Context, w io.Writer, root *Node, o DrawOptions, extra func(*bufio.Writer, map[*Node]int)) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	at := map[*Node]int{}
	bw.WriteString("digraph sitemap {\n")
	bw.WriteString("  graph [rankdir=LR, label=" + dotQuote(o.title(root)) + ", labelloc=t, fontname=\"Helvetica\"];\n")
	bw.WriteString("  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n")
	bw.WriteString("  edge [color=\"#8c959f\", arrowsize=0.5];\n")
	id := 0
	var err error
	var walk func(n *Node) int
	walk = func(n *Node) int {
		me := id
		at[orig(n)] = me
		id++
		if id&1023 == 0 && err == nil {
			err = ctx.Err()
		}
		lab := label(n, labelMax) + "\n" + plural.Of(n.Total.Pages, "page", "pages")
		if !n.Total.Newest.IsZero() {
			lab += "\nnewest " + n.Total.Newest.String()
		}
		if n.Hidden > 0 {
			lab += "\n+" + plural.Of(n.Hidden, "section", "sections") + " below"
		}
		tip := summary(n) + linkSummary(n.Link)
		bw.WriteString("  n" + strconv.Itoa(me) + " [label=" + dotQuote(lab) + ", tooltip=" + dotQuote(tip))
		if n.Path != "" {
			bw.WriteString(", URL=" + dotQuote(n.Path))
		}
		if n.More > 0 {
			bw.WriteString(", style=\"rounded,dashed\"")
		}
		bw.WriteString("];\n")
		for _, c := range n.Children {
			ci := walk(c)
			bw.WriteString("  n" + strconv.Itoa(me) + " -> n" + strconv.Itoa(ci) + ";\n")
		}
		return me
	}
	walk(root)
	if err != nil {
		return err
	}
	if extra != nil {
		extra(bw, at)
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// dotQuote quotes s as a DOT string: backslashes and quotes escaped,
// newlines as \n (centred lines), other control characters dropped.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
