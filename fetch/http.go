package fetch

import (
	"bufio"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
)

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

// idleBody counts the wire bytes of a body, cancels the request when one
// Read waits longer than d for data (a server that dribbles or stalls),
// and stops at a byte budget (count's error) and at max bytes (0: no
// cap). Only the time spent inside Read counts: a consumer that is slow
// to ask for more (a paused pipe) is not the server's fault.
type idleBody struct {
	r     io.ReadCloser
	d     time.Duration
	ctx   context.Context // the document's: its cause says why it ended
	timer *time.Timer
	fired atomic.Bool
	count func(int64) error // adds n bytes; an error stops the read
	max   int64
	n     int64
	eof   bool
	err   error // the first read error other than io.EOF
}

func newIdleBody(r io.ReadCloser, d time.Duration, ctx context.Context, cancel context.CancelFunc, count func(int64) error, max int64) *idleBody {
	b := &idleBody{r: r, d: d, ctx: ctx, count: count, max: max}
	b.timer = time.AfterFunc(time.Hour, func() {
		b.fired.Store(true)
		cancel()
	})
	b.timer.Stop()
	return b
}

func (b *idleBody) fail(err error) error {
	if b.err == nil {
		b.err = err
	}
	return err
}

func (b *idleBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	b.timer.Reset(b.d)
	n, err := b.r.Read(p)
	b.timer.Stop()
	if n > 0 {
		b.n += int64(n)
		if b.max > 0 && b.n > b.max {
			return n, b.fail(&Error{Kind: KindTooLarge, Msg: "the body is larger than " + strconv.FormatInt(b.max, 10) + " bytes (the size limit); not read further"})
		}
		if b.count != nil {
			if cerr := b.count(int64(n)); cerr != nil {
				return n, b.fail(cerr)
			}
		}
	}
	switch {
	case err == io.EOF:
		b.eof = true
	case err != nil:
		if b.fired.Load() {
			err = &Error{Kind: KindTimeout, Msg: "the server sent nothing for " + b.d.String() + " (idle timeout)", Err: err}
		} else if b.ctx.Err() != nil {
			var ce *Error
			if errors.As(context.Cause(b.ctx), &ce) {
				err = ce
			}
		}
		b.fail(err)
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
		if magic, _ := br.Peek(2); sitemap.IsGzip(magic) {
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
