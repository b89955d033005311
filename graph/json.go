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
	Children []*jsonNode `json:"children,omitempty"`
}

func toJSON(n *Node) *jsonNode {
	j := &jsonNode{Name: n.Name, Path: n.Path, Total: n.Total, Here: n.Here, More: n.More, Hidden: n.Hidden}
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
