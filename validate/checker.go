package validate

import (
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// maxTracked bounds the per-document memory of the checks that remember
// entries (L-17 duplicates, M-06 days, H-04 reciprocity): after this many
// entries, new ones are checked on their own but no longer remembered. It
// matches the decoder's default entry cap (10 × MaxURLs), so with default
// caps every entry of a document is remembered.
const maxTracked = 10 * sitemap.MaxURLs

// Checker runs the entry-level rules of the validator (protocol prose,
// Google rules, heuristics) over the entries of ONE
// document, in document order. Feed it with URL or Index, then call Finish
// once: the rules that need the whole document (M-06, P-04, H-04, H-08)
// report from Finish.
//
// Memory: a Checker remembers, per document, a 64-bit hash of every loc
// (L-17), one counter per distinct lastmod day (M-06), and, for the URLs
// that carry hreflang alternates, one hash per alternate (H-04, H-08). All
// of it is bounded by the per-file entry cap (maxTracked), never by the
// number of documents: use one Checker per document.
//
// Duplicates are found through 64-bit hashes: two different locs whose
// hashes collide (odds about n²/2⁶⁵, so 1 in 10¹⁰ for 50,000 URLs) would be
// reported as a duplicate.
//
// A Checker is not safe for concurrent use.
type Checker struct {
	o        Options
	report   func(sitemap.Diagnostic)
	name     string
	isURL    bool
	scope    check.Scope
	hasScope bool
	trust    map[string]bool
	now      time.Time
	future   time.Time // now + 24 h: a lastmod after it is M-07
	seed     maphash.Seed

	urls, index, news int
	seen              hashSet // L-17: hashes of the locs seen
	firstHost         string
	firstScheme       string
	firstChild        string // an index's first child (I-05 without a scope)
	schemeReported    bool

	// M-06: the distinct lastmod days (key year*512 + month*32 + day),
	// each an index into dayN, their counts; the last key seen and its
	// index, as a sitemap often lists runs of one day.
	days     map[int32]int32
	dayN     []int
	lastDay  int32
	lastIdx  int32
	lastmods int

	// P-04
	prio         float64
	prioAll      bool
	prioSame     bool
	prioFirstSet bool

	// H-04, H-08
	hl      []hrefEntry
	hlByLoc map[uint64]int32

	// prefix names the part of an entry a message is about when the
	// entry's position alone does not ("<video:video> #2: ").
	prefix string

	across    *IndexLocs
	acrossDoc int32

	sizeReported bool
	// partial: the reader stopped at its byte cap (LIM-01; Document sets
	// it), so the size Size is given is a floor.
	partial  bool
	finished bool
	text     bool // a text sitemap: S-04 instead of S-01/S-02
}

// hrefEntry is what H-04/H-08 remember of a <url> with alternates.
type hrefEntry struct {
	loc       string
	line, col int
	self      uint64
	set       uint64 // order-independent hash of the {hreflang → href} set
	alts      []altRef
}

type altRef struct {
	href uint64
	code string
}

// NewChecker returns a Checker for one document. report receives every
// diagnostic, in order (it may be nil to count nothing). It fails only when
// o.URL is set but is not an absolute http(s) URL.
func NewChecker(o Options, report func(sitemap.Diagnostic)) (*Checker, error) {
	if report == nil {
		report = func(sitemap.Diagnostic) {}
	}
	c := &Checker{
		o:        o,
		report:   report,
		seed:     maphash.MakeSeed(),
		days:     make(map[int32]int32),
		lastIdx:  -1,
		hlByLoc:  make(map[uint64]int32),
		prioAll:  true,
		prioSame: true,
		now:      o.Now,
	}
	if c.now.IsZero() {
		c.now = time.Now()
	}
	c.future = c.now.Add(24 * time.Hour)
	c.name = o.name()
	c.isURL = urlnorm.IsHTTP(c.name)
	if o.URL != "" {
		s, err := newScope(o.URL)
		if err != nil {
			return nil, err
		}
		c.scope, c.hasScope = s, true
	}
	if o.AcrossIndex != nil {
		c.across = o.AcrossIndex
		c.acrossDoc = c.across.begin(c.name)
	}
	if len(o.TrustedHosts) > 0 {
		c.trust = make(map[string]bool, len(o.TrustedHosts))
		for _, h := range o.TrustedHosts {
			c.trust[urlnorm.Host(h)] = true
		}
	}
	return c, nil
}

// emit reports one diagnostic at line:col of the document.
func (c *Checker) emit(line, col int, rule rules.ID, sev sitemap.Severity, format string, args ...any) {
	d := sitemap.Diagnostic{Rule: rule, Severity: sev, Line: line, Col: col}
	if len(args) == 0 {
		d.Message = format
	} else {
		d.Message = fmt.Sprintf(format, args...)
	}
	if c.prefix != "" {
		// "<video:video> #2: " + "<video:video> has no …" reads as
		// "<video:video> #2 has no …".
		tag := c.prefix[:strings.Index(c.prefix, " #")]
		if strings.HasPrefix(d.Message, tag+" ") {
			d.Message = strings.TrimSuffix(c.prefix, ": ") + d.Message[len(tag):]
		} else {
			d.Message = c.prefix + d.Message
		}
	}
	if c.isURL {
		d.URL = c.name
	} else {
		d.File = c.name
	}
	c.report(d)
}

func (c *Checker) hash(s string) uint64 { return maphash.String(c.seed, s) }

// URLs returns how many <url> entries the Checker has seen.
func (c *Checker) URLs() int { return c.urls }

// IndexEntries returns how many <sitemap> entries the Checker has seen.
func (c *Checker) IndexEntries() int { return c.index }

// URL checks one <url> entry found at line:col (its start tag; 0 when
// unknown).
func (c *Checker) URL(u *sitemap.URL, line, col int) { c.url(u, pos{line, col}, pos{line, col}) }

// pos is a line and column of the document.
type pos struct{ line, col int }

// url checks the <url> entry u found at at, its <loc> at loc: problems of
// the URL itself are reported where the URL is.
func (c *Checker) url(u *sitemap.URL, at, loc pos) {
	line, col := at.line, at.col
	c.urls++
	if c.urls == sitemap.MaxURLs+1 {
		rule := rules.S01
		if c.text {
			rule = rules.S04 // text sitemaps have the same limit
		}
		c.emit(line, col, rule, sitemap.SeverityError,
			"more than %d URLs in one sitemap; split it into several sitemaps under an index", sitemap.MaxURLs)
	}
	pu, ok := c.checkLoc(u.Loc, loc.line, loc.col, false)
	c.duplicate(c.normal(u.Loc, ok, loc.line, loc.col), u.Loc, loc.line, loc.col, "URL")
	c.lastmod(u.LastMod, line, col)
	if u.ChangeFreq != "" && !u.ChangeFreq.Valid() {
		// The decoder reads other case as lowercase and drops other
		// values, each with its diagnostic; this is for entries from
		// elsewhere.
		c.value(line, col, "<changefreq>", string(u.ChangeFreq), check.ChangeFreq(string(u.ChangeFreq)))
	}
	if u.Priority != nil {
		if pr := check.Priority(*u.Priority); !pr.OK() {
			c.value(line, col, "<priority>", strconv.FormatFloat(*u.Priority, 'g', -1, 64), pr)
		}
	}
	c.priority(u.Priority)
	if ok {
		c.sameHost(pu, u.Loc, loc.line, loc.col)
		if c.o.robots != nil {
			if no, agent := c.o.robots(u.Loc); no {
				c.emit(loc.line, loc.col, rules.L20, sitemap.SeverityWarning,
					"<loc> %q is disallowed by its site's robots.txt for the user agent %q, so it cannot be crawled from the sitemap (Search Console: \"Submitted URL blocked by robots.txt\"); remove it from the sitemap or the rule from robots.txt", short(u.Loc), agent)
			}
		}
	}
	if len(u.Images) > 0 {
		c.images(u, line, col)
	}
	for i := range u.Videos {
		if len(u.Videos) > 1 {
			c.prefix = "<video:video> #" + strconv.Itoa(i+1) + ": "
		}
		c.video(u, &u.Videos[i], line, col)
		c.prefix = ""
	}
	if u.News != nil {
		c.newsEntry(u.News, line, col)
	}
	if len(u.Alternates) > 0 {
		c.alternates(u, line, col)
	}
}

// Item checks one entry returned by a [sitemap.Decoder]: its URL or its
// Index, at the item's position; the problems of its URL (a bad or
// duplicate <loc>, one outside the scope) at the position of the URL
// (Item.LocLine), when the item has one.
func (c *Checker) Item(it *sitemap.Item) {
	at, loc := pos{it.Line, it.Col}, pos{}
	loc.line, loc.col = it.LocPos()
	switch it.Kind {
	case sitemap.ItemURL:
		c.url(&it.URL, at, loc)
	case sitemap.ItemIndex:
		c.indexEntry(&it.Index, at, loc)
	}
}

// Index checks one <sitemap> entry of an index found at line:col.
func (c *Checker) Index(x *sitemap.IndexEntry, line, col int) {
	c.indexEntry(x, pos{line, col}, pos{line, col})
}

// indexEntry checks the <sitemap> entry x found at at, its <loc> at loc.
func (c *Checker) indexEntry(x *sitemap.IndexEntry, at, loc pos) {
	line, col := at.line, at.col
	c.index++
	if c.index == sitemap.MaxURLs+1 {
		c.emit(line, col, rules.S03, sitemap.SeverityError,
			"more than %d sitemaps in one index; split it into several indexes and submit each", sitemap.MaxURLs)
	}
	_, ok := c.checkLoc(x.Loc, loc.line, loc.col, true)
	if ok && !c.hasScope && !c.o.childrenFollowed {
		c.childSite(x.Loc, loc.line, loc.col)
	}
	c.lastmod(x.LastMod, line, col)
	c.duplicate(c.normal(x.Loc, ok, loc.line, loc.col), x.Loc, loc.line, loc.col, "sitemap")
}

// childSite is I-05 for an index whose URL is unknown and whose children
// are not followed (the walk says it of children it follows): its site
// is taken to be its first child's, and a child on another is reported.
func (c *Checker) childSite(loc string, line, col int) {
	if c.firstChild == "" {
		c.firstChild = strings.Clone(loc)
		return
	}
	if urlnorm.SameSite(loc, c.firstChild) {
		return
	}
	c.emit(line, col, rules.I05, sitemap.SeverityError, "%s", check.OffSiteInferred(short(loc), c.firstChild, "give the index's URL (--base) to check it against its own site"))
}

// Size checks the uncompressed size of the document (S-02, S-03); call it
// once the size is known. It reports at most once.
func (c *Checker) Size(n int64) {
	if n <= sitemap.MaxBytes || c.sizeReported {
		return
	}
	c.sizeReported = true
	rule, what := rules.S02, "sitemap"
	if c.index > 0 && c.urls == 0 {
		rule, what = rules.S03, "sitemap index"
	} else if c.text {
		rule, what = rules.S04, "text sitemap"
	}
	if c.partial {
		// The reader stopped at its byte cap (LIM-01): n is a floor.
		c.emit(0, 0, rule, sitemap.SeverityError,
			"the %s holds more than %d bytes uncompressed (read no further), over the limit of %d (50 MiB); split it", what, n, sitemap.MaxBytes)
		return
	}
	c.emit(0, 0, rule, sitemap.SeverityError,
		"the %s is %d bytes uncompressed, over the limit of %d (50 MiB); split it", what, n, sitemap.MaxBytes)
}

// sameHost is L-08: every URL of one sitemap is on one host, with one
// protocol (the second protocol is said once). With a scope
// URL, L-09 already covers it unless cross-submission is declared (where
// O-04 still wants one host).
func (c *Checker) sameHost(p check.Parts, loc string, line, col int) {
	h := urlnorm.Host(p.Host)
	if c.firstHost == "" {
		c.firstHost = strings.Clone(h) // h may be part of the caller's loc
		c.firstScheme = strings.ToLower(p.Scheme)
		return
	}
	if c.hasScope && !c.o.CrossSubmit {
		return
	}
	if h == c.firstHost {
		if s := strings.ToLower(p.Scheme); s != c.firstScheme && !c.schemeReported {
			// sitemaps.org: the URLs of one sitemap share its protocol
			// and host; said once per sitemap, the rest follow.
			c.schemeReported = true
			c.emit(line, col, rules.L08, sitemap.SeverityError, "<loc> %q is on %s, but this sitemap's first URL is on %s; one sitemap lists one protocol and host (http and https are two sites): list each URL once, with the protocol the site answers", short(loc), s, c.firstScheme)
		}
		return
	}
	sev := sitemap.SeverityError
	if c.trust[h] {
		sev = sitemap.SeverityWarning // O-05, O-06
	}
	c.emit(line, col, rules.L08, sev, "<loc> %q is on the host %s, but this sitemap's first URL is on %s; one sitemap lists one host", short(loc), h, c.firstHost)
}

// normal returns the normal form of loc (urlnorm.Normalize), the key
// under which its spellings count as one URL (L-17), or loc itself when
// it has none. When loc passed the URL checks (ok) but is not in its
// normal form (the case of the scheme or host, a default port, an empty
// path, a fragment, which never reaches the server), it says so: L-18,
// a note, as generate's for the URLs it writes so, and the encoder
// accepts such a URL (one verdict).
func (c *Checker) normal(loc string, ok bool, line, col int) string {
	n, ch, err := urlnorm.Normalize(loc)
	if err != nil || ch == 0 {
		return loc
	}
	if ok {
		c.emit(line, col, rules.L18, sitemap.SeverityInfo, "<loc> %q is not in its normal form %q (%s); write that", short(loc), short(n), ch)
	}
	return n
}

// duplicate is L-17: key is loc's normal form (normal), so two
// spellings of one URL are one URL listed twice.
func (c *Checker) duplicate(key, loc string, line, col int, what string) {
	if key == "" {
		return
	}
	h := c.hash(key)
	var dup bool
	if c.seen.len() < maxTracked {
		dup = c.seen.add(h) // one probe: it finds h or its free slot
	} else {
		dup = c.seen.has(h)
	}
	if dup {
		if key != loc {
			c.emit(line, col, rules.L17, sitemap.SeverityWarning, "%s %q is listed more than once in this document (as %q, its normal form); list each once", what, short(loc), short(key))
			return
		}
		c.emit(line, col, rules.L17, sitemap.SeverityWarning, "%s %q is listed more than once in this document; list each once", what, short(loc))
		return
	}
	if c.across != nil && what == "URL" {
		if other := c.across.other(c.acrossDoc, key); other != "" {
			c.emit(line, col, rules.L17, sitemap.SeverityWarning, "%s %q is also listed in %s, another sitemap of the same index; list each URL in one sitemap only", what, short(loc), other)
		}
	}
}

// lastmod is M-07 (future and pre-1990 dates) and feeds M-06.
func (c *Checker) lastmod(d sitemap.Date, line, col int) {
	if d.IsZero() {
		return
	}
	y, m, dd := d.Time.Date()
	if d.Time.After(c.future) {
		c.emit(line, col, rules.M07, sitemap.SeverityWarning, "<lastmod> %s is in the future (now is %s); lastmod says when the page last changed", d, c.now.UTC().Format(time.RFC3339))
	} else if y < 1990 {
		c.emit(line, col, rules.M07, sitemap.SeverityWarning, "<lastmod> %s is before 1990; is it the real date the page last changed?", d)
	}
	if d.Precision >= sitemap.PrecisionDay {
		c.lastmods++
		k := int32(y*512 + int(m)*32 + dd)
		if k == c.lastDay && c.lastIdx >= 0 {
			c.dayN[c.lastIdx]++
			return
		}
		i, ok := c.days[k]
		if !ok {
			if len(c.days) >= maxTracked {
				return
			}
			i = int32(len(c.dayN))
			c.days[k] = i
			c.dayN = append(c.dayN, 0)
		}
		c.dayN[i]++
		c.lastDay, c.lastIdx = k, i
	}
}

func (c *Checker) priority(p *float64) {
	if p == nil {
		c.prioAll = false
		return
	}
	if !c.prioFirstSet {
		c.prio, c.prioFirstSet = *p, true
	} else if *p != c.prio {
		c.prioSame = false
	}
}

// Finish runs the whole-document rules: M-06 (lastmod on one day), P-04
// (one priority everywhere), H-04 (reciprocal hreflang) and H-08 (complete
// groups). Call it once, after the last entry.
func (c *Checker) Finish() {
	if c.finished {
		return
	}
	c.finished = true
	// M-06: ≥ 20 URLs, > 90 % of the lastmod values on one day, not news.
	if c.urls >= 20 && c.news == 0 && c.lastmods > 0 {
		best, bestKey := 0, int32(0)
		for k, i := range c.days {
			if n := c.dayN[i]; n > best || n == best && k < bestKey {
				best, bestKey = n, k
			}
		}
		if best*10 > c.lastmods*9 && best >= 20 {
			y, m, d := bestKey/512, (bestKey%512)/32, bestKey%32
			c.emit(0, 0, rules.M06, sitemap.SeverityWarning,
				"%d of %d <lastmod> values fall on %04d-%02d-%02d; lastmod should say when each page last changed, not when the sitemap was built (M-05)", best, c.lastmods, y, m, d)
		}
	}
	// P-04: every URL with the same priority.
	if c.urls >= 2 && c.prioAll && c.prioSame && c.prioFirstSet {
		c.emit(0, 0, rules.P04, sitemap.SeverityWarning,
			"every URL has priority %s; a priority that never varies says nothing (Google ignores priority, P-03); leave it out", sitemap.FormatPriority(c.prio))
	}
	c.reciprocity()
}

// short keeps a loc readable in a message.
func short(s string) string {
	if utf8.RuneCountInString(s) <= 200 {
		return s
	}
	n := 0
	for i := range s {
		if n == 180 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
