package fetch

import (
	"errors"
	"net"
	"net/http"
	"strconv"
)

// ErrorKind says why a request failed, so callers can tell an answer
// ("not found") from a refusal, a network failure or a cap.
type ErrorKind uint8

const (
	// KindNetwork: no response (DNS, connect, TLS, reset, header timeout).
	KindNetwork ErrorKind = iota + 1
	// KindNotFound: 404 or 410; the document does not exist.
	KindNotFound
	// KindBlocked: 401 or 403; the server refuses this client (often its
	// User-Agent).
	KindBlocked
	// KindStatus: any other status that is not a usable answer (429 and
	// 5xx once the retries are over, other 4xx, a 3xx not followed).
	KindStatus
	// KindRedirect: too many redirects, or a redirect refused by
	// GetOptions.CheckRedirect.
	KindRedirect
	// KindTooLarge: the body is larger than ClientOptions.MaxBodyBytes.
	KindTooLarge
	// KindTimeout: the body stalled longer than the idle timeout, or the
	// document took longer than its timeout.
	KindTimeout
	// KindBadURL: the URL cannot be requested (it does not parse, or it
	// is not an http(s) URL).
	KindBadURL
	// KindScope: the Client's Scope refused the URL, a redirect's target
	// or the address connected to (the Err is a *ScopeError). Not retried.
	KindScope
)

// String names the kind: "network", "not found", "blocked", "status",
// "redirect", "too large", "timeout", "bad URL" or "out of scope".
func (k ErrorKind) String() string {
	switch k {
	case KindNetwork:
		return "network"
	case KindNotFound:
		return "not found"
	case KindBlocked:
		return "blocked"
	case KindStatus:
		return "status"
	case KindRedirect:
		return "redirect"
	case KindTooLarge:
		return "too large"
	case KindTimeout:
		return "timeout"
	case KindBadURL:
		return "bad URL"
	case KindScope:
		return "out of scope"
	}
	return "unknown"
}

// Error is a failed request or body read of a [Client].
type Error struct {
	Kind   ErrorKind
	URL    string // the URL requested
	Status int    // the HTTP status, 0 without a response
	Msg    string // for people: "HTTP 404 Not Found", "timed out: …"
	Err    error  // the cause, when there is one
}

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the ErrorKind of the first *Error in err's chain, or 0.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// statusError describes a response that is not a usable answer.
func statusError(u string, resp *http.Response, agent string) *Error {
	st := resp.StatusCode
	e := &Error{Kind: KindStatus, URL: u, Status: st, Msg: "HTTP " + resp.Status}
	switch st {
	case http.StatusNotFound, http.StatusGone:
		e.Kind = KindNotFound
	case http.StatusUnauthorized, http.StatusForbidden:
		e.Kind = KindBlocked
		e.Msg = "HTTP " + resp.Status + " for user agent " + strconv.Quote(agent) + ": the server refuses this client (try --user-agent)"
	}
	return e
}

// netError describes a request that got no response.
func netError(u string, err error) *Error {
	var se *ScopeError
	if errors.As(err, &se) {
		return &Error{Kind: KindScope, URL: u, Msg: se.Error(), Err: se}
	}
	var tm *tooMany
	if errors.As(err, &tm) {
		return &Error{Kind: KindRedirect, URL: u, Msg: tm.Error(), Err: err}
	}
	var rf *refused
	if errors.As(err, &rf) {
		return &Error{Kind: KindRedirect, URL: u, Msg: rf.Error(), Err: rf.err}
	}
	return &Error{Kind: KindNetwork, URL: u, Msg: describeNetErr(err), Err: err}
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
