package validate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
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
// URLs by [input.Child]. The children of one index share an [IndexLocs]
// (L-17 across the index). A child on another scheme, host or port than
// its index is not read: the checker reports the I-05 violation on the
// index's entry, and Tree adds an info I-05 note saying it was not
// fetched; a child's redirect to another site is refused the same way.
// A child that cannot be read is a VAL-01 error against the index; an
// index that lists itself is an I-07 error there, and not read again. The
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
	t := &tree{o: o, listed: map[string]bool{}, checked: map[string]bool{}}
	var openErr error
	var all []string // names, each site replaced by the sitemaps found there
	for _, name := range names {
		if !input.IsSiteStart(name) {
			all = append(all, name)
			continue
		}
		found, err := t.discover(ctx, name)
		if err != nil {
			if ctx.Err() != nil {
				return t.sum, ctx.Err()
			}
			var oe *input.OpenError
			if o.OnOpenError != nil && errors.As(err, &oe) {
				o.OnOpenError(oe.Doc, err)
				if openErr == nil {
					openErr = err
				}
				continue
			}
			return t.sum, err
		}
		all = append(all, found...)
	}
	docs, err := input.Resolve(all, o.Input)
	if err != nil {
		return t.sum, err
	}
	if !o.NoChildren {
		indexesFirst(ctx, docs, o.Input)
	}
	for i := range docs {
		if k := docs[i].Key(); k != "" && t.checked[k] {
			continue // checked already: named twice, or a child of an index named before
		}
		if err := t.document(ctx, &docs[i], nil, nil); err != nil {
			if ctx.Err() != nil {
				return t.sum, ctx.Err()
			}
			var oe *input.OpenError
			if o.OnOpenError != nil && errors.As(err, &oe) {
				o.OnOpenError(&docs[i], err)
				if openErr == nil {
					openErr = err
				}
				continue
			}
			return t.sum, err
		}
	}
	t.unlisted()
	return t.sum, openErr
}

type tree struct {
	o   TreeOptions
	sum TreeSummary
	// Of the files of directory inputs: the sitemaps and the indexes
	// read, the sitemaps an index listed (by path), and whether an index
	// had more children than were read.
	sitemaps, indexes []*input.Doc
	listed            map[string]bool
	capped            bool
	// checked holds the documents checked (input.Doc.Key), named or as
	// a child: a document is checked once.
	checked map[string]bool
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

// document checks doc and, when it is a named index, its children. A
// child (parent set) that cannot be read is reported through parent.
func (t *tree) document(ctx context.Context, doc *input.Doc, parent func(sitemap.Diagnostic), across *IndexLocs) error {
	if k := doc.Key(); k != "" {
		t.checked[k] = true
	}
	rc, err := input.Open(ctx, doc, t.o.Input)
	if err != nil {
		if parent == nil || ctx.Err() != nil {
			return err
		}
		parent(sitemap.Diagnostic{Rule: RuleChildMissing, Severity: sitemap.SeverityError, Message: childUnreadable(doc, err)})
		return nil
	}
	if final := doc.FinalURL(); final != "" {
		fk := (&input.Doc{URL: final}).Key()
		if parent != nil && t.checked[fk] {
			// Redirected to a sitemap checked already: checked once.
			rc.Close()
			parent(sitemap.Diagnostic{Rule: rules.FetchDup, Severity: sitemap.SeverityInfo,
				Message: fmt.Sprintf("child sitemap %s redirects to %s, checked already; checked once", doc.URL, final)})
			return nil
		}
		t.checked[fk] = true
	}
	vo := t.o.Options
	vo.Name, vo.URL, vo.AcrossIndex = doc.Name, doc.URL, across
	sum, err := Document(ctx, rc, vo, func(d sitemap.Diagnostic) { t.report(doc, d) })
	rc.Close()
	t.sum.Documents++
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if parent == nil {
			return fmt.Errorf("%s: %w", doc.Name, decodeCause(err))
		}
		if err := t.done(DocResult{Doc: doc, Summary: sum, Err: err}); err != nil {
			return err
		}
		parent(sitemap.Diagnostic{Rule: RuleChildMissing, Severity: sitemap.SeverityError, Message: childUnreadable(doc, err)})
		return nil
	}
	if parent == nil && doc.Sibling(doc) {
		switch sum.Format {
		case sitemap.FormatIndex:
			t.indexes = append(t.indexes, doc)
		case sitemap.FormatURLSet, sitemap.FormatText:
			t.sitemaps = append(t.sitemaps, doc)
		}
	}
	if parent == nil && sum.Format == sitemap.FormatIndex && !t.o.NoChildren {
		if err := t.children(ctx, doc, &sum); err != nil {
			return err
		}
	}
	if err := t.done(DocResult{Doc: doc, Summary: sum}); err != nil {
		return err
	}
	if parent != nil && sum.Format == sitemap.FormatIndex {
		parent(sitemap.Diagnostic{Rule: rules.I07, Severity: sitemap.SeverityError,
			Message: fmt.Sprintf("child %s is itself a sitemap index; indexes cannot be nested (not followed)", doc.URL)})
	}
	return nil
}

// children checks the children of the index doc (one level, I-07). The
// findings about a child as a whole go against the index, at the child's
// <loc>, and count in sum.
func (t *tree) children(ctx context.Context, doc *input.Doc, sum *Summary) error {
	across := NewIndexLocs()
	checked := make(map[string]bool) // the children checked, by file or URL
	stdinNoted := false
	max := t.o.Input.MaxChildren
	switch {
	case max == 0:
		max = input.DefaultMaxChildren
	case max < 0:
		max = 0 // none
	}
	for i, loc := range sum.Children {
		var pos Pos
		if i < len(sum.ChildAt) {
			pos = sum.ChildAt[i]
		}
		here := func(d sitemap.Diagnostic) {
			d.Line, d.Col = pos.Line, pos.Col
			sum.count(d)
			t.report(doc, at(doc.Name, d))
		}
		if i == max {
			t.capped = true
			here(sitemap.Diagnostic{Rule: RuleChildCap, Severity: sitemap.SeverityWarning,
				Message: fmt.Sprintf("the index lists %d sitemaps; only the first %d were checked (raise --max-children)", len(sum.Children), max)})
			break
		}
		child, err := input.Child(doc, loc, false)
		var off *input.OffSiteError
		if errors.As(err, &off) && off.Inferred {
			// I-05 for a local index without a URL: its site is its
			// first child's, which the checker does not know; the
			// violation is reported here, as every command does.
			here(off.Diagnostic(false))
			continue
		}
		if off != nil {
			// I-05: the checker reported the violation on this entry (an
			// error, or cross-submitted or trusted a warning); the child
			// is not read.
			here(sitemap.Diagnostic{Rule: rules.I05, Severity: sitemap.SeverityInfo,
				Message: fmt.Sprintf("child sitemap %s is on another site than the index (%s); not fetched", loc, urlnorm.Display(doc.URL))})
			continue
		}
		if err != nil && doc.Stdin {
			// Nowhere to look for them: not the sitemap's fault, so one
			// note, not an error per child.
			if !stdinNoted {
				stdinNoted = true
				what := fmt.Sprintf("the %d child sitemaps of an index read from standard input are", sum.IndexEntries)
				if sum.IndexEntries == 1 {
					what = "the child sitemap of an index read from standard input is"
				}
				here(sitemap.Diagnostic{Rule: RuleChildMissing, Severity: sitemap.SeverityInfo,
					Message: what + " not checked; give the index as a file (its children beside it) or a URL to check them"})
			}
			continue
		}
		if err != nil {
			here(sitemap.Diagnostic{Rule: RuleChildMissing, Severity: sitemap.SeverityError,
				Message: fmt.Sprintf("child sitemap %q not checked: %v", loc, err)})
			continue
		}
		if doc.Sibling(&child) {
			t.listed[child.Path] = true
			if t.checked[child.Key()] {
				continue // a file of the same directory input, checked already
			}
			// Checked now, as this index's child; its own turn is skipped.
		}
		if child.Path != "" && child.Path == doc.Path ||
			child.Path == "" && doc.Path == "" && child.URL != "" && child.URL == doc.URL {
			// The index lists itself: checked already, and an index
			// among its own children (I-07).
			here(sitemap.Diagnostic{Rule: rules.I07, Severity: sitemap.SeverityError,
				Message: fmt.Sprintf("child %s is this index itself; an index lists sitemaps, not indexes (not read again)", loc)})
			continue
		}
		k := child.Path + "\x00" + child.URL
		if checked[k] {
			continue // listed again: the checker said so (L-17); checked once
		}
		checked[k] = true
		if err := t.document(ctx, &child, here, across); err != nil {
			return err
		}
	}
	return nil
}

// childUnreadable is the VAL-01 message for a child that could not be
// read: for a local file, which file was looked for and how children map
// to files.
func childUnreadable(doc *input.Doc, err error) string {
	if doc.Path != "" && errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("child sitemap %s not found: no file %s (a child is looked for beside the index, by its path under --base or else by its file name; --no-children skips children)", doc.URL, doc.Path)
	}
	var oe *input.OpenError
	if errors.As(err, &oe) {
		err = oe.Err
	}
	return fmt.Sprintf("child sitemap %s cannot be read: %v", doc.URL, decodeCause(err))
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
