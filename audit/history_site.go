package audit

import (
	"context"
	"net/url"
	"strings"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/rules"
)

// SiteHistory is what the history (Options.History) says about the whole
// site: its URLs' verdicts counted, the site's score, and the findings
// about the site rather than one URL (AUD-30). As JSON it is the last
// line of `sitemap audit --history --format jsonl`: {"site", "honest",
// …, "findings"}, told from a [Record] by having "site" and no "url".
type SiteHistory struct {
	Site string `json:"site"`
	// Honest, Churning and Stale count the audited URLs compared with an
	// earlier run by verdict; New those seen for the first time, Unknown
	// those without a lastmod or content to compare.
	Honest   int `json:"honest"`
	Churning int `json:"churning"`
	Stale    int `json:"stale"`
	New      int `json:"new"`
	Unknown  int `json:"unknown"`
	// Score is the percentage of honest URLs among those compared
	// (Honest, Churning, Stale); absent when none was.
	Score *float64 `json:"score,omitempty"`
	// SharedLastMod is the lastmod more than half of the listed URLs with
	// one share, Shared how many do, of WithLastMod.
	SharedLastMod string    `json:"shared_lastmod,omitempty"`
	Shared        int       `json:"shared,omitempty"`
	WithLastMod   int       `json:"with_lastmod"`
	Findings      []Finding `json:"findings"`
}

// Compared is how many URLs were compared with an earlier run.
func (s *SiteHistory) Compared() int { return s.Honest + s.Churning + s.Stale }

// count adds one record's verdict.
func (s *SiteHistory) count(h *History) {
	if h == nil {
		return
	}
	switch h.Verdict {
	case VerdictHonest:
		s.Honest++
	case VerdictChurning:
		s.Churning++
	case VerdictStale:
		s.Stale++
	case VerdictNew:
		s.New++
	default:
		s.Unknown++
	}
}

// siteRule reports whether rule is about the site rather than a URL.
func siteRule(rule rules.ID) bool { return rule == rules.AUD30 }

// Build-time stamp (AUD-30): at least this many listed URLs with a
// lastmod, and this share of them with the same one.
const (
	buildStampMin   = 10
	buildStampShare = 0.9
)

// finish scores the site and adds the findings about it.
func (s *SiteHistory) finish(ctx context.Context, a *Auditor) error {
	if n := s.Compared(); n > 0 {
		score := float64(s.Honest) * 100 / float64(n)
		s.Score = &score
	}
	var err error
	if s.SharedLastMod, s.Shared, s.WithLastMod, err = a.log.SharedLastMod(ctx); err != nil {
		return err
	}
	s.Findings = []Finding{}
	if s.WithLastMod >= buildStampMin && float64(s.Shared) >= buildStampShare*float64(s.WithLastMod) {
		r := Record{}
		r.add(rules.AUD30, "%s of %s share lastmod %s: a build-time stamp, not the pages' changes", plural.Of(s.Shared, "listed URL", "listed URLs"),
			plural.Of(s.WithLastMod, "with a lastmod", "with a lastmod"), s.SharedLastMod)
		s.Findings = r.Findings
	}
	return nil
}

// section is the part of a site a URL belongs to in the report's chart:
// its first path segment ("/blog/"), or "/" for a page at the root.
func section(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "/"
	}
	seg, _, ok := strings.Cut(strings.TrimPrefix(p.Path, "/"), "/")
	if !ok || seg == "" {
		return "/"
	}
	return "/" + seg + "/"
}
