package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
)

// pageSize is how many rows are read from a log per call.
const pageSize = 512

// crawl crawls the site from its homepage into Options.CrawlLog, without
// the sitemaps as seeds: what it reaches is reached through links.
func (a *Auditor) crawl(ctx context.Context) error {
	if a.o.CrawlStore == nil || a.o.CrawlLog == nil {
		return errors.New("audit: Options.Crawl needs CrawlStore and CrawlLog")
	}
	home, err := a.homepage()
	if err != nil {
		return err
	}
	co := *a.o.Crawl
	co.HTTP = a.o.HTTP
	if a.memo != nil {
		co.Render = a.memo.replay() // the pages the audit rendered, not again
	}
	co.NoSitemaps = true
	if co.Concurrency == 0 {
		co.Concurrency = a.o.Concurrency
	}
	if co.Rate == 0 {
		co.Rate = a.o.Rate
	}
	cr, err := crawl.New(ctx, a.o.CrawlStore, a.o.CrawlLog, home, co)
	if err != nil {
		return fmt.Errorf("crawl: %w", err)
	}
	sum, err := cr.Run(ctx)
	if err != nil {
		return fmt.Errorf("crawl: %w", err)
	}
	a.sum.Crawled = sum.Fetched
	return nil
}

// homepage is the root of the audited site: the start URL's, else the
// one of Options.Site.
func (a *Auditor) homepage() (string, error) {
	s := a.o.Site
	if a.names == nil {
		s = a.start
	}
	u, err := url.Parse(s)
	if s == "" || err != nil || u.Host == "" {
		return "", errors.New("audit: the crawl needs the site of local sitemaps (Options.Site, --site)")
	}
	return u.Scheme + "://" + u.Host + "/", nil
}

// Tally counts the records of an audit by class.
type Tally struct {
	// Records is how many records there are; Clean how many have no
	// finding.
	Records, Clean int
	// Rules counts the findings by rule ID (a record may have several).
	Rules map[rules.ID]int
	// Errors counts the records with an error-class finding.
	Errors int
	// History is the history's verdict on the site (Options.History;
	// nil without): its findings are counted in Rules too.
	History *SiteHistory
}

func (t *Tally) add(r *Record) {
	if t.Rules == nil {
		t.Rules = map[rules.ID]int{}
	}
	t.Records++
	if len(r.Findings) == 0 {
		t.Clean++
		t.Rules[rules.AUD01]++
	}
	for _, f := range r.Findings {
		t.Rules[f.Rule]++
	}
	if r.Errors() {
		t.Errors++
	}
	if r.History != nil {
		if t.History == nil {
			t.History = &SiteHistory{}
		}
		t.History.count(r.History)
	}
}

// addSite counts the findings about the site.
func (t *Tally) addSite(s *SiteHistory) {
	if t.Rules == nil {
		t.Rules = map[rules.ID]int{}
	}
	for _, f := range s.Findings {
		t.Rules[f.Rule]++
	}
}

// Records calls fn with one record per URL audited, in the order of their
// normal form (byte order), with the hreflang findings (AUD-13) and, when
// the run crawled, the click depth, the orphans (AUD-18) and, in their
// place in the order, the pages the crawl found that no sitemap lists
// (AUD-17). It returns the counts of what it gave fn, and with
// Options.History the history's verdict on the site (Tally.History). It
// reads the logs a page of rows at a time: memory does not grow with the
// number of URLs.
func (a *Auditor) Records(ctx context.Context, fn func(*Record) error) (Tally, error) {
	var t Tally
	emit := func(r *Record) error {
		t.add(r)
		return fn(r)
	}
	m := &merge{a: a, ctx: ctx, log: a.o.CrawlLog}
	if a.o.Crawl == nil {
		m.log = nil
	}
	afterKey, afterLoc := "", ""
	for {
		rows, err := a.log.Results(ctx, afterKey, afterLoc, pageSize)
		if err != nil {
			return t, err
		}
		for _, row := range rows {
			var r Record
			if err := json.Unmarshal(row.Data, &r); err != nil {
				return t, fmt.Errorf("state: the audit record of %s: %w", row.Loc, err)
			}
			if r.Findings == nil {
				r.Findings = []Finding{}
			}
			if r.Alternates > 0 {
				if err := a.reciprocal(ctx, row.Key, &r); err != nil {
					return t, err
				}
			}
			if m.log != nil {
				o, found, err := m.upTo(row.Key, emit)
				if err != nil {
					return t, err
				}
				linked := found && (o.Inlinks > 0 || o.Clicks == 0)
				if found {
					r.Title, r.Inlinks = o.Title, o.Inlinks
				}
				if linked {
					d := clicks(o)
					r.Depth, r.From = &d, o.Referrer
				} else if r.Status == 200 && !r.Errors() {
					r.add(rules.AUD18, "no link of the site leads to it (the crawl from the homepage found no page linking to it); link to it or remove it")
				}
			}
			r.Class = classOf(r.Findings)
			if err := emit(&r); err != nil {
				return t, err
			}
		}
		if len(rows) < pageSize {
			break
		}
		afterKey, afterLoc = rows[len(rows)-1].Key, rows[len(rows)-1].Loc
	}
	if m.log != nil {
		if _, _, err := m.upTo("\xff\xff", emit); err != nil {
			return t, err
		}
	}
	if a.o.History {
		if t.History == nil {
			t.History = &SiteHistory{}
		}
		t.History.Site = a.start
		if err := t.History.finish(ctx, a); err != nil {
			return t, err
		}
		t.addSite(t.History)
	}
	return t, nil
}

// reciprocal adds an AUD-13 finding for the alternates of the page whose
// own page does not name it back.
func (a *Auditor) reciprocal(ctx context.Context, key string, r *Record) error {
	bad, err := a.log.NotReciprocal(ctx, key)
	if err != nil {
		return err
	}
	for _, alt := range bad {
		switch {
		case alt.Status == 200:
			r.add(rules.AUD13, "its alternate %s (%s) does not name it back (H-04)", alt.Href, alt.Hreflang)
		case alt.Status == 0:
			r.add(rules.AUD13, "its alternate %s (%s) could not be read, so it cannot name it back (H-04)", alt.Href, alt.Hreflang)
		default:
			r.add(rules.AUD13, "its alternate %s (%s) answers %d, so it cannot name it back (H-04)", alt.Href, alt.Hreflang, alt.Status)
		}
	}
	return nil
}

// merge walks the crawl log's outcomes (sorted by URL, in the crawler's
// normal form) beside the audit's rows (sorted by the same form).
type merge struct {
	a    *Auditor
	ctx  context.Context
	log  state.CrawlLog
	buf  []state.CrawlOutcome
	i    int
	last string
	done bool
}

// upTo emits the missing pages among the outcomes before key and returns
// the outcome of key itself when the crawl saw it.
func (m *merge) upTo(key string, emit func(*Record) error) (state.CrawlOutcome, bool, error) {
	for {
		if m.i == len(m.buf) {
			if m.done {
				return state.CrawlOutcome{}, false, nil
			}
			rows, err := m.log.Outcomes(m.ctx, m.last, pageSize)
			if err != nil {
				return state.CrawlOutcome{}, false, err
			}
			m.buf, m.i = rows, 0
			if len(rows) < pageSize {
				m.done = true
			}
			if len(rows) == 0 {
				return state.CrawlOutcome{}, false, nil
			}
			m.last = rows[len(rows)-1].Loc
		}
		o := m.buf[m.i]
		if o.Loc > key {
			return state.CrawlOutcome{}, false, nil
		}
		m.i++
		if o.Loc == key {
			return o, true, nil
		}
		if !o.Included {
			continue
		}
		listed, err := m.a.log.IsListed(m.ctx, o.Loc, o.Loc)
		if err != nil {
			return state.CrawlOutcome{}, false, err
		}
		if listed {
			continue // listed but not in the sample
		}
		d := clicks(o)
		r := &Record{URL: o.Loc, Status: o.Status, Findings: []Finding{}, Depth: &d, From: o.Referrer, Title: o.Title, Inlinks: o.Inlinks}
		r.add(rules.AUD17, "linked from %s at click depth %d and indexable, but no sitemap lists it; add it", orHome(o.Referrer), d)
		crawlRenderFindings(r, o.Render)
		r.Class = classOf(r.Findings)
		if err := emit(r); err != nil {
			return state.CrawlOutcome{}, false, err
		}
	}
}

func orHome(s string) string {
	if s == "" {
		return "the start"
	}
	return s
}

// clicks is the click depth of a crawled URL: the fewest links from the
// homepage, else (a page reached only through hreflang or a redirect) the
// crawl's own depth.
func clicks(o state.CrawlOutcome) int {
	if o.Clicks >= 0 {
		return o.Clicks
	}
	return o.Depth
}
