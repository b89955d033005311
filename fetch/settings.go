package fetch

import (
	"fmt"
	"time"
)

// ClientSettings are a [Client]'s options as a command line gives them
// (--user-agent, --timeout, and the [Scope] of --scope, --allow-host and
// --no-private, [ParseScope]): the options of every command that reads
// its inputs over HTTP.
type ClientSettings struct {
	// UserAgent is sent with every request ("": DefaultUserAgent).
	UserAgent string
	// Timeout bounds each request, its body included, and the wait for
	// its headers (0: ClientOptions' defaults); it must not be negative.
	Timeout time.Duration
	// Scope is what the requests may reach.
	Scope Scope
}

// Client checks s and returns the Client it sets. A negative Timeout
// is an error naming --timeout and saying what to give; a Scope that
// NewClient refuses is NewClient's error.
func (s ClientSettings) Client() (*Client, error) {
	if s.Timeout < 0 {
		return nil, fmt.Errorf("--timeout %v: give a time limit above 0, such as 30s", s.Timeout)
	}
	return NewClient(ClientOptions{UserAgent: s.UserAgent, Timeout: s.Timeout, HeaderTimeout: s.Timeout, Scope: s.Scope})
}

// ParseScope returns the Scope a command line asks for: scope is "any"
// (or "": every host) or "same-site" (--scope), allow the hosts of
// --allow-host (Scope.Allow), noPrivate --no-private. An error names the
// flag and says what to give instead.
func ParseScope(scope string, allow []string, noPrivate bool) (Scope, error) {
	sc := Scope{Allow: allow, NoPrivate: noPrivate}
	switch scope {
	case "any", "":
	case "same-site":
		sc.SameSite = true
	default:
		return sc, fmt.Errorf("--scope %q: want any or same-site", scope)
	}
	if err := sc.Check(); err != nil {
		return sc, fmt.Errorf("--allow-host: %v", err)
	}
	return sc, nil
}
