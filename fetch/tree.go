package fetch

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/rules"
)

// TreeDiagnostics is how many diagnostics a [Tree] shows under one
// document; the rest are counted in an "… and N more" line.
const TreeDiagnostics = 5

// Tree is the tree of documents a walk read, with their counts and
// problems: what `sitemap fetch --tree` prints. Feed it every [Event] of
// a walk ([Tree.Event]), then write it as text ([Tree.WriteText]) or JSON
// ([Tree.WriteJSON]). Memory grows with the documents, not the URLs: with
// [TreeOptions.URLs] each sitemap's URLs are spooled to a temporary file,
// at most 256 KiB per document being read held in memory. Close removes
// that file.
type Tree struct {
	nodes    map[int]*Node
	children map[int][]int
	diags    map[int][]sitemap.Diagnostic
	more     map[int]int
	urls     *urlSpool
}

// TreeOptions tune a [Tree].
type TreeOptions struct {
	// URLs lists each sitemap's URLs beneath it in the text form, in the
	// order the sitemap lists them.
	URLs bool
	// TempDir is where the URLs are spooled ("": the system's).
	TempDir string
}

// NewTree returns an empty Tree. The error is one of the temporary file
// of TreeOptions.URLs.
func NewTree(o TreeOptions) (*Tree, error) {
	t := &Tree{nodes: map[int]*Node{}, children: map[int][]int{}, diags: map[int][]sitemap.Diagnostic{}, more: map[int]int{}}
	if o.URLs {
		var err error
		if t.urls, err = newURLSpool(o.TempDir); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Close removes the temporary file of TreeOptions.URLs; the Tree cannot
// be written after. A nil Tree is closed.
func (t *Tree) Close() {
	if t != nil {
		t.urls.close()
	}
}

// Event adds what ev says to the tree: a document that ended, a problem
// (notes other than FETCH-DUP left out), a URL (with TreeOptions.URLs).
func (t *Tree) Event(ev Event) {
	switch ev.Kind {
	case EventURL:
		if t.urls != nil {
			t.urls.add(ev.NodeID, ev.URL.Loc)
		}
	case EventDiagnostic:
		t.diag(ev.NodeID, ev.Diagnostic)
	case EventNodeEnd:
		t.node(ev.Node)
	}
}

func (t *Tree) node(n *Node) {
	if t.urls != nil {
		t.urls.flush(n.ID)
	}
	c := *n
	t.nodes[n.ID] = &c
	t.children[n.Parent] = append(t.children[n.Parent], n.ID)
}

func (t *Tree) diag(id int, d *sitemap.Diagnostic) {
	if d.Severity == sitemap.SeverityInfo && d.Rule != rules.FetchDup {
		return
	}
	if len(t.diags[id]) >= TreeDiagnostics {
		t.more[id]++
		return
	}
	t.diags[id] = append(t.diags[id], *d)
}

// ordered sorts every node's children as the lists that named them order
// them (Node.Seq): robots.txt's Sitemap: lines, an index's entries; the
// documents are read concurrently, so they arrive in any order. Probes
// (no Seq) follow, in the order they were read.
func (t *Tree) ordered() {
	for _, ids := range t.children {
		sort.SliceStable(ids, func(a, b int) bool {
			na, nb := t.nodes[ids[a]], t.nodes[ids[b]]
			if na == nil || nb == nil {
				return false
			}
			sa, sb := na.Seq, nb.Seq
			if sa == 0 {
				sa = math.MaxInt
			}
			if sb == 0 {
				sb = math.MaxInt
			}
			if sa != sb {
				return sa < sb
			}
			return na.ID < nb.ID
		})
	}
}

// WriteText writes the tree the way `usp ls` does: one document a line,
// children indented four spaces under their parent in the order their
// list names them, each with its kind and counts in brackets, and its
// problems beneath it ("! error L-01: …"); control characters escaped,
// so every document and problem is one line.
func (t *Tree) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	t.ordered()
	var err error
	var walk func(id, depth int)
	walk = func(id, depth int) {
		n := t.nodes[id]
		if n == nil || err != nil {
			return
		}
		indent := strings.Repeat("    ", depth)
		t.writeNode(bw, n, indent)
		if t.urls != nil {
			// The sitemap's URLs, one level in, before any child.
			if err = t.urls.write(bw, id, indent+"    "); err != nil {
				return
			}
		}
		// In the order ordered put them: the index's, not the URLs'.
		for _, k := range t.children[id] {
			walk(k, depth+1)
		}
	}
	roots := t.children[0]
	slices.Sort(roots)
	for _, id := range roots {
		walk(id, 0)
	}
	for _, d := range t.diags[0] {
		fmt.Fprintf(bw, "! %s %s: %s\n", d.Severity, d.Rule, check.EscapeControls(d.Message))
	}
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the output: %w", err)
	}
	return nil
}

// writeNode writes the line of n and of its problems.
func (t *Tree) writeNode(w *bufio.Writer, n *Node, indent string) {
	w.WriteString(indent)
	w.WriteString(check.EscapeControls(n.URL))
	if n.FinalURL != "" && n.FinalURL != n.URL && n.Kind != NodeStart {
		w.WriteString(" -> " + check.EscapeControls(n.FinalURL))
	}
	w.WriteString("  [" + check.EscapeControls(describe(n)) + "]\n")
	for _, d := range t.diags[n.ID] {
		where := ""
		if d.Line > 0 {
			where = "line " + strconv.Itoa(d.Line) + ": "
		}
		fmt.Fprintf(w, "%s    ! %s %s: %s\n", indent, d.Severity, d.Rule, where+check.EscapeControls(d.Message))
	}
	if m := t.more[n.ID]; m > 0 {
		fmt.Fprintf(w, "%s    ! … and %s more\n", indent, progress.Group(int64(m)))
	}
}

// describe is what the brackets after a document say.
func describe(n *Node) string {
	var parts []string
	switch n.Kind {
	case NodeStart:
		return "start"
	case NodeRobots:
		parts = append(parts, "robots.txt", plural.Of(n.Sitemaps, "sitemap", "sitemaps"))
	default:
		f := n.Format
		if f == "" {
			f = "sitemap"
		}
		if n.Probe {
			f += ", probed"
		}
		parts = append(parts, f)
		if n.Format == "sitemapindex" || n.Sitemaps > 0 {
			parts = append(parts, plural.Of(n.Sitemaps, "sitemap", "sitemaps"))
		}
		if n.Format != "sitemapindex" || n.URLs > 0 {
			parts = append(parts, plural.Of(n.URLs, "URL", "URLs"))
		}
	}
	if n.Cached {
		parts = append(parts, "not modified, cached")
	}
	if n.Failed {
		parts = append(parts, "FAILED: "+n.Err)
	} else if n.Err != "" {
		parts = append(parts, n.Err)
	}
	if n.Errors > 0 {
		parts = append(parts, plural.Of(n.Errors, "error", "errors"))
	}
	if n.Warnings > 0 {
		parts = append(parts, plural.Of(n.Warnings, "warning", "warnings"))
	}
	return strings.Join(parts, ", ")
}

// TreeNode is one document of a [Tree] as JSON ([Tree.WriteJSON]).
type TreeNode struct {
	URL      string               `json:"url"`
	FinalURL string               `json:"final_url,omitempty"`
	Kind     string               `json:"kind"` // start, robots or sitemap
	Format   string               `json:"format,omitempty"`
	Status   int                  `json:"status,omitempty"`
	URLs     int                  `json:"urls"`
	Sitemaps int                  `json:"sitemaps"`
	Errors   int                  `json:"errors"`
	Warnings int                  `json:"warnings"`
	Failed   bool                 `json:"failed,omitempty"`
	Err      string               `json:"error,omitempty"`
	Problems []sitemap.Diagnostic `json:"problems,omitempty"`
	Children []*TreeNode          `json:"children,omitempty"`
}

// WriteJSON writes the tree as one indented JSON [TreeNode], the start at
// its root and children in their lists' order, as the text form (an
// array of them when the walk had several roots).
func (t *Tree) WriteJSON(w io.Writer) error {
	t.ordered()
	var roots []*TreeNode
	for _, id := range t.children[0] {
		if j := t.build(id); j != nil {
			roots = append(roots, j)
		}
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	var v any = roots
	if len(roots) == 1 {
		v = roots[0]
	}
	err := enc.Encode(v)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing the output: %w", err)
	}
	return nil
}

func (t *Tree) build(id int) *TreeNode {
	n := t.nodes[id]
	if n == nil {
		return nil
	}
	kind := "sitemap"
	switch n.Kind {
	case NodeStart:
		kind = "start"
	case NodeRobots:
		kind = "robots"
	}
	j := &TreeNode{URL: n.URL, Kind: kind, Format: n.Format, Status: n.Status, URLs: n.URLs, Sitemaps: n.Sitemaps,
		Errors: n.Errors, Warnings: n.Warnings, Failed: n.Failed, Err: n.Err, Problems: t.diags[id]}
	if n.FinalURL != n.URL {
		j.FinalURL = n.FinalURL
	}
	for _, c := range t.children[id] {
		if cj := t.build(c); cj != nil {
			j.Children = append(j.Children, cj)
		}
	}
	return j
}
