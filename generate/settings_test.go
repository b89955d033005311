package generate

import (
	"io"
	"strings"
	"testing"
)

// TestSettingsCheckURLs: a --base-url or --site-url the builder cannot
// use is refused by its flag before the input is read (it was the
// builder's "build: base URL … is not an absolute http(s) URL", after).
func TestSettingsCheckURLs(t *testing.T) {
	for _, c := range []struct {
		base, site, want string
	}{
		{"https://www.example.com/", "", ""},
		{"https://www.example.com/maps/", "https://www.example.com/", ""},
		{"ftp://www.example.com/", "", `--base-url "ftp://www.example.com/" is not an absolute http(s) URL`},
		{"www.example.com", "", `--base-url "www.example.com" is not an absolute http(s) URL`},
		{"https://www.example.com/", "https://www.exa mple.com/", `--site-url "https://www.exa mple.com/" is not an absolute http(s) URL`},
	} {
		s := Settings{BaseURL: c.base, SiteURL: c.site}
		err := s.Check(io.Discard)
		if (c.want == "") != (err == nil) || err != nil && !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("--base-url %q --site-url %q: %v, want %q", c.base, c.site, err, c.want)
		}
	}
}
