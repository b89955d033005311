package indexnow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// DefaultEndpoint is the shared IndexNow endpoint; engines that take part
// pass submissions on to one another (IN-02).
const DefaultEndpoint = "https://api.indexnow.org/indexnow"

// MaxBatch is the most URLs one POST carries (IN-08).
const MaxBatch = 10000

// ContentType is the Content-Type of a submission (IN-07).
const ContentType = "application/json; charset=utf-8"

// Ledger remembers what was submitted, and keeps the submitters that
// share it apart ([state.SQLite] and [state.Postgres] are ledgers).
//
// [Submit] holds the ledger's lock from its check of a batch
// (SubmittedEach) to the record of the batch's outcome
// (RecordSubmissions): any number of submitters sharing a ledger, in one
// process or many, send each URL at its version once, taking turns a
// batch at a time (a long-running server and a one-off run interleave;
// neither waits for the other to end).
type Ledger interface {
	// Submitted reports whether loc at version was sent and accepted.
	Submitted(ctx context.Context, loc, version string) (bool, error)
	// SubmittedEach is Submitted for each of a batch's URLs (Loc and
	// Version).
	SubmittedEach(ctx context.Context, subs []state.Submission) ([]bool, error)
	// RecordSubmissions records the outcome of a batch, durably.
	RecordSubmissions(ctx context.Context, subs []state.Submission) error
	// SentSince counts the URLs accepted at or after since.
	SentSince(ctx context.Context, since time.Time) (int64, error)
	// LockSubmissions takes the ledger's lock, waiting as long as ctx
	// allows, telling onWait who holds it when the wait is long, and
	// returns the function that gives it back. The lock must be one
	// that ends with its holder, however the holder ends.
	LockSubmissions(ctx context.Context, command string, onWait func(state.LockHolder)) (unlock func() error, err error)
}

var (
	_ Ledger = (*state.SQLite)(nil)
	_ Ledger = (*state.Postgres)(nil)
)

// Options configure [Submit].
type Options struct {
	// Key is the key (IN-03); required.
	Key string
	// Host is the host every URL must be on (www.example.com, or
	// 127.0.0.1:8080 with a port); an http(s) URL is taken for its host.
	// Required.
	Host string
	// KeyLocation is the URL of the key file when it is not
	// https://HOST/KEY.txt; only URLs below its directory are sent (IN-05).
	KeyLocation string
	// Endpoint is where batches are POSTed (default DefaultEndpoint).
	Endpoint string
	// Client sends the batches (package fetch's client: its timeouts,
	// retries and Retry-After bound apply). Required unless DryRun.
	Client *fetch.Client

	// BatchSize is the most URLs in one POST (default and most: MaxBatch).
	BatchSize int
	// MaxPerDay is the most URLs accepted in 24 hours, counted in the
	// Ledger when there is one and in this run otherwise (0: no quota).
	// URLs past it are not sent (Summary.Deferred): with a Ledger, the
	// next run sends them.
	MaxPerDay int64
	// Ledger, when set, skips what it has seen sent and records every
	// batch's outcome, holding the Ledger's lock from its check of a
	// batch to the record of its outcome (see [Ledger]).
	Ledger Ledger
	// LockWait is the longest a batch waits for the Ledger's lock while
	// another submitter holds it (0: as long as ctx allows); past it,
	// Submit returns an error naming the holder (a *state.LockBusyError).
	LockWait time.Duration
	// Submitter names this submitter to the others waiting on the
	// Ledger's lock ("sitemap submit"; default: the program's name).
	Submitter string
	// OnWait is told, in a sentence for people, when a batch has waited
	// a second for the Ledger's lock, naming the holder.
	OnWait func(msg string)
	// DryRun makes the batches (OnBatch is told of each) and sends nothing.
	DryRun bool

	// OnDiagnostic is told of every URL not sent because of where it is
	// (IN-08, IN-05) or what it is (L-01, L-07: no normal form), and, at
	// info level, of every URL sent in its normal form rather than as
	// written (L-18).
	OnDiagnostic func(sitemap.Diagnostic)
	// OnBatch is told of every batch when it is answered (or made, with
	// DryRun).
	OnBatch func(Batch)
	// OnRetry is told of every retry, in a sentence for people.
	OnRetry func(msg string)
	// Now is the clock (default time.Now).
	Now func() time.Time
	// DedupMemory is the memory for the URLs seen before the set spills
	// to disk (default 16 MiB).
	DedupMemory int64
}

// Outcome is what became of a batch.
type Outcome string

// The outcomes of a [Batch].
const (
	Sent    Outcome = "sent"    // 200 or 202
	Failed  Outcome = "failed"  // any other answer (a redirect too), or none
	Planned Outcome = "dry-run" // made with Options.DryRun, not sent
)

// Batch is one POST: its URLs and what the endpoint answered.
type Batch struct {
	// N numbers the batches of a run from 1.
	N    int
	URLs []string
	// Status is the HTTP status of the answer (0 without one).
	Status  int
	Outcome Outcome
	// Message says what the answer means, for people.
	Message string
	// Retries is how many attempts failed before the answer.
	Retries int
}

// Summary counts what [Submit] did.
type Summary struct {
	// Read counts the entries read; Duplicates those whose URL came before.
	Read, Duplicates int64
	// Refused counts the URLs not sent because of their host, directory
	// or form (each reported to OnDiagnostic).
	Refused int64
	// Already counts the URLs the Ledger had seen sent at this version.
	Already int64
	// Sent counts the URLs of accepted batches (with DryRun, of the
	// batches made); Failed those of refused or unanswered ones.
	Sent, Failed int64
	// Deferred counts the URLs not sent because of MaxPerDay, or because
	// an earlier batch stopped the run (a 403 or a 429).
	Deferred int64
	// Batches counts the batches, FailedBatches those that failed.
	Batches, FailedBatches int
	DryRun                 bool
}

// OK reports whether no batch failed and no URL was refused.
func (s Summary) OK() bool { return s.FailedBatches == 0 && s.Refused == 0 }

// String is the one-line summary for people.
func (s Summary) String() string {
	var b strings.Builder
	verb := "sent"
	if s.DryRun {
		verb = "would be sent (dry run)"
	}
	fmt.Fprintf(&b, "%s %s in %s", plural.Of(s.Sent, "URL", "URLs"), verb, plural.Of(int64(s.Batches), "batch", "batches"))
	if s.FailedBatches > 0 {
		fmt.Fprintf(&b, "; %s (%s) failed", plural.Of(int64(s.FailedBatches), "batch", "batches"), plural.Of(s.Failed, "URL", "URLs"))
	}
	if s.Already > 0 {
		fmt.Fprintf(&b, "; %d already submitted", s.Already)
	}
	if s.Refused > 0 {
		fmt.Fprintf(&b, "; %d refused (host or key directory)", s.Refused)
	}
	if s.Duplicates > 0 {
		fmt.Fprintf(&b, "; %s", plural.Of(s.Duplicates, "duplicate", "duplicates"))
	}
	if s.Deferred > 0 {
		fmt.Fprintf(&b, "; %d left for a later run", s.Deferred)
	}
	fmt.Fprintf(&b, " (%d read)", s.Read)
	return b.String()
}

// Version is the version of u's content that a submission is recorded
// under: its content hash when it has one, else its lastmod and the
// fingerprint of its fields (state.Fingerprint). A page that changes gets
// a new version and is submitted again.
func Version(u *sitemap.URL) string {
	if u.ContentHash != "" {
		return "hash:" + u.ContentHash
	}
	return u.LastMod.String() + "|" + state.Fingerprint(u)
}

// scope is the checked Options: where URLs may be.
type scope struct {
	host   string // lower case, with the port when Host has one
	dir    string // the key file's directory path, ending in "/"; "" for the root
	keyLoc string
}

// NormalURL returns s in the normal form Submit sends URLs in
// (urlnorm.Normalize: percent-encoded as UTF-8, the host in lower case and
// punycode, no default port or fragment; L-18), or s itself when it has
// none. Submit takes Options.KeyLocation so.
func NormalURL(s string) string { return urlnorm.Key(s) }

// NormalHost returns the host h names (a host, host:port, or an http(s)
// URL) as a submission carries it and its URLs are compared with it: in
// the normal form of urlnorm.Normalize (lower case, punycode, without the
// default port of the URL's scheme, https for a bare host); h itself,
// lower-cased, when it has none.
func NormalHost(h string) string {
	h = strings.TrimSpace(h)
	if h == "" {
		return ""
	}
	u := h
	if HostOf(h) == h { // a bare host
		if strings.ContainsAny(h, "/?#@ ") {
			return strings.ToLower(h) // no host name: check says so
		}
		u = "https://" + h + "/"
	}
	if n, _, err := urlnorm.Normalize(u); err == nil {
		if pu, err := url.Parse(n); err == nil && pu.Host != "" {
			return pu.Host
		}
	}
	return strings.ToLower(HostOf(h))
}

// HostOf returns the host of an http(s) URL, or s itself when it is no
// URL: what Options.Host takes.
func HostOf(s string) string {
	if u, err := url.Parse(s); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return u.Host
	}
	return s
}

func (o *Options) check() (scope, error) {
	var sc scope
	if err := ValidKey(o.Key); err != nil {
		return sc, err
	}
	h := NormalHost(o.Host)
	if h == "" {
		return sc, errors.New("indexnow: no host; give the host the URLs are on (www.example.com)")
	}
	if strings.ContainsAny(h, "/?#@ ") {
		return sc, fmt.Errorf("indexnow: host %q is not a host name; give it as www.example.com", o.Host)
	}
	sc.host = h
	if o.KeyLocation != "" {
		o.KeyLocation = NormalURL(o.KeyLocation) // as the URLs are compared with it
		u, err := url.Parse(o.KeyLocation)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return sc, fmt.Errorf("indexnow: key location %q is not an http(s) URL; give the full URL of the key file (IN-05)", o.KeyLocation)
		}
		if !sc.sameHost(u) {
			return sc, fmt.Errorf("indexnow: key location %s is not on host %s; the key file must be on the host it covers (IN-05)", o.KeyLocation, sc.host)
		}
		p := u.EscapedPath()
		sc.dir = p[:strings.LastIndexByte(p, '/')+1]
		if sc.dir == "/" {
			sc.dir = ""
		}
		sc.keyLoc = o.KeyLocation
	}
	if o.Endpoint == "" {
		o.Endpoint = DefaultEndpoint
	}
	if u, err := url.Parse(o.Endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return sc, fmt.Errorf("indexnow: endpoint %q is not an http(s) URL", o.Endpoint)
	}
	if o.Client == nil && !o.DryRun {
		return sc, errors.New("indexnow: no HTTP client to send with")
	}
	if o.BatchSize <= 0 || o.BatchSize > MaxBatch {
		o.BatchSize = MaxBatch
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.DedupMemory <= 0 {
		o.DedupMemory = 16 << 20
	}
	return sc, nil
}

// sameHost reports whether the http(s) URL u is on the host of the
// submission (IN-08): urlnorm.OnHost, the port compared when Host has one.
func (sc *scope) sameHost(u *url.URL) bool { return urlnorm.OnHost(u, sc.host) }

// refuse returns the diagnostic of a URL that is not sent, or nil.
func (sc *scope) refuse(loc string) *sitemap.Diagnostic {
	u, err := url.Parse(loc)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &sitemap.Diagnostic{Rule: rules.L01, Severity: sitemap.SeverityError, URL: loc,
			Message: "not an absolute http(s) URL; not sent"}
	}
	if !sc.sameHost(u) {
		return &sitemap.Diagnostic{Rule: rules.IN08, Severity: sitemap.SeverityError, URL: loc,
			Message: fmt.Sprintf("on host %s, not %s; not sent (a submission carries the URLs of one host: submit each host with its own --host and key)", u.Host, sc.host)}
	}
	if sc.dir != "" && !strings.HasPrefix(u.EscapedPath(), sc.dir) {
		return &sitemap.Diagnostic{Rule: rules.IN05, Severity: sitemap.SeverityError, URL: loc,
			Message: fmt.Sprintf("outside %s, the directory of the key file %s; not sent (put the key file at the root of the host to cover every URL)", sc.dir, sc.keyLoc)}
	}
	return nil
}

// normal returns loc in its normal form (urlnorm.Normalize: percent-encoded
// as UTF-8, host in lower case and punycode, no default port or
// fragment; L-18), the URL a sitemap of generate lists, or the
// diagnostic of a loc that has none (not sent).
func normal(loc string) (string, *sitemap.Diagnostic) {
	n, _, err := urlnorm.Normalize(loc)
	if err != nil {
		// check.URL refuses every URL that has no normal form, and says
		// which rule it breaks.
		rule, msg := rules.L07, err.Error()
		if _, pr := check.URL(loc); !pr.OK() {
			rule, msg = pr.Rule, pr.Text()
		}
		return loc, &sitemap.Diagnostic{Rule: rule, Severity: sitemap.SeverityError, URL: loc,
			Message: msg + "; not sent"}
	}
	return n, nil
}

// item is a URL waiting in a batch.
type item struct{ loc, version string }

// Submit checks o (the key first: a bad key sends nothing), reads
// entries and submits their URLs in batches (see the package comment).
// It returns an error when the run cannot go on: bad options, entries
// that fail, the Ledger failing, or ctx ending; a batch the endpoint
// refuses is counted in the Summary (Summary.OK is false) and told to
// OnBatch, not returned.
//
// Submit may be called again and again (a server submitting each batch
// of changes it sees) and from several goroutines or processes at once
// with one Ledger: each batch is checked against the Ledger again and
// sent under its lock, so each URL at its version is sent once whoever
// sends it; a URL another submitter sent first counts as Already. A
// batch waits for the lock at most LockWait; the lock is held for one
// batch (its check, its POST with the client's retries, and the record
// of its outcome), so submitters take turns and none waits for another
// to end.
func Submit(ctx context.Context, entries sitemap.Entries, o Options) (Summary, error) {
	sum := Summary{DryRun: o.DryRun}
	sc, err := o.check()
	if err != nil {
		return sum, err
	}
	set := seen.New(o.DedupMemory, "")
	defer set.Close()
	quota := int64(-1)
	if o.MaxPerDay > 0 {
		quota = o.MaxPerDay
		if o.Ledger != nil {
			n, err := o.Ledger.SentSince(ctx, o.Now().Add(-24*time.Hour))
			if err != nil {
				return sum, err
			}
			quota = max(0, quota-n)
		}
	}
	s := &submitter{o: &o, sc: &sc, sum: &sum, quota: quota}
	err = entries(ctx, func(u *sitemap.URL) error {
		sum.Read++
		loc, d := normal(u.Loc)
		if d == nil {
			d = sc.refuse(loc)
		}
		if d != nil {
			sum.Refused++
			if o.OnDiagnostic != nil {
				o.OnDiagnostic(*d)
			}
			return nil
		}
		if loc != u.Loc && o.OnDiagnostic != nil {
			o.OnDiagnostic(sitemap.Diagnostic{Rule: rules.L18, Severity: sitemap.SeverityInfo, URL: u.Loc,
				Message: fmt.Sprintf("sent as %q, its normal form, as generate publishes it", loc)})
		}
		isNew, err := set.Add(loc)
		if err != nil {
			return fmt.Errorf("indexnow: remembering the URLs read: %w", err)
		}
		if !isNew {
			sum.Duplicates++
			return nil
		}
		v := Version(u)
		if o.Ledger != nil {
			done, err := o.Ledger.Submitted(ctx, loc, v)
			if err != nil {
				return err
			}
			if done {
				sum.Already++
				return nil
			}
		}
		if s.stopped || s.quota == 0 {
			sum.Deferred++
			return nil
		}
		s.batch = append(s.batch, item{loc, v})
		if s.quota > 0 {
			s.quota--
		}
		if len(s.batch) >= o.BatchSize {
			return s.flush(ctx)
		}
		return nil
	})
	if err != nil {
		return sum, err
	}
	return sum, s.flush(ctx)
}

type submitter struct {
	o       *Options
	sc      *scope
	sum     *Summary
	batch   []item
	n       int
	quota   int64 // URLs left today; -1: no quota
	stopped bool  // a 403 or 429: later batches would fail the same way
}

// body is the JSON of a submission (IN-07).
type body struct {
	Host        string   `json:"host"`
	Key         string   `json:"key"`
	KeyLocation string   `json:"keyLocation,omitempty"`
	URLList     []string `json:"urlList"`
}

// flush sends the batch (with DryRun, makes it): with a Ledger, under
// its lock, after checking the batch against it again (another
// submitter may have sent some of its URLs since they were read) and
// against the day's quota as the Ledger counts it now.
func (s *submitter) flush(ctx context.Context) error {
	if len(s.batch) == 0 {
		return nil
	}
	defer func() { s.batch = s.batch[:0] }()
	if s.o.DryRun {
		s.n++
		b := Batch{N: s.n, URLs: s.locs(), Outcome: Planned, Message: "not sent (dry run)"}
		s.sum.Sent += int64(len(b.URLs))
		s.sum.Batches++
		if s.o.OnBatch != nil {
			s.o.OnBatch(b)
		}
		return nil
	}
	if s.o.Ledger == nil {
		return s.post(ctx)
	}
	unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	err = s.checkAndPost(ctx)
	if uerr := unlock(); err == nil {
		err = uerr
	}
	return err
}

// lock takes the Ledger's lock, waiting at most LockWait.
func (s *submitter) lock(ctx context.Context) (func() error, error) {
	lctx, cancel := ctx, context.CancelFunc(func() {})
	if s.o.LockWait > 0 {
		lctx, cancel = context.WithTimeout(ctx, s.o.LockWait)
	}
	defer cancel()
	unlock, err := s.o.Ledger.LockSubmissions(lctx, s.o.Submitter, func(h state.LockHolder) {
		if s.o.OnWait != nil {
			s.o.OnWait("waiting for another submitter on the same state: " + h.String())
		}
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("indexnow: %w", err)
	}
	return unlock, nil
}

// checkAndPost sends what of the batch the Ledger has not seen sent, as
// much of it as the day's quota allows. The Ledger's lock is held.
func (s *submitter) checkAndPost(ctx context.Context) error {
	subs := make([]state.Submission, len(s.batch))
	for i, it := range s.batch {
		subs[i] = state.Submission{Loc: it.loc, Version: it.version}
	}
	done, err := s.o.Ledger.SubmittedEach(ctx, subs)
	if err != nil {
		return err
	}
	keep := s.batch[:0]
	for i, it := range s.batch {
		if done[i] { // sent by another submitter since it was read
			s.sum.Already++
			if s.quota >= 0 {
				s.quota++
			}
			continue
		}
		keep = append(keep, it)
	}
	s.batch = keep
	if s.o.MaxPerDay > 0 {
		n, err := s.o.Ledger.SentSince(ctx, s.o.Now().Add(-24*time.Hour))
		if err != nil {
			return err
		}
		left := max(0, s.o.MaxPerDay-n)
		if int64(len(s.batch)) > left {
			s.sum.Deferred += int64(len(s.batch)) - left
			s.batch = s.batch[:left]
		}
		s.quota = left - int64(len(s.batch))
	}
	return s.post(ctx)
}

func (s *submitter) locs() []string {
	l := make([]string, len(s.batch))
	for i, it := range s.batch {
		l[i] = it.loc
	}
	return l
}

// post sends the batch, when it has URLs, and records its outcome in the
// Ledger.
func (s *submitter) post(ctx context.Context) error {
	if len(s.batch) == 0 {
		return nil
	}
	s.n++
	b := Batch{N: s.n, URLs: s.locs()}
	if err := s.send(ctx, &b); err != nil {
		return err // ctx ended: a batch without an answer is not counted
	}
	s.sum.Batches++
	if b.Outcome == Sent {
		s.sum.Sent += int64(len(b.URLs))
	} else {
		s.sum.Failed += int64(len(b.URLs))
		s.sum.FailedBatches++
		if s.quota >= 0 {
			s.quota += int64(len(b.URLs)) // not accepted: not counted
		}
	}
	if s.o.Ledger != nil {
		subs := make([]state.Submission, len(s.batch))
		at := s.o.Now()
		outcome := state.OutcomeSent
		if b.Outcome != Sent {
			outcome = state.OutcomeFailed
		}
		for i, it := range s.batch {
			subs[i] = state.Submission{Loc: it.loc, Version: it.version, Endpoint: s.o.Endpoint, At: at, Status: b.Status, Outcome: outcome}
		}
		// The answer came: record it even when ctx ends now (an
		// interrupted run does not send an accepted batch again).
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer cancel()
		if err := s.o.Ledger.RecordSubmissions(rctx, subs); err != nil {
			return err
		}
	}
	if s.o.OnBatch != nil {
		s.o.OnBatch(b)
	}
	return nil
}

// send POSTs one batch and fills in its answer. It returns an error only
// when ctx ended.
func (s *submitter) send(ctx context.Context, b *Batch) error {
	data, err := json.Marshal(body{Host: s.sc.host, Key: s.o.Key, KeyLocation: s.sc.keyLoc, URLList: b.URLs})
	if err != nil {
		return err
	}
	// No redirect is followed: the key and the URLs go only where the
	// caller said (a 307 or 308 would re-POST both to wherever it names).
	resp, err := s.o.Client.Post(ctx, s.o.Endpoint, ContentType, data, fetch.GetOptions{
		Accept: "application/json,text/plain;q=0.9,*/*;q=0.5", AcceptEncoding: "identity",
		AnyStatus: true, OnRetry: s.o.OnRetry, MaxRedirects: fetch.NoRedirects,
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		b.Outcome, b.Message = Failed, "no answer from "+s.o.Endpoint+": "+err.Error()+"; submit again later"
		var fe *fetch.Error
		if errors.As(err, &fe) && fe.Status != 0 {
			// An answer the client would not wait for (a Retry-After
			// past its bound).
			b.Status, b.Message = fe.Status, Meaning(fe.Status)+": "+fe.Msg
			s.stopped = fe.Status == 403 || fe.Status == 429
		}
		return nil
	}
	detail, _ := io.ReadAll(io.LimitReader(resp, 512))
	resp.Close()
	b.Status, b.Retries = resp.Status, resp.Retries
	b.Outcome, b.Message = Failed, Meaning(resp.Status)
	if resp.Status == 200 || resp.Status == 202 {
		b.Outcome = Sent
	}
	if resp.Status >= 300 && resp.Status < 400 {
		b.Message = redirected(s.o.Endpoint, resp.Status, resp.Header.Get("Location"))
		s.stopped = true // every batch would be redirected the same way
		return nil
	}
	if b.Outcome == Failed {
		if d := strings.Join(strings.Fields(string(detail)), " "); d != "" {
			b.Message += " (the endpoint said: " + cut(d, 200) + ")"
		}
		if resp.Retries > 0 {
			b.Message += fmt.Sprintf(" (gave up after %d attempts)", resp.Retries+1)
		}
		if resp.Status == 403 || resp.Status == 429 {
			s.stopped = true
		}
	}
	return nil
}

// redirected is the message of a batch the endpoint answered with a
// redirect, which Submit does not follow.
func redirected(endpoint string, status int, location string) string {
	if location == "" {
		return fmt.Sprintf("HTTP %d: the endpoint %s answered with a redirect that names no Location; nothing was sent elsewhere: check --endpoint", status, endpoint)
	}
	to, same := fmt.Sprintf("%q", location), false
	if e, err := url.Parse(endpoint); err == nil {
		if l, err := e.Parse(location); err == nil {
			to, same = l.Redacted(), urlnorm.SameSite(endpoint, l.String())
		}
	}
	if same {
		return fmt.Sprintf("HTTP %d: the endpoint %s redirected to %s; IndexNow submissions follow no redirect (the key goes only where you say): give it as the endpoint (--endpoint, --indexnow-endpoint) if you trust it: %s", status, endpoint, cut(to, 300), cut(to, 300))
	}
	return fmt.Sprintf("HTTP %d: the endpoint %s redirected to %s; IndexNow submissions are not sent to another host: give it as the endpoint (--endpoint, --indexnow-endpoint) if you trust it: %s", status, endpoint, cut(to, 300), cut(to, 300))
}

// Meaning says what an IndexNow endpoint's status means and what to do
// (IN-09).
func Meaning(status int) string {
	switch {
	case status == 200:
		return "HTTP 200: received"
	case status == 202:
		return "HTTP 202: accepted; the key is being validated (IN-09)"
	case status == 400:
		return "HTTP 400 Bad Request: the endpoint could not read the submission (IN-07)"
	case status == 403:
		return "HTTP 403 Forbidden: the key is not valid: the key file was not found on the host or does not hold the key; publish it and check with --verify-key (IN-04)"
	case status == 422:
		return "HTTP 422 Unprocessable Entity: the URLs are not on the host, or the key does not match the key file's name or location (IN-08, IN-05)"
	case status == 429:
		return "HTTP 429 Too Many Requests: the endpoint asks to slow down; submit again later, fewer URLs a day (--max-per-day)"
	case status >= 500:
		return fmt.Sprintf("HTTP %d: the endpoint failed; submit again later", status)
	}
	return fmt.Sprintf("HTTP %d: not an IndexNow answer (IN-09); check --endpoint", status)
}
