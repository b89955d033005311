package fetch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
)

// maxRedirects is how many redirects a request follows (robots.txt and
// sitemaps alike).
const maxRedirects = 5

var errTooManyRedirects = errors.New("stopped after " + strconv.Itoa(maxRedirects) + " redirects")

// newClient builds the HTTP client of a walk: timeouts on connect, TLS and
// response headers; no transparent decompression (the body is sniffed).
func newClient(o Options) *http.Client {
	d := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ResponseHeaderTimeout: o.HeaderTimeout,
		DisableCompression:    true,
		MaxIdleConns:          o.Concurrency * 2,
		MaxIdleConnsPerHost:   o.PerHost,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{Transport: t, CheckRedirect: checkRedirect}
}

func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxRedirects {
		return errTooManyRedirects
	}
	return nil
}

// httpError is a request that ended without a usable body.
type httpError struct {
	Status  int
	Blocked bool // 401 or 403
	Msg     string
}

func (e *httpError) Error() string { return e.Msg }

// response is a usable response: the body, counted and bounded by the idle
// and per-document timeouts.
type response struct {
	Status          int
	FinalURL        string
	ContentType     string
	ContentEncoding string
	ETag            string
	LastModified    string
	Cached          bool
	Body            io.ReadCloser // wire bytes
	Retries         int
}

// request options for get.
type getOpts struct {
	etag, lastModified string // conditional request validators
	// probe: a guess at a well-known path gets one try, except on 429,
	// which is rate limiting rather than an answer and is retried like any
	// request (Retry-After honoured).
	probe bool
}

// get fetches u with retries on 429, 5xx and network errors. The returned
// body must be closed. ctx bounds the whole exchange, body included.
func (w *walker) get(ctx context.Context, u string, g getOpts, onRetry func(string)) (*response, error) {
	var lastErr error
	for attempt := 1; ; attempt++ {
		attempts := w.opts.Attempts
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, &httpError{Msg: "bad URL: " + err.Error()}
		}
		req.Header.Set("User-Agent", w.opts.UserAgent)
		req.Header.Set("Accept-Encoding", "gzip")
		req.Header.Set("Accept", "application/xml,text/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5")
		if g.etag != "" {
			req.Header.Set("If-None-Match", g.etag)
		}
		if g.lastModified != "" {
			req.Header.Set("If-Modified-Since", g.lastModified)
		}
		resp, err := w.client.Do(req)
		var wait time.Duration
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if errors.Is(err, errTooManyRedirects) {
				return nil, &httpError{Msg: errTooManyRedirects.Error()}
			}
			lastErr = &httpError{Msg: describeNetErr(err)}
			if g.probe {
				attempts = 1
			}
		} else {
			switch {
			case resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusNotModified:
				return w.wrap(resp, attempt-1), nil
			case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
				wait, _ = retryAfter(resp.Header.Get("Retry-After"), time.Now())
				lastErr = &httpError{Status: resp.StatusCode, Msg: "HTTP " + resp.Status}
				drain(resp.Body)
				if g.probe && resp.StatusCode != http.StatusTooManyRequests {
					attempts = 1
				}
			default:
				drain(resp.Body)
				e := &httpError{Status: resp.StatusCode, Msg: "HTTP " + resp.Status}
				if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
					e.Blocked = true
					e.Msg = "HTTP " + resp.Status + " for user agent " + strconv.Quote(w.opts.UserAgent) + ": the server refuses this client (try --user-agent)"
				}
				return nil, e
			}
		}
		if attempt >= attempts {
			he := lastErr.(*httpError)
			if attempt > 1 {
				he.Msg += fmt.Sprintf(" (gave up after %d attempts)", attempt)
			}
			return nil, he
		}
		if wait == 0 {
			wait = backoff(w.opts.RetryBase, attempt)
		}
		if wait > w.opts.RetryMax {
			he := lastErr.(*httpError)
			he.Msg += fmt.Sprintf(" (Retry-After %s is longer than the %s the walk waits; not retried)", wait.Round(time.Second), w.opts.RetryMax)
			return nil, he
		}
		if onRetry != nil {
			onRetry(fmt.Sprintf("%s; retrying in %s (attempt %d of %d)", lastErr.Error(), wait.Round(time.Millisecond), attempt+1, attempts))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// backoff is base·2^(attempt-1) with ±50 % jitter.
func backoff(base time.Duration, attempt int) time.Duration {
	d := base << (attempt - 1)
	if d <= 0 || d > time.Hour {
		d = time.Hour
	}
	return d/2 + rand.N(d)
}

// retryAfter parses a Retry-After value: delay seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		if n > 86400*365 {
			n = 86400 * 365
		}
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

func drain(b io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(b, 64<<10))
	_ = b.Close()
}

func describeNetErr(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			err = inner
		}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timed out: " + err.Error()
	}
	return err.Error()
}

func (w *walker) wrap(resp *http.Response, retries int) *response {
	return &response{
		Status:          resp.StatusCode,
		FinalURL:        resp.Request.URL.String(),
		ContentType:     resp.Header.Get("Content-Type"),
		ContentEncoding: strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))),
		ETag:            resp.Header.Get("ETag"),
		LastModified:    resp.Header.Get("Last-Modified"),
		Body:            resp.Body,
		Retries:         retries,
	}
}

// errIdle is returned by a body that sent nothing for IdleTimeout.
type idleError struct{ d time.Duration }

func (e *idleError) Error() string {
	return "the server sent nothing for " + e.d.String() + " (idle timeout)"
}

// idleBody counts the wire bytes of a body, cancels the request when one
// Read waits longer than d for data (a server that dribbles or stalls),
// and stops at a byte budget. Only the time spent inside Read counts: a
// consumer that is slow to ask for more (a paused pipe) is not the
// server's fault.
type idleBody struct {
	r     io.ReadCloser
	d     time.Duration
	timer *time.Timer
	fired atomic.Bool
	count func(int64) error // adds n bytes; an error stops the read
	n     int64
	err   error // the first read error other than io.EOF (transport)
}

func newIdleBody(r io.ReadCloser, d time.Duration, cancel context.CancelFunc, count func(int64) error) *idleBody {
	b := &idleBody{r: r, d: d, count: count}
	b.timer = time.AfterFunc(time.Hour, func() {
		b.fired.Store(true)
		cancel()
	})
	b.timer.Stop()
	return b
}

func (b *idleBody) Read(p []byte) (int, error) {
	b.timer.Reset(b.d)
	n, err := b.r.Read(p)
	b.timer.Stop()
	if n > 0 {
		b.n += int64(n)
		if b.count != nil {
			if cerr := b.count(int64(n)); cerr != nil {
				if b.err == nil {
					b.err = cerr
				}
				return n, cerr
			}
		}
	}
	if err != nil && err != io.EOF {
		if b.fired.Load() {
			err = &idleError{b.d}
		}
		if b.err == nil {
			b.err = err
		}
	}
	return n, err
}

func (b *idleBody) Close() error {
	b.timer.Stop()
	return b.r.Close()
}

// contentDecode undoes a Content-Encoding: gzip when the body really is
// gzip (magic bytes); a body labelled gzip that is not stays as is, and a
// body that is gzip without the label is left to the decoder, which sniffs
// it too. So a .xml.gz served with Content-Encoding: gzip (gzip twice) is
// unwrapped once here and once by the decoder.
func contentDecode(body io.Reader, encoding string) (io.Reader, string, error) {
	br := bufio.NewReaderSize(body, 32<<10)
	switch encoding {
	case "", "identity":
		return br, "", nil
	case "gzip", "x-gzip":
		magic, _ := br.Peek(2)
		if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
			zr, err := gzip.NewReader(br)
			if err != nil {
				return nil, "", err
			}
			return zr, "", nil
		}
		return br, "Content-Encoding says " + encoding + " but the body is not gzip; read as is", nil
	}
	return br, "Content-Encoding " + strconv.Quote(encoding) + " is not supported (only gzip was asked for); read as is", nil
}
