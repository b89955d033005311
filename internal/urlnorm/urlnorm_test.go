package urlnorm

import (
	"net/url"
	"testing"
)

// TestNormalize covers each normalisation of the package comment (L-07,
// L-12: one spelling per page).
func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want string
		n        Normalizer
	}{
		{in: "HTTP://WWW.Example.COM/a", want: "http://www.example.com/a"},
		{in: "https://example.com", want: "https://example.com/"},
		{in: "https://example.com:443/x", want: "https://example.com/x"},
		{in: "http://example.com:80/x", want: "http://example.com/x"},
		{in: "http://example.com:8080/x", want: "http://example.com:8080/x"},
		{in: "https://example.com:80/x", want: "https://example.com:80/x"},
		{in: "https://example.com/a#frag", want: "https://example.com/a"},
		{in: "https://example.com/a/./b/../c", want: "https://example.com/a/c"},
		{in: "https://example.com/a/b/..", want: "https://example.com/a/"},
		{in: "https://example.com/../../x", want: "https://example.com/x"},
		{in: "https://example.com/%7euser/%41", want: "https://example.com/~user/A"},
		{in: "https://example.com/a%2fb", want: "https://example.com/a%2Fb"},
		{in: "https://example.com/a b", want: "https://example.com/a%20b"},
		{in: "https://example.com/ümlat.php", want: "https://example.com/%C3%BCmlat.php"},
		{in: "https://example.com/100%", want: "https://example.com/100%25"},
		{in: "https://bücher.example/", want: "https://xn--bcher-kva.example/"},
		{in: "https://example.com/p?b=2&a=1", want: "https://example.com/p?b=2&a=1"},
		{in: "https://example.com/p?", want: "https://example.com/p"},
		{in: "https://example.com/p?q=a%2cb", want: "https://example.com/p?q=a%2Cb"},
		{in: "https://example.com/p?x=1&utm=2", want: "https://example.com/p", n: Normalizer{Query: QueryStrip}},
		{in: "https://example.com/p?id=1&utm_source=x&page=2", want: "https://example.com/p?id=1&page=2", n: Normalizer{Query: QueryAllow, Allow: []string{"page", "id"}}},
		{in: "https://example.com/p?utm_source=x", want: "https://example.com/p", n: Normalizer{Query: QueryAllow, Allow: []string{"id"}}},
		{in: "https://[::1]:443/", want: "https://[::1]/"},
	}
	for _, tt := range tests {
		got, err := tt.n.Normalize(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		// Normalising is idempotent.
		if again, err := tt.n.Normalize(got); err != nil || again != got {
			t.Errorf("Normalize(%q) = %q, %v; not idempotent", got, again, err)
		}
	}
}

func TestNormalizeRejects(t *testing.T) {
	for _, in := range []string{"mailto:a@example.com", "/relative", "ftp://example.com/", "javascript:void(0)", "https:///x", "http://%zz/"} {
		if got, err := (Normalizer{}).Normalize(in); err == nil {
			t.Errorf("Normalize(%q) = %q; want an error (L-16)", in, got)
		}
	}
}

func TestResolve(t *testing.T) {
	base, _ := url.Parse("https://example.com/dir/page.html")
	tests := []struct{ ref, want string }{
		{"other", "https://example.com/dir/other"},
		{"../up", "https://example.com/up"},
		{"/abs?x=1#f", "https://example.com/abs?x=1"},
		{"//cdn.example.com/i.png", "https://cdn.example.com/i.png"},
		{"?q=1", "https://example.com/dir/page.html?q=1"},
	}
	for _, tt := range tests {
		got, err := (Normalizer{}).Resolve(base, tt.ref)
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.ref, got, err, tt.want)
		}
	}
}

func TestParseQuery(t *testing.T) {
	for _, bad := range []string{"allow=", "drop", "allow= , "} {
		if _, err := ParseQuery(bad); err == nil {
			t.Errorf("ParseQuery(%q): want error", bad)
		}
	}
	n, err := ParseQuery("allow=a, b")
	if err != nil || n.Query != QueryAllow || len(n.Allow) != 2 || n.Allow[1] != "b" {
		t.Errorf("ParseQuery(allow=a, b) = %+v, %v", n, err)
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"https://example.com/a/../b?x=%zz#f", "HTTP://X.COM:80/%7e", "https://bücher.example/ü ä", "http://[::1]:80/./."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalizer{}
		got, err := n.Normalize(s)
		if err != nil {
			return
		}
		again, err := n.Normalize(got)
		if err != nil || again != got {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", s, got, again, err)
		}
	})
}
