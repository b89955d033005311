package graph

import (
	"context"
	"encoding/json"
	"io"
)

// jsonNode is a section in the JSON form.
type jsonNode struct {
	Name     string      `json:"name"`
	Path     string      `json:"path,omitempty"`
	Total    Stats       `json:"total"`
	Here     int         `json:"here"`
	More     int         `json:"more,omitempty"`
	Hidden   int         `json:"hidden,omitempty"`
	Links    *jsonLinks  `json:"links,omitempty"`
	Marks    []jsonMark  `json:"marks,omitempty"`
	Flagged  int         `json:"flagged,omitempty"`
	Children []*jsonNode `json:"children,omitempty"`
}

// jsonLinks is a section's link counts in the JSON form: named in
// words, where the map's data (LinkStats) is short.
type jsonLinks struct {
	Inlinks int `json:"inlinks"`
	Depth   int `json:"click_depth"`
	Orphans int `json:"orphans"`
	Missing int `json:"missing"`
	Left    int `json:"left_out"`
}

// jsonMark is a flagged page of the link view in the JSON form.
type jsonMark struct {
	Loc   string `json:"loc"`
	Title string `json:"title,omitempty"`
	Kind  string `json:"kind"`
	Why   string `json:"why"`
}

func toJSON(n *Node) *jsonNode {
	j := &jsonNode{Name: n.Name, Path: n.Path, Total: n.Total, Here: n.Here, More: n.More, Hidden: n.Hidden}
	if l := n.Link; l != nil {
		j.Links = &jsonLinks{l.Inlinks, l.Depth, l.Orphans, l.Missing, l.Left}
	}
	for _, m := range n.Marks {
		j.Marks = append(j.Marks, jsonMark(m))
	}
	if n.Flagged > len(n.Marks) {
		j.Flagged = n.Flagged
	}
	for _, c := range n.Children {
		j.Children = append(j.Children, toJSON(c))
	}
	return j
}

// JSON writes the drawn tree (Tree.Limit) as one JSON object:
//
//	{"urls": 120, "skipped": 0, "sections": 14, "folded": 0, "drawn": 14,
//	 "tree": {"name": "https://ex.com", "path": "https://ex.com/",
//	          "total": {"pages": 120, "images": 3, "newest": "2026-11-02"},
//	          "here": 1, "children": [...]}}
//
// A "+N more" node has "more": N (sections it stands for) and no path;
// "hidden" counts the sections below a node that are not drawn.
func (t *Tree) JSON(ctx context.Context, w io.Writer, o DrawOptions) error {
	root := t.Limit(o.MaxNodes)
	drawn := 0
	Walk(root, func(*Node) { drawn++ })
	if err := ctx.Err(); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(struct {
		URLs     int       `json:"urls"`
		Skipped  int       `json:"skipped"`
		Sections int       `json:"sections"`
		Folded   int       `json:"folded"`
		Drawn    int       `json:"drawn"`
		Tree     *jsonNode `json:"tree"`
	}{t.URLs - t.Skipped, t.Skipped, t.Sections, t.Folded, drawn, toJSON(root)})
}

// jsonEdge is an aggregate of links in the JSON form.
type jsonEdge struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Links int    `json:"links"`
}

// JSON writes the link view as one JSON object: the drawn tree as
// [Tree.JSON] writes it, each section with its "links" counts
// ({"inlinks", "click_depth" (-1: no page of it reached by links),
// "orphans", "missing", "left_out"}, of the section and everything
// below it) and its
// flagged pages in "marks" ({"loc", "title", "kind": orphan, missing or
// left, "why"}; the first --max-pages of a section, and "flagged", the
// number of them all, when there are more), and
// "edges", the links between drawn sections by their paths (a section
// not drawn counts in its nearest drawn ancestor), heaviest first.
func (lt *LinkTree) JSON(ctx context.Context, w io.Writer, o DrawOptions) error {
	root := lt.Limit(o.MaxNodes)
	at := map[*Node]int{}
	var nodes []*Node
	Walk(root, func(n *Node) {
		at[orig(n)] = len(nodes)
		nodes = append(nodes, n)
	})
	name := func(n *Node) string {
		if n.Path != "" {
			return n.Path
		}
		return n.Name
	}
	edges := []jsonEdge{}
	for _, e := range lt.drawnEdges(at) {
		edges = append(edges, jsonEdge{name(nodes[e[0]]), name(nodes[e[1]]), e[2]})
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(struct {
		URLs     int        `json:"urls"`
		Sections int        `json:"sections"`
		Drawn    int        `json:"drawn"`
		Start    string     `json:"start,omitempty"`
		Edges    []jsonEdge `json:"edges"`
		Tree     *jsonNode  `json:"tree"`
	}{lt.URLs - lt.Skipped, lt.Sections, len(nodes), lt.Start, edges, toJSON(root)})
}
