package graph

// The tidy-tree layout of Buchheim, Jünger and Leipert ("Improving
// Walker's algorithm to run in linear time", 2002): parents centred over
// their children, subtrees as close as they can be without overlapping,
// identical subtrees drawn alike, in O(n). Here the tree grows to the
// right: a node's depth is its column and the layout places it on a row
// (its "x" in the paper, a fraction of a row where a parent centres over
// children).

type lnode struct {
	n        *Node
	children []*lnode
	parent   *lnode
	number   int // 1-based index among its siblings
	idx      int // index in pre-order
	depth    int

	x, mod, change, shift float64
	thread, ancestor      *lnode
}

func (v *lnode) left() *lnode {
	if v.thread != nil {
		return v.thread
	}
	if len(v.children) > 0 {
		return v.children[0]
	}
	return nil
}

func (v *lnode) right() *lnode {
	if v.thread != nil {
		return v.thread
	}
	if len(v.children) > 0 {
		return v.children[len(v.children)-1]
	}
	return nil
}

func (v *lnode) leftBrother() *lnode {
	if v.parent == nil || v.number == 1 {
		return nil
	}
	return v.parent.children[v.number-2]
}

func (v *lnode) leftmostSibling() *lnode {
	if v.parent == nil || v.number == 1 {
		return nil
	}
	return v.parent.children[0]
}

// place lays out the tree below root, whose nodes are in pre-order in
// all; on return every lnode's x is its row (the smallest is 0) and depth
// its column. It returns the number of rows used.
func place(root *lnode, all []*lnode) float64 {
	// The first walk recurses (the tree is at most MaxDepth+1 deep); the
	// second runs over the pre-order list, parents first.
	firstWalk(root)
	minX := 0.0
	for i, v := range all {
		m := 0.0
		if v.parent != nil {
			m = v.parent.mod // the sum of mods above v, kept in the parent
		}
		v.x += m
		if i == 0 || v.x < minX {
			minX = v.x
		}
		// From here mod holds the sum of the mods of v and its ancestors,
		// for v's children.
		v.mod += m
	}
	maxX := 0.0
	for _, v := range all {
		v.x -= minX
		if v.x > maxX {
			maxX = v.x
		}
	}
	return maxX + 1
}

const distance = 1.0

// firstWalk is the paper's FIRSTWALK.
func firstWalk(v *lnode) {
	if len(v.children) == 0 {
		if w := v.leftBrother(); w != nil {
			v.x = w.x + distance
		} else {
			v.x = 0
		}
		return
	}
	defaultAncestor := v.children[0]
	for _, w := range v.children {
		firstWalk(w)
		defaultAncestor = apportion(w, defaultAncestor)
	}
	executeShifts(v)
	mid := (v.children[0].x + v.children[len(v.children)-1].x) / 2
	if w := v.leftBrother(); w != nil {
		v.x = w.x + distance
		v.mod = v.x - mid
	} else {
		v.x = mid
	}
}

func apportion(v, defaultAncestor *lnode) *lnode {
	w := v.leftBrother()
	if w == nil {
		return defaultAncestor
	}
	vir, vor := v, v
	vil := w
	vol := v.leftmostSibling()
	sir, sor := v.mod, v.mod
	sil, sol := vil.mod, vol.mod
	for vil.right() != nil && vir.left() != nil {
		vil = vil.right()
		vir = vir.left()
		vol = vol.left()
		vor = vor.right()
		vor.ancestor = v
		if shift := (vil.x + sil) - (vir.x + sir) + distance; shift > 0 {
			moveSubtree(ancestorOf(vil, v, defaultAncestor), v, shift)
			sir += shift
			sor += shift
		}
		sil += vil.mod
		sir += vir.mod
		sol += vol.mod
		sor += vor.mod
	}
	if vil.right() != nil && vor.right() == nil {
		vor.thread = vil.right()
		vor.mod += sil - sor
	}
	if vir.left() != nil && vol.left() == nil {
		vol.thread = vir.left()
		vol.mod += sir - sol
		defaultAncestor = v
	}
	return defaultAncestor
}

func moveSubtree(wl, wr *lnode, shift float64) {
	subtrees := float64(wr.number - wl.number)
	wr.change -= shift / subtrees
	wr.shift += shift
	wl.change += shift / subtrees
	wr.x += shift
	wr.mod += shift
}

func executeShifts(v *lnode) {
	shift, change := 0.0, 0.0
	for i := len(v.children) - 1; i >= 0; i-- {
		w := v.children[i]
		w.x += shift
		w.mod += shift
		change += w.change
		shift += w.shift + change
	}
}

func ancestorOf(vil, v, defaultAncestor *lnode) *lnode {
	if vil.ancestor.parent == v.parent {
		return vil.ancestor
	}
	return defaultAncestor
}

// layout builds the lnodes of the drawn tree below root, in pre-order,
// and places them.
func layout(root *Node) ([]*lnode, float64) {
	var all []*lnode
	var add func(n *Node, parent *lnode, number, depth int)
	add = func(n *Node, parent *lnode, number, depth int) {
		v := &lnode{n: n, parent: parent, number: number, depth: depth, idx: len(all)}
		v.ancestor = v
		all = append(all, v)
		if parent != nil {
			parent.children = append(parent.children, v)
		}
		for i, c := range n.Children {
			add(c, v, i+1, depth+1)
		}
	}
	add(root, nil, 1, 0)
	rows := place(all[0], all)
	return all, rows
}
