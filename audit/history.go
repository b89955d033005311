package audit

import (
	"crypto/sha256"
	"encoding/binary"
	"net/http"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
)

// The verdicts of the history (Options.History) on one URL, in
// [History].Verdict.
const (
	// VerdictNew: the first run that saw the URL; nothing to compare.
	VerdictNew = "new"
	// VerdictUnknown: no lastmod, or no content to compare (not read as
	// HTML and no ETag).
	VerdictUnknown = "unknown"
	// VerdictHonest: compared with an earlier run, the lastmod moved with
	// the content.
	VerdictHonest = "honest"
	// VerdictChurning: the lastmod claims changes that did not happen:
	// it moved while the content did not (AUD-27), went backwards or came
	// late (AUD-29), or is later than a Last-Modified that did not move
	// (AUD-31).
	VerdictChurning = "churning"
	// VerdictStale: the content changed and the lastmod does not say so
	// (AUD-28).
	VerdictStale = "stale"
)

// History is what the history (Options.History) says about one URL, in
// its [Record]: when earlier runs saw it and how this run compares.
type History struct {
	// Runs is how many runs have seen the URL, this one included.
	Runs int `json:"runs"`
	// Previous is the time of the previous run that saw the URL (absent
	// on the first), PreviousLastMod its lastmod then.
	Previous        *time.Time `json:"previous,omitempty"`
	PreviousLastMod string     `json:"previous_lastmod,omitempty"`
	// ContentSince is the time of the first run that saw the page's
	// current main content; ContentChanged says it changed since the
	// previous run.
	ContentSince   time.Time `json:"content_since"`
	ContentChanged bool      `json:"content_changed,omitempty"`
	// Verdict is one of VerdictNew, VerdictUnknown, VerdictHonest,
	// VerdictChurning and VerdictStale.
	Verdict string `json:"verdict"`
}

// seen is what this run saw of a URL that answered 200.
type seen struct {
	lastMod, etag, lastModified, fingerprint string
}

// clockSlack is how far a server's clock may be from the auditor's
// before a date is said to be before or after a run.
const clockSlack = time.Minute

// judge compares what the run at now saw of key (cur) with what the
// history had (prev, nil for the first sighting): it returns the
// history's new row, the record's History and the findings (AUD-27,
// AUD-28, AUD-29, AUD-31). The content is the same when the main-content
// fingerprints are, or, for what was not read as HTML, the ETags.
func judge(key string, prev *state.AuditHistory, cur seen, now time.Time) (state.AuditHistory, *History, []Finding) {
	row := state.AuditHistory{Key: key, LastMod: cur.lastMod, ETag: cur.etag, LastModified: cur.lastModified, Fingerprint: cur.fingerprint,
		Seen: now, Runs: 1, Since: now}
	if prev == nil || !prev.Seen.Before(now) {
		if prev != nil { // seen already in this run (another spelling of the URL)
			row = *prev
		}
		return row, &History{Runs: row.Runs, ContentSince: row.Since, Verdict: VerdictNew}, nil
	}
	row.Runs = prev.Runs + 1
	same, known := sameContent(prev, cur)
	if known && same {
		row.Since, row.PrevSeen = prev.Since, prev.PrevSeen
	} else if known {
		row.PrevSeen = prev.Seen
	}
	h := &History{Runs: row.Runs, Previous: &prev.Seen, PreviousLastMod: prev.LastMod, ContentSince: row.Since, ContentChanged: known && !same,
		Verdict: VerdictUnknown}
	cl, err := sitemap.ParseDate(cur.lastMod)
	if cur.lastMod == "" || err != nil || !known {
		return row, h, nil
	}
	var fs []Finding
	add := func(rule rules.ID, verdict, format string, args ...any) {
		r := Record{Findings: fs}
		r.add(rule, format, args...)
		fs = r.Findings
		if h.Verdict == VerdictUnknown {
			h.Verdict = verdict
		}
	}
	pl, perr := sitemap.ParseDate(prev.LastMod)
	changed := !row.PrevSeen.IsZero() // a change of the content was seen, between PrevSeen and Since
	switch {
	case perr == nil && claimEnd(cl).Before(pl.Time):
		add(rules.AUD29, VerdictChurning, "lastmod %s is earlier than %s, its lastmod at the run of %s: it went backwards", cur.lastMod, prev.LastMod, stamp(prev.Seen))
	case perr == nil && same && cl.Time.After(claimEnd(pl)):
		// The lastmod moved forward and the content did not.
		switch {
		case !changed || !before(pl, row.PrevSeen):
			also := ""
			if cur.etag != "" && cur.etag == prev.ETag {
				also = ", and so is its ETag"
			}
			add(rules.AUD27, VerdictChurning, "lastmod moved from %s to %s since the run of %s, but the main content is the same%s", prev.LastMod, cur.lastMod, stamp(prev.Seen), also)
		case after(cl, row.Since):
			add(rules.AUD29, VerdictChurning, "lastmod %s dates the change after %s, the run that first saw the page's current content: it came late", cur.lastMod, stamp(row.Since))
		}
		// else: the lastmod caught up with a change seen earlier and dates it right.
	}
	if changed && before(cl, row.PrevSeen) {
		add(rules.AUD28, VerdictStale, "the main content changed between the runs of %s and %s, but lastmod %s is older than that change", stamp(row.PrevSeen), stamp(row.Since), cur.lastMod)
	}
	if cur.lastModified != "" && cur.lastModified == prev.LastModified {
		if lm, err := http.ParseTime(cur.lastModified); err == nil && after(cl, lm) {
			add(rules.AUD31, VerdictChurning, "lastmod %s is later than the server's Last-Modified %s, which has not moved since the run of %s", cur.lastMod, lm.UTC().Format(time.RFC3339), stamp(prev.Seen))
		}
	}
	if h.Verdict == VerdictUnknown {
		h.Verdict = VerdictHonest
	}
	return row, h, fs
}

// sameContent reports whether the content is the same as prev's, and
// whether that can be known: both fingerprints, else both ETags.
func sameContent(prev *state.AuditHistory, cur seen) (same, known bool) {
	switch {
	case prev.Fingerprint != "" && cur.fingerprint != "":
		return prev.Fingerprint == cur.fingerprint, true
	case prev.Fingerprint == "" && cur.fingerprint == "" && prev.ETag != "" && cur.etag != "":
		return prev.ETag == cur.etag, true
	}
	return false, false
}

// claimEnd is the end of the span a date names: the day of a date alone,
// the instant of a time.
func claimEnd(d sitemap.Date) time.Time {
	switch d.Precision {
	case sitemap.PrecisionYear:
		return d.Time.AddDate(1, 0, 0)
	case sitemap.PrecisionMonth:
		return d.Time.AddDate(0, 1, 0)
	case sitemap.PrecisionDay:
		return d.Time.AddDate(0, 0, 1)
	case sitemap.PrecisionMinute:
		return d.Time.Add(time.Minute)
	}
	return d.Time
}

// before reports whether the whole span of d is before t (with the
// clocks' slack): a change it dates happened before t.
func before(d sitemap.Date, t time.Time) bool { return claimEnd(d).Before(t.Add(-clockSlack)) }

// after reports whether the whole span of d is after t (with the
// clocks' slack).
func after(d sitemap.Date, t time.Time) bool { return d.Time.After(t.Add(clockSlack)) }

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// stableRand is a URL's sample key with history: the same URLs are in
// the sample at every run.
func stableRand(key string) int64 {
	s := sha256.Sum256([]byte(key))
	return int64(binary.BigEndian.Uint64(s[:8]) >> 1)
}
