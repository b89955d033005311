package validate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Rule IDs of findings about an index's children as a whole, reported
// against the index.
const (
	RuleChildMissing = rules.VAL01 // a child sitemap of an index could not be read
	RuleChildCap     = rules.VAL02 // more children than MaxChildren; the rest not checked
	RuleUnlisted     = rules.VAL03 // a sitemap of a directory that no index there lists
)

// TreeOptions configure [Tree].
type TreeOptions struct {
	// Options apply to every document; Name, URL and AcrossIndex are set
	// per document.
	Options
	// Input says how names are resolved and opened: Base, Stdin, Client,
	// MaxChildren (default input.DefaultMaxChildren; negative: none, one
	// VAL-02 warning per index). Its Follow, MaxDepth,
	// AllowOffSite, JSONL, Complete and OnDiagnostic are not used: Tree
	// checks one level of children (I-07) and never reads an index's
	// children on another site (I-05).
	Input input.Options
	// NoChildren checks a named index alone, not its children.
	NoChildren bool

	// OnDiagnostic receives every diagnostic, in order, with the document
	// it counts against: its own, or, for a finding about a child as a
	// whole (unreadable VAL-01, itself an index I-07, off-site I-05, past
	// MaxChildren VAL-02), the index, at the child's <loc>.
	OnDiagnostic func(doc *input.Doc, d sitemap.Diagnostic)
	// OnDocument receives each document once it is checked: an index
	// after its children, its Summary counting the findings about them. A
	// non-nil error stops Tree, which returns it.
	OnDocument func(DocResult) error
	// OnOpenError, when set, receives each named input that cannot be
	// opened (an *input.OpenError: a missing file, an HTTP error), and
	// Tree goes on with the next input; it returns that first error at
	// the end. Without it Tree stops at such an input.
	OnOpenError func(doc *input.Doc, err error)
}

// DocResult is one document [Tree] checked.
type DocResult struct {
	Doc     *input.Doc
	Summary Summary
	// Err is set for a child that could not be read to its end (a failing
	// reader): it is reported as a VAL-01 error against its index right
	// after, and Summary covers what was read.
	Err error
}

// TreeSummary counts what [Tree] found over every document.
type TreeSummary struct {
	Documents               int
	Errors, Warnings, Infos int
}

// Tree validates the documents names resolve to (files, "-", http(s)
// URLs, directories: see package input; a site's homepage or robots.txt
// URL stands for the sitemaps input.Discover finds there, what the search
// says reported against it) one after the other and, for
// each named index, its children (one level, I-07), mapped to files or
// URLs by [input.Child]. It reads them through the one walk of the module
// (input.WalkDocsOptions, [fetch.WalkNames]), whose [fetch.Reader] it is:
// each document is checked as [Document] checks it while the walk reads
// it; the walk's caps, read-once and I-05 rule apply, and what it finds
// about a child is said as below. The children of one index share an [IndexLocs]
// (L-17 across the index). A child on another scheme, host or port than
// its index is not read: the checker reports the I-05 violation on the
// index's entry, and Tree adds an info I-05 note saying it was not
// fetched; a child's redirect to another site is refused the same way.
// A child that cannot be read is a VAL-01 error against the index (an
// HTTP error too), and a child that is an index itself an I-07 error
// there, not followed; an index that lists itself is an I-07 error, and
// not read again; a child listed twice is read once (the checker's L-17),
// and one that redirects to a document read already, or that an index
// before listed, is a FETCH-DUP note. The
// children of an index read from standard input are not looked for: one
// info VAL-01 note at its first entry says so. In a
// directory that holds an index NAME.xml, a sitemap NAME-… it does not
// list is a VAL-03 warning against that sitemap, reported after every document (unless
// NoChildren is set, or an index had more children than were read).
//
// Each document is checked once. A directory's indexes are checked first
// (an index no other one lists before the others), each with its children
// there, so a directory gets the verdict its index gets; its other files
// follow. A document named again, or named after an index that listed
// it, is not checked again.
//
// Tree returns an error only when the run cannot go on: a name that
// cannot be resolved, a named document that cannot be opened or read
// (the error names it), or ctx done (ctx.Err()).
func Tree(ctx context.Context, names []string, o TreeOptions) (TreeSummary, error) {
	t := &tree{o: o, listed: map[string]bool{}, read: map[int]*docItems{}, nodes: map[int]*node{}}
	var openErr error
	var all []string // names, each site replaced by the sitemaps found there
	for _, name := range names {
		if !input.IsSiteStart(name) {
			if u, err := url.Parse(name); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
				t.site = true // a sitemap of a site: its pages' robots.txt applies
			}
			all = append(all, name)
			continue
		}
		t.site = true
		found, err := t.discover(ctx, name)
		if err != nil {
			if ctx.Err() != nil {
				return t.sum, ctx.Err()
			}
			var oe *input.OpenError
			if o.OnOpenError != nil && errors.As(err, &oe) {
				o.OnOpenError(oe.Doc, err)
				openErr = cmp.Or(openErr, err)
				continue
			}
			return t.sum, err
		}
		all = append(all, found...)
	}
	docs, err := input.Resolve(all, o.Input)
	if err != nil || len(docs) == 0 {
		return t.sum, cmp.Or(err, openErr)
	}
	if !o.NoChildren {
		indexesFirst(ctx, docs, o.Input)
	}
	in := o.Input
	in.Siblings, in.MaxDepth, in.AllowOffSite, in.SkipDuplicates, in.JSONL = true, 1, false, false, false
	fo, walkNames := input.WalkDocsOptions(docs, in)
	if o.NoChildren {
		fo.MaxDepth = 1 // named documents only
	}
	fo.MaxSitemaps = math.MaxInt
	fo.Reader = t
	if _, err := fetch.WalkNames(ctx, walkNames, fo, t.event); err != nil {
		if ctx.Err() != nil {
			return t.sum, ctx.Err()
		}
		return t.sum, err
	}
	if err := t.indexDone(); err != nil {
		return t.sum, err
	}
	t.unlisted()
	return t.sum, cmp.Or(t.openErr, openErr)
}

// tree is one run of [Tree]: the reader of the walk's documents (on the
// walk's goroutine: Read, Finding) and the receiver of its events.
type tree struct {
	o   TreeOptions
	sum TreeSummary

	mu   sync.Mutex
	read map[int]*docItems // by node ID: the documents read, until their tree is done
	// Set while reading, read once the walk is over: the files of
	// directory inputs an index there listed (by path), and whether an
	// index had more children than were checked.
	listed map[string]bool
	capped bool

	// The receiver's: the documents of the walk by node ID, the named
	// index whose result waits for its children, the named documents of
	// directory inputs read (sitemaps and indexes, for VAL-03), the
	// first named input that could not be opened.
	// site is set when a name was on the web (a site, or a sitemap by
	// its URL): the pages its sitemaps list are checked against their
	// site's robots.txt (L-20), as Search Console checks a submitted
	// sitemap; a local file's pages are not.
	site              bool
	nodes             map[int]*node
	index             *node
	sitemaps, indexes []*input.Doc
	openErr           error
}

// docItems is a document the walk reads: its checker, its place.
type docItems struct {
	*docReader
	doc    *input.Doc
	depth  int
	across *IndexLocs // shared by its children (L-17 across the index)
	// capNote is the VAL-02 warning of an index with more children than
	// were checked, said after them.
	capNote *sitemap.Diagnostic
}

// node is a document of the walk as the receiver knows it: the findings
// about it (its own, and those about its children) counted in its
// Summary; a named index's VAL-02 warning, said after its children.
type node struct {
	doc     *input.Doc
	parent  *node
	seq     int
	sum     Summary
	capNote *sitemap.Diagnostic
}

func (t *tree) got(id int) *docItems {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.read[id]
}

// Read checks the document n of the walk as it is read (fetch.Reader).
func (t *tree) Read(ctx context.Context, n *fetch.Node, d *fetch.Doc, _ string, body io.Reader, report func(sitemap.Diagnostic)) fetch.Items {
	x := &docItems{doc: &input.Doc{Name: n.URL, URL: n.URL}, depth: n.Depth}
	if d != nil && d.Ref != nil {
		x.doc = d.Ref.(*input.Doc)
	}
	vo := t.o.Options
	vo.Name, vo.URL, vo.AcrossIndex = x.doc.Name, x.doc.URL, nil
	vo.childrenFollowed = !t.o.NoChildren
	vo.robots = t.robots(ctx)
	if p := t.got(n.Parent); p != nil {
		vo.AcrossIndex = p.across
		if p.doc.Sibling(x.doc) {
			t.listed[x.doc.Path] = true
		}
	} else if !t.o.NoChildren {
		x.across = NewIndexLocs()
	}
	x.docReader, _ = newDocReader(ctx, body, vo, report) // its error ends the document
	t.mu.Lock()
	t.read[n.ID] = x
	t.mu.Unlock()
	return x
}

// robots is the robots.txt check of the pages listed (L-20) for
// sitemaps read from the web, nil for local files: the robots.txt of each page's site,
// fetched once per site through the Client (as audit reads it), read
// for the Client's user agent; one that could not be had says nothing.
func (t *tree) robots(ctx context.Context) func(string) (bool, string) {
	c := t.o.Input.Client
	if !t.site || c == nil {
		return nil
	}
	agent := c.RobotsToken()
	return func(loc string) (bool, string) {
		r, err := c.Robots(ctx, loc)
		return err == nil && r.Disallows(agent, loc), agent
	}
}

// Finding says what the walk found about the document n its way
// (fetch.Reader): the checker reports what an entry's loc breaks (L-01,
// L-16, I-05), a child's failure or nesting is said against its index
// once the child is done (event), one level of children is read.
func (t *tree) Finding(n *fetch.Node, d sitemap.Diagnostic) (sitemap.Diagnostic, bool) {
	x := t.got(n.ID)
	switch {
	case d.Rule == rules.FetchDup:
		// A name given twice, a file of a directory checked with its
		// index, a child listed twice (L-17): checked once, nothing to
		// add. A child that redirects to a document checked already, or
		// that another index listed first, is said.
		return d, x != nil && !x.listedBefore(d.Line, d.Col)
	case d.Rule == rules.FetchLoop && x != nil:
		// One level of children: the only loop is an index listing itself.
		return sitemap.Diagnostic{Rule: rules.I07, Severity: sitemap.SeverityError, Line: d.Line, Col: d.Col, File: d.File, URL: d.URL,
			Message: fmt.Sprintf("child %s is this index itself; an index lists sitemaps, not indexes (not read again)", x.childAt(d.Line, d.Col))}, true
	case d.Rule == rules.I05 && x != nil:
		if x.depth > 1 || t.o.NoChildren {
			return d, false // the checker's, on an index not followed
		}
		if x.doc.URL == "" {
			return d, true // the site is the first child's: the checker could not say it
		}
		return sitemap.Diagnostic{Rule: rules.I05, Severity: sitemap.SeverityInfo, Line: d.Line, Col: d.Col, File: d.File, URL: d.URL,
			Message: fmt.Sprintf("child sitemap %s is on another site than the index (%s); not fetched", x.childAt(d.Line, d.Col), urlnorm.Display(x.doc.URL))}, true
	case d.Rule == rules.VAL02 && x != nil:
		t.capped = true
		max := cmp.Or(t.o.Input.MaxChildren, input.DefaultMaxChildren)
		if max < 0 {
			max = 0 // none
		}
		if max < len(x.sum.ChildAt) {
			d.Line, d.Col = x.sum.ChildAt[max].Line, x.sum.ChildAt[max].Col
		}
		d.Message = fmt.Sprintf("the index lists %d sitemaps; only the first %d were checked (raise --max-children)", len(x.sum.Children), max)
		x.capNote = &d // said after the children checked
		return d, false
	case d.Rule == rules.VAL01 && x != nil && x.doc.Stdin:
		return d, false // one note at the end of the index
	case d.Rule == rules.L01, d.Rule == rules.L16, d.Rule == rules.I07, d.Rule == rules.FetchCap,
		d.Rule == rules.VAL01 && x == nil,
		d.Severity == sitemap.SeverityError && strings.HasPrefix(string(d.Rule), "FETCH-"):
		// The checker's; a nested index said against its index; the
		// depth of one level; a document that cannot be read, said against
		// its index or as the input that cannot be read. (A VAL-01 of a
		// document read is about an entry that maps to no file: said.)
		return d, false
	}
	return d, true
}

// listedBefore reports whether the index entry at line:col lists a loc
// an earlier entry lists.
func (x *docItems) listedBefore(line, col int) bool {
	for i, p := range x.sum.ChildAt {
		if p.Line == line && p.Col == col {
			return slices.Contains(x.sum.Children[:i], x.sum.Children[i])
		}
	}
	return false
}

// childAt returns the loc of the index entry at line:col.
func (x *docItems) childAt(line, col int) string {
	for i, p := range x.sum.ChildAt {
		if p.Line == line && p.Col == col {
			return x.sum.Children[i]
		}
	}
	return "?"
}

// event receives the walk's events.
func (t *tree) event(ev fetch.Event) error {
	switch ev.Kind {
	case fetch.EventNodeStart:
		n := ev.Node
		if n.Kind != fetch.NodeSitemap {
			return nil
		}
		if n.Parent == 0 {
			if err := t.indexDone(); err != nil {
				return err
			}
			t.mu.Lock()
			for id := range t.read {
				if id < n.ID {
					delete(t.read, id) // a tree before this one: done
				}
			}
			t.mu.Unlock()
			clear(t.nodes)
		}
		doc := &input.Doc{Name: n.URL, URL: cmp.Or(n.Served, n.URL)}
		if !urlnorm.IsHTTP(doc.URL) {
			doc.URL = ""
		}
		t.nodes[n.ID] = &node{doc: doc, parent: t.nodes[n.Parent], seq: n.Seq}
	case fetch.EventDiagnostic:
		nd := t.nodes[ev.NodeID]
		if nd == nil {
			t.report(&input.Doc{Name: cmp.Or(ev.Diagnostic.URL, ev.Diagnostic.File)}, *ev.Diagnostic)
			return nil
		}
		nd.report(t, *ev.Diagnostic)
	case fetch.EventNodeEnd:
		if ev.Node.Kind == fetch.NodeSitemap {
			return t.ended(ev.Node)
		}
	}
	return nil
}

func (nd *node) report(t *tree, d sitemap.Diagnostic) {
	nd.sum.count(d)
	t.report(nd.doc, d)
}

// about reports a finding about the child nd against its index, at the
// child's entry.
func (nd *node) about(t *tree, idx *docItems, d sitemap.Diagnostic) {
	p := nd.parent
	if i := nd.seq - 1; idx != nil && i >= 0 && i < len(idx.sum.ChildAt) {
		d.Line, d.Col = idx.sum.ChildAt[i].Line, idx.sum.ChildAt[i].Col
	}
	p.report(t, at(p.doc.Name, d))
}

// ended takes a document the walk is done with: a named one that could
// not be opened is the caller's (OnOpenError), a child's failure or
// nesting goes against its index, a named index waits for its children.
func (t *tree) ended(n *fetch.Node) error {
	nd := t.nodes[n.ID]
	x := t.got(n.ID)
	var idx *docItems
	if nd.parent != nil {
		idx = t.got(n.Parent)
	}
	if x == nil || x.failed != nil {
		if !n.Failed && x == nil {
			return nil // redirected to a document read before, or the walk stopped
		}
		err := n.Cause
		if x != nil {
			err = x.failed
		}
		if nd.parent == nil {
			return t.unopened(nd, x, err)
		}
		if x != nil {
			t.sum.Documents++
			if err := t.done(DocResult{Doc: nd.doc, Summary: nd.result(x), Err: err}); err != nil {
				return err
			}
		}
		msg := n.Err
		if x != nil || urlnorm.IsHTTP(nd.doc.Name) {
			msg = fmt.Sprintf("child sitemap %s cannot be read: %v", nd.loc(idx, n), decodeCause(err))
		}
		nd.about(t, idx, sitemap.Diagnostic{Rule: RuleChildMissing, Severity: sitemap.SeverityError, Message: msg})
		return nil
	}
	t.sum.Documents++
	if nd.parent != nil && x.sum.Format == sitemap.FormatIndex {
		nd.about(t, idx, sitemap.Diagnostic{Rule: rules.I07, Severity: sitemap.SeverityError,
			Message: fmt.Sprintf("child %s is itself a sitemap index; indexes cannot be nested (not followed)", nd.loc(idx, n))})
	}
	if nd.parent != nil || t.o.NoChildren || x.sum.Format != sitemap.FormatIndex {
		if nd.parent == nil {
			t.dirFile(x)
		}
		return t.done(DocResult{Doc: nd.doc, Summary: nd.result(x)})
	}
	t.dirFile(x)
	if x.doc.Stdin && x.sum.IndexEntries > 0 {
		// Nowhere to look for them: not the sitemap's fault, so one
		// note, not an error per child.
		what := fmt.Sprintf("the %d child sitemaps of an index read from standard input are", x.sum.IndexEntries)
		if x.sum.IndexEntries == 1 {
			what = "the child sitemap of an index read from standard input is"
		}
		d := sitemap.Diagnostic{Rule: RuleChildMissing, Severity: sitemap.SeverityInfo,
			Message: what + " not checked; give the index as a file (its children beside it) or a URL to check them"}
		if len(x.sum.ChildAt) > 0 {
			d.Line, d.Col = x.sum.ChildAt[0].Line, x.sum.ChildAt[0].Col
		}
		nd.report(t, at(nd.doc.Name, d))
	}
	// An index's result comes after its children's, counting the
	// findings about them.
	nd.sum, nd.capNote = nd.result(x), x.capNote
	t.index = nd
	return nil
}

// loc is the child nd's URL as its index idx lists it (n's URL when not
// known).
func (nd *node) loc(idx *docItems, n *fetch.Node) string {
	if i := nd.seq - 1; idx != nil && i >= 0 && i < len(idx.sum.Children) {
		return idx.sum.Children[i]
	}
	return n.URL
}

// result is the Summary of the document x: the checker's, the counts
// those of every finding reported against it so far.
func (nd *node) result(x *docItems) Summary {
	s := x.sum
	s.Errors, s.Warnings, s.Infos = nd.sum.Errors, nd.sum.Warnings, nd.sum.Infos
	return s
}

// indexDone hands on the result of the named index whose children were
// all read.
func (t *tree) indexDone() error {
	nd := t.index
	if nd == nil {
		return nil
	}
	t.index = nil
	if nd.capNote != nil {
		nd.report(t, *nd.capNote)
	}
	return t.done(DocResult{Doc: nd.doc, Summary: nd.sum})
}

// unopened takes a named document that could not be opened or read.
func (t *tree) unopened(nd *node, x *docItems, err error) error {
	if x != nil {
		return fmt.Errorf("%s: %w", nd.doc.Name, decodeCause(err))
	}
	var oe *input.OpenError
	if !errors.As(err, &oe) {
		oe = &input.OpenError{Doc: nd.doc, Err: err}
		err = oe
	}
	if t.o.OnOpenError == nil {
		return err
	}
	t.o.OnOpenError(oe.Doc, err)
	t.openErr = cmp.Or(t.openErr, err)
	return nil
}

// dirFile notes a named document of a directory input (VAL-03).
func (t *tree) dirFile(x *docItems) {
	if !x.doc.Sibling(x.doc) {
		return
	}
	switch x.sum.Format {
	case sitemap.FormatIndex:
		t.indexes = append(t.indexes, x.doc)
	case sitemap.FormatURLSet, sitemap.FormatText:
		t.sitemaps = append(t.sitemaps, x.doc)
	}
}

// discover returns the URLs of the sitemaps the site start leads to
// (input.Discover); what the search says is reported against start.
func (t *tree) discover(ctx context.Context, start string) ([]string, error) {
	doc := &input.Doc{Name: start, URL: start}
	return input.Discover(ctx, start, t.o.Input, func(d sitemap.Diagnostic) { t.report(doc, d) })
}

// indexesFirst orders the files of each directory input (docs of a
// directory come together from input.Resolve) so that an index comes
// before the files it lists: first the indexes no index of the directory
// lists, then the other indexes, then the other files, each group in its
// order. An index's children in the directory are then checked as its
// children (L-17 across the index, I-07 for a nested index) before their
// own turn, which is skipped. A file that cannot be read counts as no
// index.
func indexesFirst(ctx context.Context, docs []input.Doc, o input.Options) {
	for i := 0; i < len(docs); {
		j := i + 1
		for j < len(docs) && docs[i].Sibling(&docs[j]) {
			j++
		}
		if j-i > 1 {
			run := docs[i:j]
			rank := make(map[string]int, len(run)) // 0 top index, 1 listed index, 2 other
			listed := map[string]bool{}
			for k := range run {
				rank[run[k].Path] = 2
				if kids, ok := indexChildren(ctx, &run[k], o); ok {
					rank[run[k].Path] = 0
					for _, p := range kids {
						if p != run[k].Path {
							listed[p] = true
						}
					}
				}
			}
			for p, r := range rank {
				if r == 0 && listed[p] {
					rank[p] = 1
				}
			}
			slices.SortStableFunc(run, func(a, b input.Doc) int { return rank[a.Path] - rank[b.Path] })
		}
		i = j
	}
}

// indexChildren reports whether d is a sitemap index and, if so, the
// files its entries name (input.Child); it reads only the first entry of
// a document that is not an index.
func indexChildren(ctx context.Context, d *input.Doc, o input.Options) ([]string, bool) {
	rc, err := input.Open(ctx, d, o)
	if err != nil {
		return nil, false
	}
	defer rc.Close()
	dec := sitemap.NewDecoder(rc, sitemap.DecoderOptions{Name: d.Name, Context: ctx, MaxErrors: -1})
	var kids []string
	parent := *d // Child notes an index's first child in it: the real pass does that
	for n := 0; n < input.DefaultMaxChildren; n++ {
		it, err := dec.Next()
		if err != nil || it.Kind != sitemap.ItemIndex {
			break
		}
		if c, err := input.Child(&parent, it.Index.Loc, true); err == nil && c.Path != "" {
			kids = append(kids, c.Path)
		}
	}
	return kids, dec.Format() == sitemap.FormatIndex
}

// unlisted reports VAL-03 for each sitemap of a directory input that no
// index of the same directory lists, and that is named as a child of one
// (NAME-… beside NAME.xml or NAME.xml.gz): a sitemap of another name is
// the top file of a set of its own (news.xml beside sitemap.xml).
func (t *tree) unlisted() {
	if t.o.NoChildren || t.capped {
		return
	}
	for _, d := range t.sitemaps {
		if t.listed[d.Path] {
			continue
		}
		for _, idx := range t.indexes {
			set := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(idx.Path), ".gz"), ".xml")
			if idx.Sibling(d) && strings.HasPrefix(filepath.Base(d.Path), set+"-") {
				t.report(d, at(d.Name, sitemap.Diagnostic{Rule: RuleUnlisted, Severity: sitemap.SeverityWarning,
					Message: fmt.Sprintf("no index in this directory lists this sitemap (%s holds %s); readers that start at the index never see it: add it to the index or remove it (a previous run's file that sitemap generate keeps for readers of the index it replaced, or a killed run's, goes on its next run)", filepath.Dir(d.Path), filepath.Base(idx.Path))}))
				break
			}
		}
	}
}

func (t *tree) report(doc *input.Doc, d sitemap.Diagnostic) {
	switch d.Severity {
	case sitemap.SeverityError:
		t.sum.Errors++
	case sitemap.SeverityWarning:
		t.sum.Warnings++
	default:
		t.sum.Infos++
	}
	if t.o.OnDiagnostic != nil {
		t.o.OnDiagnostic(doc, d)
	}
}

func (t *tree) done(r DocResult) error {
	if t.o.OnDocument == nil {
		return nil
	}
	return t.o.OnDocument(r)
}

// decodeCause returns the cause of a decoder error without the
// diagnostic text that wraps it (which repeats the document's name).
func decodeCause(err error) error {
	var de *sitemap.DecodeError
	if errors.As(err, &de) && de.Err != nil {
		return de.Err
	}
	return err
}

// at places d in the document name: its URL field for an http(s) name,
// else its File field.
func at(name string, d sitemap.Diagnostic) sitemap.Diagnostic {
	if urlnorm.IsHTTP(name) {
		d.URL = name
	} else {
		d.File = name
	}
	return d
}
