package indexnow

import (
	"encoding/json"
	"fmt"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
)

// Tell sets the hooks of o that are not set yet (OnWait, OnRetry,
// OnDiagnostic, OnBatch) to tell people what happens, one line each to
// line, without a newline, as the sitemap command prints them: the wait
// for the Ledger's lock as OnWait says it, "retry: …", a diagnostic
// (Diagnostic.String), "batch 2: 3 URLs: sent: …" for a batch answered,
// and for a batch of a DryRun "dry run: " and its [Options.DryRunJSON].
// A batch told reads o's Key, Host and KeyLocation as they are then.
func (o *Options) Tell(line func(string)) {
	if o.OnWait == nil {
		o.OnWait = line
	}
	if o.OnRetry == nil {
		o.OnRetry = func(msg string) { line("retry: " + msg) }
	}
	if o.OnDiagnostic == nil {
		o.OnDiagnostic = func(d sitemap.Diagnostic) { line(d.String()) }
	}
	if o.OnBatch == nil {
		o.OnBatch = func(b Batch) {
			if b.Outcome == Planned {
				line("dry run: " + string(o.DryRunJSON(b)))
				return
			}
			line(fmt.Sprintf("batch %d: %s: %s: %s", b.N, plural.Of(len(b.URLs), "URL", "URLs"), b.Outcome, b.Message))
		}
	}
}

// DryRunJSON is a batch made with DryRun as `sitemap submit --dry-run`
// prints it: one JSON object of its number and the body it would POST
// ({batch, host, key, keyLocation, urlList}; the host and the key
// location in their normal form, keyLocation left out without one, as
// the POST leaves it out).
func (o Options) DryRunJSON(b Batch) []byte {
	m := map[string]any{"batch": b.N, "host": NormalHost(o.Host), "key": o.Key, "urlList": b.URLs}
	if o.KeyLocation != "" {
		m["keyLocation"] = NormalURL(o.KeyLocation)
	}
	body, _ := json.Marshal(m)
	return body
}

// Tell sets q.Sent to tell line, without a newline, of a round's error
// and of the URLs Add dropped since the last round told (more than
// MaxQueued waiting), which a later submission of the whole site sends.
func (q *Queue) Tell(line func(string)) {
	var dropped int64
	q.Sent = func(sum Summary, err error) {
		if err != nil {
			line(err.Error())
		}
		if d := q.Dropped(); d > dropped {
			line(fmt.Sprintf("%d changed URLs not queued (more than %d waiting): a later 'sitemap submit --state' of the site sends them", d-dropped, MaxQueued))
			dropped = d
		}
	}
}
