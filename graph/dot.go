package graph

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"
)

// DOT writes the drawn tree (Tree.Limit) as a Graphviz digraph growing to
// the right: one box per section labelled with its name, pages and newest
// lastmod, a tooltip with all its counts, "+N more" nodes dashed. Node IDs
// are n0, n1, … in pre-order, so the same tree gives the same bytes.
func (t *Tree) DOT(ctx context.Context, w io.Writer, o DrawOptions) error {
	root := t.Limit(o.MaxNodes)
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("digraph sitemap {\n")
	bw.WriteString("  graph [rankdir=LR, label=" + dotQuote(o.title(root)) + ", labelloc=t, fontname=\"Helvetica\"];\n")
	bw.WriteString("  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n")
	bw.WriteString("  edge [color=\"#8c959f\", arrowsize=0.5];\n")
	id := 0
	var err error
	var walk func(n *Node) int
	walk = func(n *Node) int {
		me := id
		id++
		if id&1023 == 0 && err == nil {
			err = ctx.Err()
		}
		lab := label(n, labelMax) + "\n" + plural(n.Total.Pages, "page", "pages")
		if !n.Total.Newest.IsZero() {
			lab += "\nnewest " + n.Total.Newest.String()
		}
		if n.Hidden > 0 {
			lab += "\n+" + plural(n.Hidden, "section", "sections") + " below"
		}
		bw.WriteString("  n" + strconv.Itoa(me) + " [label=" + dotQuote(lab) + ", tooltip=" + dotQuote(summary(n)))
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
