package graph

import (
	"context"
	"fmt"
	"sort"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/state"
)

// LinkStats are the link view's counts of a section and everything below
// it.
type LinkStats struct {
	// Inlinks sums the inlinks of its sitemap pages (links from other
	// pages of the crawl, as state.CrawlOutcome counts them).
	Inlinks int `json:"in"`
	// Depth is the smallest click depth from the start page among its
	// pages; -1 when no page is reached by links.
	Depth int `json:"dp"`
	// Orphans are sitemap pages no crawled page links to; Missing pages
	// the crawl found linked and indexable that the sitemap lacks; Left
	// pages the crawl left out (noindex, canonical, an error status, …).
	Orphans int `json:"or,omitempty"`
	Missing int `json:"ms,omitempty"`
	Left    int `json:"lo,omitempty"`
}

// Mark kinds.
const (
	MarkOrphan  = "orphan"
	MarkMissing = "missing"
	MarkLeft    = "left"
)

// Mark is a page the link view flags.
type Mark struct {
	Loc, Title string
	// Kind is MarkOrphan, MarkMissing or MarkLeft; Why says it in words
	// ("orphan: no page links here", "left out: noindex").
	Kind, Why string
}

// Edge is an aggregate of internal links between two sections.
type Edge struct {
	From, To *Node
	// Links counts the followed links from pages of From to pages of To.
	Links int
}

// maxEdges bounds the section pairs kept while reading a crawl's links.
const maxEdges = 1_000_000

// LinkTree is the tree of a crawl's link graph: Tree's sections with
// their link counts and flagged pages, and the links between sections.
type LinkTree struct {
	*Tree
	// Edges are the aggregated links, heaviest first.
	Edges []Edge
	// Start is the crawl's start URL.
	Start string
	// DroppedEdges counts links not aggregated because maxEdges section
	// pairs were held.
	DroppedEdges int
	// Unreached counts the sitemap's URLs the crawl never saw (all of
	// them, most often, when the sitemap names another host than the
	// crawl's).
	Unreached int
}

// Links reads the last run of a crawl log into a LinkTree. The sitemap
// compared with the crawl is listed (nil: the pages the crawl itself
// listed). Every sitemap page is drawn in its section with its inlinks
// and click depth; a sitemap page that no crawled page links to (the
// start page aside) is an orphan; a page the crawl found linked and
// indexable that the sitemap does not list is missing (drawn in its
// section, not counted among its pages); a page the crawl left out is
// marked with why. Followed links between pages become weighted edges
// between their sections. Memory: the tree's bounds, the set of sitemap
// URLs (bounded with a disk spill) and at most a million section pairs.
func Links(ctx context.Context, log state.CrawlLog, listed sitemap.Entries, o Options) (*LinkTree, error) {
	t := New(o)
	lt := &LinkTree{Tree: t}
	var set *seen.Set
	if listed != nil {
		set = seen.New(0, "")
		defer set.Close()
		if err := lt.addListed(ctx, log, listed, set); err != nil {
			return nil, err
		}
	} else if err := lt.addLogged(ctx, log); err != nil {
		return nil, err
	}
	if err := lt.addOutcomes(ctx, log, set); err != nil {
		return nil, err
	}
	if err := lt.addEdges(ctx, log); err != nil {
		return nil, err
	}
	t.Seal()
	return lt, nil
}

// logPage is the number of rows Links asks of the crawl log at a time.
const logPage = 1000

// addListed adds the sitemap's entries to the tree and to set, and
// marks as an orphan each one the crawl never reached. The first error
// of listed, of set, of the log or of ctx (looked at every 1024
// entries) stops it; an empty sitemap adds nothing.
func (lt *LinkTree) addListed(ctx context.Context, log state.CrawlLog, listed sitemap.Entries, set *seen.Set) error {
	t := lt.Tree
	n := 0
	err := listed(ctx, func(u *sitemap.URL) error {
		if n++; n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		t.Add(u)
		if _, err := set.Add(u.Loc); err != nil {
			return err
		}
		// A sitemap page the crawl never reached is linked from nowhere.
		ok, err := log.Seen(ctx, u.Loc)
		if err != nil {
			return err
		}
		if !ok {
			lt.Unreached++
			lt.mark(u.Loc, "", MarkOrphan, "orphan: the crawl never reached it", true)
		}
		return nil
	})
	return err
}

// addLogged adds the pages the crawl itself listed (the sitemap entries
// it recorded), a page of the log at a time; a log error stops it, and
// a log without them adds nothing.
func (lt *LinkTree) addLogged(ctx context.Context, log state.CrawlLog) error {
	t := lt.Tree
	for after := ""; ; {
		es, err := log.Listed(ctx, after, logPage)
		if err != nil {
			return err
		}
		for _, e := range es {
			t.Add(e.Entry)
		}
		if len(es) < logPage {
			break
		}
		after = es[len(es)-1].Loc
	}
	return nil
}

// addOutcomes adds what the crawl made of each page, in URL order. A
// page is in the sitemap if set (the sitemap's URLs, nil when the crawl
// listed them) holds it, else as the log says. A log or set error stops
// it.
func (lt *LinkTree) addOutcomes(ctx context.Context, log state.CrawlLog, set *seen.Set) error {
	// The outcomes, a page at a time, sorted by URL.
	for after := ""; ; {
		os, err := log.Outcomes(ctx, after, logPage)
		if err != nil {
			return err
		}
		for i := range os {
			oc := &os[i]
			if oc.Referrer == "" && oc.Depth == 0 {
				lt.Start = oc.Loc
			}
			inSitemap := oc.Included
			if set != nil {
				isNew, err := set.Add(oc.Loc)
				if err != nil {
					return err
				}
				inSitemap = !isNew
			}
			lt.outcome(oc, inSitemap)
		}
		if len(os) < logPage {
			break
		}
		after = os[len(os)-1].Loc
	}
	return nil
}

// addEdges turns the crawl's followed links into edges between the
// sections of their pages, weighted by the number of links and sorted
// heaviest first (ties by path). Links whose ends are in no section are
// skipped; past maxEdges section pairs the new ones are only counted
// (DroppedEdges). A log error stops it, with no edge added.
func (lt *LinkTree) addEdges(ctx context.Context, log state.CrawlLog) error {
	t := lt.Tree
	// The links, aggregated by section pair.
	pairs := map[[2]*Node]int{}
	for after := (state.CrawlEdge{}); ; {
		es, err := log.Links(ctx, after, logPage)
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.Kind != state.LinkFollow {
				continue
			}
			a, b := t.section(e.From, false, nil), lt.linkTarget(e.To)
			if a == nil || b == nil {
				continue
			}
			k := [2]*Node{a, b}
			if _, ok := pairs[k]; !ok && len(pairs) >= maxEdges {
				lt.DroppedEdges++
				continue
			}
			pairs[k]++
		}
		if len(es) < logPage {
			break
		}
		after = es[len(es)-1]
	}
	for k, n := range pairs {
		lt.Edges = append(lt.Edges, Edge{From: k[0], To: k[1], Links: n})
	}
	sort.Slice(lt.Edges, func(i, j int) bool {
		a, b := lt.Edges[i], lt.Edges[j]
		if a.Links != b.Links {
			return a.Links > b.Links
		}
		if a.From.Path != b.From.Path {
			return a.From.Path < b.From.Path
		}
		return a.To.Path < b.To.Path
	})
	return nil
}

// outcome adds what the crawl found about one URL.
func (lt *LinkTree) outcome(oc *state.CrawlOutcome, inSitemap bool) {
	t := lt.Tree
	switch {
	case inSitemap:
		n := t.section(oc.Loc, false, nil)
		if n == nil {
			return
		}
		for i := range n.Pages {
			if n.Pages[i].Loc == oc.Loc {
				n.Pages[i].Title = oc.Title
			}
		}
		for m := n; m != nil; m = m.Parent {
			ls := linkStats(m)
			ls.Inlinks += oc.Inlinks
			if oc.Clicks >= 0 && (ls.Depth < 0 || oc.Clicks < ls.Depth) {
				ls.Depth = oc.Clicks
			}
		}
		switch {
		case !oc.Included && oc.Reason != "":
			lt.mark(oc.Loc, oc.Title, MarkLeft, "in the sitemap but left out: "+oc.Reason, false)
		case oc.Inlinks == 0 && !(oc.Referrer == "" && oc.Depth == 0):
			lt.mark(oc.Loc, oc.Title, MarkOrphan, "orphan: no page links here", false)
		}
	case oc.Included && oc.Inlinks > 0:
		lt.mark(oc.Loc, oc.Title, MarkMissing, "missing: linked and indexable, not in the sitemap", true)
	case !oc.Included && oc.Reason != "" && (oc.Status != 0 || oc.Reason == reasonRobots):
		// Fetched and left out, or linked and disallowed by robots.txt;
		// not the URLs the crawl did not fetch for its own bounds (scope,
		// exclude, limits, traps).
		lt.mark(oc.Loc, oc.Title, MarkLeft, "left out: "+oc.Reason, true)
	}
}

// reasonRobots is crawl.ReasonRobots: robots.txt disallows the URL.
const reasonRobots = "robots"

// linkTarget returns the section a link to loc counts in: its own
// section, or, when the tree's bounds folded sections, the deepest one
// held. A link to a URL of no section held (one the crawl did not fetch
// for its scope or limits, in no sitemap) counts nowhere: it would
// otherwise add links to an ancestor, the home page's section most often.
func (lt *LinkTree) linkTarget(loc string) *Node {
	n := lt.section(loc, false, nil)
	if n == nil || lt.Folded > 0 || lt.Sections >= lt.o.MaxSections || n.depth >= lt.o.MaxDepth {
		return n
	}
	site, path, _ := splitURL(loc)
	if n.Path != site+path[:strings.LastIndexByte(path, '/')+1] {
		return nil
	}
	return n
}

// mark flags loc in its section (made when create and missing) and
// counts it there and above.
func (lt *LinkTree) mark(loc, title, kind, why string, create bool) {
	n := lt.section(loc, create, nil)
	if n == nil {
		return
	}
	n.Flagged++
	if len(n.Marks) < lt.o.MaxPages {
		n.Marks = append(n.Marks, Mark{Loc: loc, Title: title, Kind: kind, Why: why})
	}
	for m := n; m != nil; m = m.Parent {
		ls := linkStats(m)
		switch kind {
		case MarkOrphan:
			ls.Orphans++
		case MarkMissing:
			ls.Missing++
		default:
			ls.Left++
		}
	}
}

func linkStats(n *Node) *LinkStats {
	if n.Link == nil {
		n.Link = &LinkStats{Depth: -1}
	}
	return n.Link
}

// drawnEdges maps the edges onto the nodes of a drawn tree (Tree.Limit):
// a section not drawn counts in its nearest drawn ancestor. It returns
// [from, to, links] by the index of at, heaviest first.
func (lt *LinkTree) drawnEdges(at map[*Node]int) [][3]int {
	idx := func(n *Node) int {
		for m := n; m != nil; m = m.Parent {
			if i, ok := at[m]; ok {
				return i
			}
		}
		return 0
	}
	sum := map[[2]int]int{}
	for _, e := range lt.Edges {
		a, b := idx(e.From), idx(e.To)
		if a != b {
			sum[[2]int{a, b}] += e.Links
		}
	}
	out := make([][3]int, 0, len(sum))
	for k, v := range sum {
		out = append(out, [3]int{k[0], k[1], v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][2] != out[j][2] {
			return out[i][2] > out[j][2]
		}
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

// Warnings are what a person drawing lt should know, one line each: the
// crawl reached none of the sitemap's URLs (inputs, the sitemaps given:
// another host, most often), or the crawl log has not finished (its
// frontier is not empty: links and click depths missing). stateName is
// how the crawl state is named (state.Redact), what the lines call it.
func (lt *LinkTree) Warnings(ctx context.Context, log state.CrawlLog, stateName string, inputs []string) []string {
	var out []string
	if n := lt.URLs - lt.Skipped; n > 0 && lt.Unreached == n {
		crawled := lt.Start
		if crawled == "" {
			crawled = stateName
		}
		out = append(out, fmt.Sprintf("the crawl of %s reached none of the %s of %s: every one is drawn as an orphan; give the sitemaps of the site crawled (the same scheme, host and port)",
			crawled, plural.Of(n, "URL", "URLs"), strings.Join(inputs, ", ")))
	}
	if fc, ok := log.(state.FrontierCounter); ok {
		if n, err := fc.Frontier(ctx); err == nil && n > 0 {
			out = append(out, fmt.Sprintf("--state %s: the crawl has not finished (%s still to fetch): the links of those pages are missing and click depths are unknown; run the same crawl command again to finish it",
				stateName, plural.Of(n, "URL", "URLs")))
		}
	}
	return out
}
