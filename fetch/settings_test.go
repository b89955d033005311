package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestParseScope(t *testing.T) {
	for _, c := range []struct {
		scope     string
		allow     []string
		noPrivate bool
		want      Scope
		err       string
	}{
		{scope: "", want: Scope{}},
		{scope: "any", allow: []string{"example.com"}, want: Scope{Allow: []string{"example.com"}}},
		{scope: "same-site", noPrivate: true, want: Scope{SameSite: true, NoPrivate: true}},
		{scope: "site", err: `--scope "site": want any or same-site`},
		{scope: "any", allow: []string{"https://example.com/"}, err: "--allow-host: "},
	} {
		got, err := ParseScope(c.scope, c.allow, c.noPrivate)
		switch {
		case c.err != "" && (err == nil || !strings.HasPrefix(err.Error(), c.err)):
			t.Errorf("%q %v: error %v; want one starting %q", c.scope, c.allow, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%q %v: %v", c.scope, c.allow, err)
		case c.err == "" && (got.SameSite != c.want.SameSite || got.NoPrivate != c.want.NoPrivate || strings.Join(got.Allow, ",") != strings.Join(c.want.Allow, ",")):
			t.Errorf("%q %v: %+v; want %+v", c.scope, c.allow, got, c.want)
		}
	}
}

// TestClientSettings: the client sends the User-Agent given, keeps to
// its scope, and a negative timeout is refused naming --timeout.
func TestClientSettings(t *testing.T) {
	if _, err := (ClientSettings{Timeout: -time.Second}).Client(); err == nil || !strings.HasPrefix(err.Error(), "--timeout -1s: give a time limit above 0") {
		t.Errorf("negative timeout: %v", err)
	}
	var ua string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ua = r.UserAgent() }))
	defer srv.Close()
	c, err := ClientSettings{UserAgent: "tester/1", Timeout: 30 * time.Second}.Client()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(context.Background(), srv.URL+"/", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Close()
	if ua != "tester/1" {
		t.Errorf("User-Agent %q; want tester/1", ua)
	}
	c, err = ClientSettings{Scope: Scope{NoPrivate: true}}.Client()
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := c.Get(context.Background(), srv.URL+"/", GetOptions{}); err == nil {
		resp.Close()
		t.Error("NoPrivate: a request to 127.0.0.1 went through")
	}
}
