package graph

import (
	"sort"

	"github.com/sitemapkit/sitemap/internal/progress"
)

// Limit returns a copy of the tree's top with at most max nodes (0: the
// default, 2,000; at least 1), for drawing. Levels are taken whole from the
// root down while they fit. In the first level that does not fit, each
// parent keeps its largest sections (by pages) and one "+N more" node
// stands for the rest with their summed counts; a parent that gets no room
// at all, and every drawn node whose children are cut, says how many
// sections it hides (Hidden). The tree itself is not changed; the copy
// shares its Pages.
func (t *Tree) Limit(max int) *Node {
	if max <= 0 {
		max = DefaultMaxNodes
	}
	root := shallow(t.Root)
	budget := max - 1
	level := []*Node{root} // drawn nodes whose children are still to place
	for len(level) > 0 {
		var cands int
		for _, p := range level {
			cands += len(orig(p).Children)
		}
		if cands == 0 {
			break
		}
		if cands <= budget {
			var next []*Node
			for _, p := range level {
				for _, c := range orig(p).Children {
					cc := shallow(c)
					cc.Parent = p
					p.Children = append(p.Children, cc)
					next = append(next, cc)
				}
			}
			budget -= cands
			level = next
			continue
		}
		cut(level, budget)
		break
	}
	// Every drawn node whose original has children it does not show
	// hides their sections.
	Walk(root, func(n *Node) {
		if n.More == 0 && len(n.Children) == 0 && len(orig(n).Children) > 0 {
			n.Hidden = countBelow(orig(n))
		}
	})
	return root
}

// cut places the children of the parents in level within budget nodes.
func cut(level []*Node, budget int) {
	type cand struct {
		p, c *Node
	}
	var parents []*Node
	for _, p := range level {
		if len(orig(p).Children) > 0 {
			parents = append(parents, p)
		}
	}
	// The parents with the most pages below them get room first.
	sort.SliceStable(parents, func(i, j int) bool { return orig(parents[i]).Total.Pages > orig(parents[j]).Total.Pages })
	if budget < len(parents) {
		// Room for one "+N more" node under some parents only.
		for i, p := range parents {
			if i >= budget {
				break
			}
			if kids := orig(p).Children; len(kids) == 1 {
				cc := shallow(kids[0])
				cc.Parent = p
				p.Children = []*Node{cc}
			} else {
				p.Children = []*Node{more(p, kids)}
			}
		}
		return
	}
	// Each parent keeps a slot for its "+N more" node; the rest of the
	// budget goes to the largest sections of the level.
	var all []cand
	for _, p := range parents {
		for _, c := range orig(p).Children {
			all = append(all, cand{p, c})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].c.Total.Pages > all[j].c.Total.Pages })
	keep := budget - len(parents)
	kept := map[*Node]bool{}
	for _, a := range all[:keep] {
		kept[a.c] = true
	}
	for _, p := range parents {
		var rest []*Node
		for _, c := range orig(p).Children {
			if kept[c] {
				cc := shallow(c)
				cc.Parent = p
				p.Children = append(p.Children, cc)
			} else {
				rest = append(rest, c)
			}
		}
		switch {
		case len(rest) == 1:
			// One section takes the slot its "+1 more" would.
			cc := shallow(rest[0])
			cc.Parent = p
			p.Children = append(p.Children, cc)
		case len(rest) > 1:
			p.Children = append(p.Children, more(p, rest))
		}
	}
}

// more returns the "+N more" node that stands for sections.
func more(parent *Node, sections []*Node) *Node {
	m := &Node{Parent: parent, More: len(sections), depth: parent.depth + 1}
	for _, s := range sections {
		m.Total.add(&s.Total)
		if l := s.Link; l != nil {
			ls := linkStats(m)
			ls.Inlinks += l.Inlinks
			ls.Orphans += l.Orphans
			ls.Missing += l.Missing
			ls.Left += l.Left
			if l.Depth >= 0 && (ls.Depth < 0 || l.Depth < ls.Depth) {
				ls.Depth = l.Depth
			}
		}
		m.Hidden += countBelow(s)
	}
	m.Name = "+" + progress.Group(int64(m.More)) + " more"
	return m
}

// countBelow is the number of sections below n.
func countBelow(n *Node) int {
	c := 0
	for _, k := range n.Children {
		c += 1 + countBelow(k)
	}
	return c
}

// shallow copies n without its children; the copy remembers n.
func shallow(n *Node) *Node {
	c := *n
	c.Children = nil
	c.Parent = nil
	c.src = n
	return &c
}

// orig returns the tree node a Limit copy was made from.
func orig(c *Node) *Node {
	if c.src != nil {
		return c.src
	}
	return c
}
