package validate

import (
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/report"
)

// TestSettingsRunOptions: every setting a person can get wrong is an
// error naming its flag; good ones set the options Run reads.
func TestSettingsRunOptions(t *testing.T) {
	good := Settings{Format: "text", MaxChildren: 1000, MaxPerRule: 20}
	for _, c := range []struct {
		name  string
		edit  func(*Settings)
		names []string
		err   string
	}{
		{"format", func(s *Settings) { s.Format = "xml" }, nil, `"xml"`},
		{"now", func(s *Settings) { s.Now = "yesterday" }, nil, `--now "yesterday": want RFC 3339`},
		{"max-children", func(s *Settings) { s.MaxChildren = -1 }, nil, "--max-children must not be negative"},
		{"trusted-host", func(s *Settings) { s.TrustedHosts = []string{"https://cdn.example.com/"} }, nil, "cdn.example.com"},
		{"base", func(s *Settings) { s.Base = "https://a.example/" }, []string{"https://a.example/s.xml"}, "--base is for local files"},
		{"timeout", func(s *Settings) { s.Client.Timeout = -time.Second }, nil, "--timeout -1s"},
	} {
		s := good
		c.edit(&s)
		if _, err := s.RunOptions(c.names, nil); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.err)
		}
	}
	s := good
	s.Now, s.MaxChildren, s.MaxErrors, s.Base = "2026-11-22", 0, 0, "https://a.example/"
	s.Client.Scope = fetch.Scope{SameSite: true}
	ro, err := s.RunOptions([]string{"s.xml"}, strings.NewReader(""))
	switch {
	case err != nil:
		t.Fatal(err)
	case ro.Now.Format(time.DateOnly) != "2026-11-22", ro.Input.MaxChildren != -1, ro.Decoder.MaxErrors != -1:
		t.Errorf("Now %v, MaxChildren %d, MaxErrors %d; want 2026-11-22, -1 (none), -1 (no limit)", ro.Now, ro.Input.MaxChildren, ro.Decoder.MaxErrors)
	case ro.Input.Client == nil, ro.Input.Stdin == nil, ro.Input.Base != s.Base:
		t.Errorf("Input %+v: want the client, stdin and base", ro.Input)
	}
}

func TestRunSummaryVerdict(t *testing.T) {
	for _, c := range []struct {
		sum            RunSummary
		failed, strict bool
		unread         string
	}{
		{RunSummary{}, false, false, ""},
		{RunSummary{Reported: report.Tally{Warnings: 1}}, false, true, ""},
		{RunSummary{Reported: report.Tally{Errors: 1}}, true, true, ""},
		{RunSummary{Unopened: 1}, false, false, "1 input could not be read (the error above)"},
		{RunSummary{Unopened: 2}, false, false, "2 inputs could not be read (the errors above)"},
	} {
		if got := c.sum.Failed(false); got != c.failed {
			t.Errorf("%+v: Failed(false) = %v", c.sum, got)
		}
		if got := c.sum.Failed(true); got != c.strict {
			t.Errorf("%+v: Failed(true) = %v", c.sum, got)
		}
		if got := c.sum.Unread(); got != c.unread {
			t.Errorf("%+v: Unread() = %q; want %q", c.sum, got, c.unread)
		}
	}
}
