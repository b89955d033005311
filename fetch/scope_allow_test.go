package fetch

import (
	"strings"
	"testing"
)

// A URL given as an allowed host says to give its host: it was read as
// host:port and refused for its "port".
func TestScopeAllowURL(t *testing.T) {
	for a, host := range map[string]string{"https://example.com/": "example.com", "http://example.com:8080": "example.com:8080"} {
		_, err := NewClient(ClientOptions{Scope: Scope{Allow: []string{a}}})
		if err == nil || !strings.Contains(err.Error(), "a URL, not a host; give its host, "+host+";") {
			t.Errorf("Allow %q: %v", a, err)
		}
	}
	if _, err := NewClient(ClientOptions{Scope: Scope{Allow: []string{"example.com:8443", "localhost:8080", "2001:db8::1"}}}); err != nil {
		t.Errorf("host:port entries: %v", err)
	}
}
