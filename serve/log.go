package serve

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// RequestLog writes one access-log line per request and counts the
// answers by status, for a server in front of a [Handler] or [Dir]. It is
// safe for concurrent use.
type RequestLog struct {
	mu    sync.Mutex
	w     io.Writer // nil: count only
	codes map[int]int64
	now   func() time.Time
}

// NewRequestLog returns a RequestLog writing to w; a nil w only counts.
func NewRequestLog(w io.Writer) *RequestLog {
	return &RequestLog{w: w, codes: map[int]int64{}, now: time.Now}
}

// Wrap returns next with every request logged once it is answered, in the
// Common Log Format followed by the time taken:
//
//	127.0.0.1 - - [24/Nov/2026:12:00:00 +0000] "GET /sitemap-1.xml HTTP/1.1" 200 4871234 0.052s
//
// A request whose handler aborted (a source failing mid-page) is logged
// with the status sent and "aborted".
func (l *RequestLog) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := l.now()
		rw := &statusWriter{ResponseWriter: w}
		aborted := true
		defer func() {
			l.log(r, rw, start, aborted)
		}()
		next.ServeHTTP(rw, r)
		aborted = false
	})
}

func (l *RequestLog) log(r *http.Request, rw *statusWriter, start time.Time, aborted bool) {
	code := rw.code
	if code == 0 {
		code = http.StatusOK
	}
	host := r.RemoteAddr
	if i := lastColon(host); i > 0 {
		host = host[:i]
	}
	line := fmt.Sprintf("%s - - [%s] %s %d %d %.3fs", host, start.Format("02/Jan/2006:15:04:05 -0700"),
		strconv.Quote(r.Method+" "+r.URL.RequestURI()+" "+r.Proto), code, rw.n, l.now().Sub(start).Seconds())
	if aborted {
		line += " aborted"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.codes[code]++
	if l.w != nil {
		io.WriteString(l.w, line+"\n")
	}
}

func lastColon(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			return i
		}
		if s[i] == ']' {
			return -1
		}
	}
	return -1
}

// WriteMetrics writes the request counts by status in the Prometheus text
// format.
func (l *RequestLog) WriteMetrics(w io.Writer) error {
	l.mu.Lock()
	codes, counts := sortedCounts(l.codes)
	l.mu.Unlock()
	_, err := fmt.Fprintf(w, "# HELP sitemap_serve_requests_total Requests answered, by HTTP status.\n# TYPE sitemap_serve_requests_total counter\n")
	for i, c := range codes {
		if _, err = fmt.Fprintf(w, "sitemap_serve_requests_total{code=\"%d\"} %d\n", c, counts[i]); err != nil {
			return err
		}
	}
	return err
}

// statusWriter remembers the status and counts the body bytes.
type statusWriter struct {
	http.ResponseWriter
	code int
	n    int64
}

func (s *statusWriter) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.n += int64(n)
	return n, err
}

// ReadFrom keeps the connection's own ReadFrom (sendfile) reachable
// through the wrapper.
func (s *statusWriter) ReadFrom(r io.Reader) (int64, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	var n int64
	var err error
	if rf, ok := s.ResponseWriter.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(r)
	} else {
		n, err = io.Copy(struct{ io.Writer }{s.ResponseWriter}, r)
	}
	s.n += n
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
