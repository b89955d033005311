package generate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/extsort"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// hreflang clusters (H-03, H-04, H-08), checked across the whole set as
// package validate checks them within a document, in bounded memory.
//
// From the first entry with alternates on, Run holds the entries back:
// each is checked as the builder would check it (build.Builder.Check)
// and written to a spool file (unlinked at creation); every alternate
// becomes a claim "E names H as its hreflang L" in external sorts
// (internal/extsort). Once the source is read, the claims are grouped
// into clusters: the pages linked by claims, labelled by the least URL
// within two links (clusters are stars or cliques, so two links reach
// every member; a claim whose two ends still carry different labels is
// dropped). A cluster's set is the union of its claims: a language two
// pages claim differently (unless exactly one of them names itself with
// it: that one keeps it), a second x-default, or a page the set read
// but could not take back (written before the first entry with
// alternates, or invalid) leaves it, with a warning. Every member, a
// page of the set the cluster's set names, then lists exactly that set:
// the missing return links (H-04), the missing self link (H-03) and the
// other members' links (H-08) added; a page of the cluster the set does
// not name loses its alternates. Then the spool is read back in order and
// each entry added to the builder, with its cluster's set.

// sortMemory is the memory of each of the pass's sorts (two at a time).
const sortMemory = 32 << 20

// maxCluster bounds the claims of one cluster held in memory; a larger
// cluster (not one of language versions) is left as it is, once said.
const maxCluster = 1 << 16

// hreflangPass holds the entries of a run back for the cluster check.
type hreflangPass struct {
	dir     string
	spool   *os.File
	w       *bufio.Writer
	enc     *json.Encoder
	n       int64           // entries spooled
	adj     *extsort.Sorter // "x\0y": the claims' links, both ways, and each node to itself
	nodes   *extsort.Sorter // by node: labels, claims by their page, pages
	changes *extsort.Sorter // by seq: the entries the check changes
}

// Record kinds in the sorts, after the node or label they are keyed by.
const (
	kindLabel = 'a' // a label candidate (sorts first)
	kindClaim = 'c'
	kindPage  = 'p'
)

func newHreflangPass(dir string) (*hreflangPass, error) {
	f, err := os.CreateTemp(dir, "sitemap-hreflang-*")
	if err != nil {
		return nil, err
	}
	// Unlinked at once: nothing is left behind however the run ends.
	os.Remove(f.Name())
	h := &hreflangPass{dir: dir, spool: f, w: bufio.NewWriterSize(f, 64<<10)}
	h.enc = json.NewEncoder(h.w)
	o := extsort.Options{Dir: dir, Memory: sortMemory}
	h.adj = extsort.New(o, bytes.Compare)
	h.nodes = extsort.New(o, bytes.Compare)
	h.changes = extsort.New(o, bytes.Compare)
	return h, nil
}

func (h *hreflangPass) close() {
	h.adj.Close()
	h.nodes.Close()
	h.changes.Close()
	h.spool.Close()
}

// rec joins fields with NUL, which no URL or code of a checked entry has.
func rec(fields ...string) []byte {
	return []byte(strings.Join(fields, "\x00"))
}

// seqKey is n as 16 hex digits, so that byte order is numeric order.
func seqKey(n int64) string { return fmt.Sprintf("%016x", n) }

// hold spools u (already checked) and records its claims.
func (h *hreflangPass) hold(u *sitemap.URL) error {
	seq := h.n
	h.n++
	if err := h.enc.Encode(u); err != nil {
		return err
	}
	k := urlnorm.Key(u.Loc)
	if err := h.nodes.Add(rec(k, string(kindPage), seqKey(seq))); err != nil {
		return err
	}
	if len(u.Alternates) == 0 {
		return nil
	}
	if err := h.adj.Add(rec(k, k)); err != nil {
		return err
	}
	for _, a := range u.Alternates {
		t := urlnorm.Key(a.Href)
		if t != k {
			for _, r := range [][]byte{rec(k, t), rec(t, k), rec(t, t)} {
				if err := h.adj.Add(r); err != nil {
					return err
				}
			}
		}
		if err := h.nodes.Add(rec(k, string(kindClaim), t, strings.ToLower(a.Hreflang), a.Hreflang)); err != nil {
			return err
		}
	}
	return nil
}

// A change is what the pass decided for one spooled entry: its
// alternates from now on, recorded as seqKey(seq) NUL then code and href
// pairs, each followed by NUL; sorted by seq in h.changes.

func changeRec(seq int64, alts []sitemap.Alternate) []byte {
	b := []byte(seqKey(seq))
	b = append(b, 0)
	for _, a := range alts {
		b = append(b, a.Hreflang...)
		b = append(b, 0)
		b = append(b, a.Href...)
		b = append(b, 0)
	}
	return b
}

func parseChange(r []byte) (int64, []sitemap.Alternate) {
	f := fieldsOf(r)
	seq, _ := strconv.ParseInt(f[0], 16, 64)
	var alts []sitemap.Alternate
	for i := 1; i+1 < len(f); i += 2 {
		alts = append(alts, sitemap.Alternate{Hreflang: f[i], Href: f[i+1]})
	}
	return seq, alts
}

// fieldsOf splits a record at NUL.
func fieldsOf(r []byte) []string { return strings.Split(string(r), "\x00") }

// labels runs the first two sorts: each node's label is the least node
// within two links. It feeds h.nodes with the label candidates.
func (h *hreflangPass) labels(ctx context.Context) error {
	rd, err := h.adj.Sort(ctx)
	if err != nil {
		return err
	}
	// Grouped by x, the ys come in order: the first is the least of x's
	// neighbours (x itself included), its label after one link; each
	// neighbour gets it as a candidate, the least of which is its label
	// after two.
	var x, label string
	var ys []string
	flush := func() error {
		for _, y := range ys {
			if err := h.nodes.Add(rec(y, string(kindLabel), label)); err != nil {
				return err
			}
		}
		ys = ys[:0]
		return nil
	}
	for {
		r, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		f := fieldsOf(r)
		if f[0] != x || len(ys) == 0 {
			if err := flush(); err != nil {
				return err
			}
			x, label = f[0], f[1]
		}
		if len(ys) == 0 || ys[len(ys)-1] != f[1] {
			ys = append(ys, f[1])
		}
	}
	return flush()
}

// check runs the cluster check and returns the changes to the spooled
// entries, in spool order (records of changeRec); report receives each problem (at the entry's
// loc), wasRead says whether a URL was read in this run (an entry of the
// set, valid or not).
func (h *hreflangPass) check(ctx context.Context, report func(Problem), wasRead func(string) (bool, error)) (*extsort.Reader, error) {
	if err := h.labels(ctx); err != nil {
		return nil, err
	}
	// Sorted by node: its label candidates first (the least first),
	// then the claims it makes and its page record. Claims need the
	// label of both ends: they are keyed again by their target, with
	// the label of their page.
	var node, label string
	byTarget, err := h.pass(ctx, h.nodes, func(f []string, out *extsort.Sorter) error {
		if f[0] != node {
			node, label = f[0], ""
		}
		switch f[1][0] {
		case kindLabel:
			if label == "" {
				label = f[2]
				return out.Add(rec(node, string(kindLabel), label))
			}
		case kindClaim: // node names f[2] as f[3] (written f[4])
			return out.Add(rec(f[2], string(kindClaim), node, f[3], f[4], label))
		case kindPage:
			if label != "" {
				return out.Add(rec(node, string(kindPage), f[2]))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer byTarget.Close()
	// By target: the claims whose two ends share the label go to their
	// cluster; the others are dropped (kept in the cluster's record of
	// what the page had, marked).
	node, label = "", ""
	byCluster, err := h.pass(ctx, byTarget, func(f []string, out *extsort.Sorter) error {
		if f[0] != node {
			node, label = f[0], ""
		}
		switch f[1][0] {
		case kindLabel:
			label = f[2]
		case kindClaim: // f[2] names node as f[3] (written f[4]); f[5] is f[2]'s label
			ok := "1"
			if f[5] != label {
				ok = "0"
			}
			return out.Add(rec(f[5], string(kindClaim), f[2], node, f[3], f[4], ok))
		case kindPage:
			return out.Add(rec(label, string(kindPage), node, f[2]))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer byCluster.Close()
	if err := h.settleAll(ctx, byCluster, report, wasRead); err != nil {
		return nil, err
	}
	return h.changes.Sort(ctx)
}

// settleAll settles each cluster of byCluster in turn (see cluster.settle).
func (h *hreflangPass) settleAll(ctx context.Context, byCluster *extsort.Sorter, report func(Problem), wasRead func(string) (bool, error)) error {
	rd, err := byCluster.Sort(ctx)
	if err != nil {
		return err
	}
	var cl cluster
	for {
		r, err := rd.Next()
		if err != nil && err != io.EOF {
			return err
		}
		var f []string
		if err == nil {
			f = fieldsOf(r)
		}
		if err == io.EOF || f[0] != cl.label {
			if err := cl.settle(h.changes, report, wasRead); err != nil {
				return err
			}
			if f == nil {
				break
			}
			cl = cluster{label: f[0]}
		}
		cl.add(f)
	}
	return nil
}

// pass sorts in and calls step with the fields of each record in order,
// step writing into the sorter pass returns (the caller closes it).
func (h *hreflangPass) pass(ctx context.Context, in *extsort.Sorter, step func(f []string, out *extsort.Sorter) error) (*extsort.Sorter, error) {
	rd, err := in.Sort(ctx)
	if err != nil {
		return nil, err
	}
	out := extsort.New(extsort.Options{Dir: h.dir, Memory: sortMemory}, bytes.Compare)
	for {
		r, err := rd.Next()
		if err == io.EOF {
			return out, nil
		}
		if err == nil {
			err = step(fieldsOf(r), out)
		}
		if err != nil {
			out.Close()
			return nil, err
		}
	}
}

// cluster is one cluster's records, in memory (at most maxCluster).
type cluster struct {
	label  string
	claims []claim
	pages  map[string]int64 // key: seq of the spooled page
	big    bool
}

type claim struct {
	from, to, code, written string
	ok                      bool
}

func (c *cluster) add(f []string) {
	if len(c.claims) >= maxCluster {
		c.big = true
		return
	}
	switch f[1][0] {
	case kindClaim:
		c.claims = append(c.claims, claim{from: f[2], to: f[3], code: f[4], written: f[5], ok: f[6] == "1"})
	case kindPage:
		if c.pages == nil {
			c.pages = make(map[string]int64)
		}
		seq, _ := strconv.ParseInt(f[3], 16, 64)
		c.pages[f[2]] = seq
	}
}

// settle decides the cluster's set and returns the entries it changes.
func (c *cluster) settle(changes *extsort.Sorter, report func(Problem), wasRead func(string) (bool, error)) error {
	if c.label == "" || (len(c.claims) == 0 && len(c.pages) == 0) {
		return nil
	}
	if c.big {
		report(Problem{Severity: sitemap.SeverityWarning, Rule: rules.H08, URL: c.label,
			Message: fmt.Sprintf("the hreflang cluster of %q has more than %d alternates, too many for language versions; left as it is, not checked", c.label, maxCluster)})
		return nil
	}
	set, why, err := c.set(wasRead)
	if err != nil {
		return err
	}
	final := make([]sitemap.Alternate, 0, len(set))
	for _, m := range set {
		final = append(final, sitemap.Alternate{Hreflang: m.written, Href: m.href})
	}
	slices.SortFunc(final, func(a, b sitemap.Alternate) int {
		return strings.Compare(strings.ToLower(a.Hreflang), strings.ToLower(b.Hreflang))
	})
	isMember := map[string]bool{}
	for _, m := range set {
		isMember[m.href] = true
	}
	had := map[string][]claim{}
	selfCode := map[string]string{} // page: the code it names itself with
	for _, cl := range c.claims {
		had[cl.from] = append(had[cl.from], cl)
		if cl.ok && cl.from == cl.to && why[cl.code] != "" {
			selfCode[cl.from] = cl.code
		}
	}
	pages := slices.Sorted(maps.Keys(c.pages)) // reports in a stable order
	for _, page := range pages {
		seq := c.pages[page]
		want := final
		if !isMember[page] {
			want = nil
		}
		var added, dropped []string
		for _, a := range want {
			if !slices.ContainsFunc(had[page], func(cl claim) bool { return cl.code == strings.ToLower(a.Hreflang) && cl.to == a.Href }) {
				added = append(added, fmt.Sprintf("%s %s", a.Hreflang, a.Href))
			}
		}
		for _, cl := range had[page] {
			if m, ok := set[cl.code]; !ok || m.href != cl.to || !isMember[page] {
				reason := dropReason(cl, why, isMember[page], selfCode[page])
				dropped = append(dropped, fmt.Sprintf("%s %s (%s)", cl.written, cl.to, reason))
			}
		}
		if len(added) == 0 && len(dropped) == 0 {
			continue
		}
		if err := changes.Add(changeRec(seq, want)); err != nil {
			return err
		}
		for _, a := range added {
			rule := rules.H04
			if strings.HasSuffix(a, " "+page) {
				rule = rules.H03
			}
			report(Problem{Severity: sitemap.SeverityInfo, Rule: rule, URL: page, Field: "alternates",
				Message: "hreflang alternate " + a + " added: every page of a cluster lists the same complete set, itself included, and links back (" + string(rule) + ")"})
		}
		for _, d := range dropped {
			report(Problem{Severity: sitemap.SeverityWarning, Rule: rules.H08, URL: page, Field: "alternates",
				Message: "hreflang alternate " + d + " dropped, the page kept; Google ignores an annotation that is not returned (H-08)"})
		}
	}
	return nil
}

// dropReason says why claim cl of a page leaves it: member says whether
// the page is in the cluster's set, self is the code it names itself with
// ("" if none).
func dropReason(cl claim, why map[string]string, member bool, self string) string {
	switch {
	case !cl.ok:
		return "it is not linked with the rest of the cluster"
	case !member && self != "":
		return "this page is not in the cluster's set: " + why[self]
	case !member:
		return "no page of its cluster names this page, nor does it name itself (H-03), so its language is not known"
	case why[cl.code] == "":
		return "another page has that code in the cluster"
	}
	return why[cl.code]
}

// member is one alternate of a cluster's set.
type member struct{ href, written string }

// set is the cluster's set, by code (lower case), from the claims whose
// ends agree; why says why each code left out was left out.
func (c *cluster) set(wasRead func(string) (bool, error)) (map[string]member, map[string]string, error) {
	// The set: each code's href, from the claims whose ends agree.
	set := map[string]member{}
	conflict := map[string]bool{}
	for _, cl := range c.claims {
		if !cl.ok {
			continue
		}
		m, seen := set[cl.code]
		switch {
		case !seen:
			set[cl.code] = member{cl.to, cl.written}
		case m.href != cl.to:
			conflict[cl.code] = true
		}
	}
	// A page is the authority on its own language: of a code claimed for
	// different pages, the one page that names itself with it keeps it.
	selfs := map[string][]member{}
	for _, cl := range c.claims {
		if cl.ok && conflict[cl.code] && cl.from == cl.to && !slices.ContainsFunc(selfs[cl.code], func(m member) bool { return m.href == cl.to }) {
			selfs[cl.code] = append(selfs[cl.code], member{cl.to, cl.written})
		}
	}
	why := map[string]string{} // code left out (or taken from other pages): why
	for code := range conflict {
		if s := selfs[code]; len(s) == 1 {
			set[code] = s[0]
			why[code] = fmt.Sprintf("%s names itself as hreflang %q (H-03)", s[0].href, s[0].written)
			continue
		}
		why[code] = fmt.Sprintf("pages of its cluster name different pages as hreflang %q", set[code].written)
		delete(set, code)
	}
	for code, m := range set {
		if _, spooled := c.pages[m.href]; spooled {
			continue
		}
		read, err := wasRead(m.href)
		if err != nil {
			return nil, nil, err
		}
		if read {
			// In the set, but written before the first entry with
			// alternates (or refused): it cannot link back.
			why[code] = fmt.Sprintf("its hreflang %q page %q is an entry of the set that cannot list the cluster (written before the first entry with alternates, or invalid)", m.written, m.href)
			delete(set, code)
		}
	}
	return set, why, nil
}

// replay reads the spool back in order, gives each changed entry its
// cluster's set, and calls add for each.
func (h *hreflangPass) replay(ctx context.Context, changes *extsort.Reader, add func(u *sitemap.URL) error) error {
	if err := h.w.Flush(); err != nil {
		return err
	}
	if _, err := h.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReaderSize(h.spool, 64<<10))
	next, alts := int64(-1), []sitemap.Alternate(nil)
	more := func() error {
		r, err := changes.Next()
		if err == io.EOF {
			next = -1
			return nil
		}
		if err != nil {
			return err
		}
		next, alts = parseChange(r)
		return nil
	}
	if err := more(); err != nil {
		return err
	}
	for seq := int64(0); seq < h.n; seq++ {
		if seq&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var u sitemap.URL
		if err := dec.Decode(&u); err != nil {
			return fmt.Errorf("reading back the entries held for the hreflang check: %w", err)
		}
		if next == seq {
			u.Alternates = alts
			if err := more(); err != nil {
				return err
			}
		}
		if err := add(&u); err != nil {
			return err
		}
	}
	return nil
}

// addOrHold adds u to the builder, or, from the first entry with
// alternates on (unless Options.NoHreflangCheck), checks it as the
// builder would and holds it back for the cluster check.
func (r *run) addOrHold(ctx context.Context, u *sitemap.URL) error {
	if r.hl == nil && len(u.Alternates) > 0 && !r.o.NoHreflangCheck && r.o.Shards <= 1 {
		dir := r.o.Build.TempDir
		if dir == "" {
			dir = os.TempDir()
		}
		hl, err := newHreflangPass(dir)
		if err != nil {
			return &StageError{StageHreflang, err}
		}
		r.hl = hl
	}
	if r.hl == nil {
		return r.b.Add(ctx, u)
	}
	if err := r.b.Check(u); err != nil {
		return err
	}
	if err := r.hl.hold(u); err != nil {
		return &StageError{StageHreflang, err}
	}
	return nil
}

// releaseHold closes the files of the entries held back, if any.
func (r *run) releaseHold() {
	if r.hl != nil {
		r.hl.close()
	}
}

// clusters runs the cluster check over the entries held back, then adds
// them to the builder in input order. Under Strict the first repair ends
// the run.
func (r *run) clusters(ctx context.Context) error {
	if r.hl == nil {
		return nil
	}
	var first *Problem
	report := func(p Problem) {
		if r.o.Strict {
			if first == nil {
				first = &p
			}
			return
		}
		if p.Severity == sitemap.SeverityInfo {
			r.repaired(p.Rule, "added", "alternates")
		} else {
			r.repaired(p.Rule, "dropped", "alternates")
		}
		r.report(p)
	}
	wasRead := func(k string) (bool, error) {
		if r.seen == nil {
			return false, nil
		}
		isNew, err := r.seen.Add(k)
		return !isNew, err
	}
	changes, err := r.hl.check(ctx, report, wasRead)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &StageError{StageHreflang, err}
	}
	if first != nil {
		first.Severity = sitemap.SeverityError
		first.Message = "strict refuses the hreflang repair: " + first.Message
		return r.invalidEntry(*first)
	}
	return r.hl.replay(ctx, changes, func(u *sitemap.URL) error {
		err := r.b.Add(ctx, u)
		var eerr *sitemap.EntryError
		if errors.As(err, &eerr) {
			// Checked before it was held: only a cluster's set can
			// make it too large now.
			r.accepted--
			return r.invalidEntry(entryProblem(eerr, sitemap.SeverityError, &Item{}, u.Loc))
		}
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	})
}
