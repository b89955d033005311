package indexnow

import (
	"context"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// URLs go out in the normal form generate publishes them in (L-18): a
// raw space or non-ASCII character, an upper-case host, the default port
// and a fragment would make the engine index another URL than the
// sitemap's, or refuse the batch. Each rewrite is reported at info level;
// a URL with no normal form is refused with its rule, and two spellings
// of one URL are sent once.
func TestSubmitsTheNormalForm(t *testing.T) {
	e := newEndpoint(t, nil)
	o := opts(t, e)
	var diags []sitemap.Diagnostic
	o.OnDiagnostic = func(d sitemap.Diagnostic) { diags = append(diags, d) }
	sum, err := Submit(context.Background(), list(
		"https://www.example.com/b c",
		"https://www.example.com/café",
		"https://WWW.Example.com:443/x#frag",
		"https://www.example.com/x",
		"https://www.example.com/ok",
		"https://www.example.com:99999/bad-port",
	), o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://www.example.com/b%20c", "https://www.example.com/caf%C3%A9", "https://www.example.com/x", "https://www.example.com/ok"}
	if got := e.urls(); !slices.Equal(got, want) {
		t.Errorf("sent %q, want %q", got, want)
	}
	if sum.Sent != 4 || sum.Duplicates != 1 || sum.Refused != 1 {
		t.Errorf("summary %+v", sum)
	}
	var l18, refused int
	for _, d := range diags {
		switch {
		case d.Rule == "L-18" && d.Severity == sitemap.SeverityInfo && strings.Contains(d.Message, "sent as"):
			l18++
		case d.Severity == sitemap.SeverityError && strings.Contains(d.URL, "bad-port") && strings.Contains(d.Message, "not sent"):
			refused++
		default:
			t.Errorf("unexpected diagnostic %v", d)
		}
	}
	if l18 != 3 || refused != 1 {
		t.Errorf("%d L-18 notes (want 3), %d refusals (want 1): %v", l18, refused, diags)
	}
}

// The host is compared and sent in its normal form too: --host
// bücher.example refused every URL of bücher.example (sent in punycode),
// and an upper-case host went into the body as given.
func TestHostNormalForm(t *testing.T) {
	for _, c := range []struct{ host, loc, want string }{
		{"Bücher.example", "https://bücher.example/a", "xn--bcher-kva.example"},
		{"WWW.EXAMPLE.COM", "https://www.example.com/a", "www.example.com"},
		{"https://www.example.com:443/", "https://www.example.com/a", "www.example.com"},
		{"www.example.com:8080", "https://www.example.com:8080/a", "www.example.com:8080"},
	} {
		e := newEndpoint(t, nil)
		o := opts(t, e)
		o.Host = c.host
		sum, err := Submit(context.Background(), list(c.loc), o)
		if err != nil {
			t.Fatal(err)
		}
		r := e.requests()
		if sum.Sent != 1 || len(r) != 1 || r[0].Body.Host != c.want {
			t.Errorf("--host %s: %+v, requests %+v; want host %s", c.host, sum, r, c.want)
		}
		if got := NormalHost(c.host); got != c.want {
			t.Errorf("NormalHost(%q) = %q, want %q", c.host, got, c.want)
		}
	}
}

// The key location is taken in its normal form too: one on bücher.example
// was "not on host" xn--bcher-kva.example.
func TestKeyLocationNormalForm(t *testing.T) {
	e := newEndpoint(t, nil)
	o := opts(t, e)
	o.Host, o.KeyLocation = "bücher.example", "https://Bücher.example/k/"+testKey+".txt"
	sum, err := Submit(context.Background(), list("https://bücher.example/k/a", "https://bücher.example/other"), o)
	if err != nil {
		t.Fatal(err)
	}
	r := e.requests()
	if sum.Sent != 1 || sum.Refused != 1 || len(r) != 1 || r[0].Body.KeyLocation != "https://xn--bcher-kva.example/k/"+testKey+".txt" {
		t.Errorf("%+v, requests %+v", sum, r)
	}
}
