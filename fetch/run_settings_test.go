package fetch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		want time.Time
		err  bool
	}{
		{"2026-11-02", time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), false},
		{"2026-11-02T10:00:00Z", time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC), false},
		{"24h", now.Add(-24 * time.Hour), false},
		{"yesterday", time.Time{}, true},
		{"-5h", time.Time{}, true},
	} {
		got, err := parseSince(c.in, now)
		if (err != nil) != c.err || !got.Equal(c.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v (error %v)", c.in, got, err, c.want, c.err)
		}
	}
}

// validSettings are the defaults of `sitemap fetch`.
func validSettings() Settings {
	return Settings{Format: "txt", KnownPaths: "fallback", Concurrency: 8, PerHost: 4, MaxDepth: 5, MaxSitemaps: 10000,
		SitemapTimeout: 5 * time.Minute, IdleTimeout: 30 * time.Second, Attempts: 3, FullEvery: "10"}
}

// Every setting Check and RunOptions refuse is refused with its flag
// named; the defaults pass both.
func TestSettingsRefused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		change func(*Settings)
		start  string
		want   string // "" for none
	}{
		{func(*Settings) {}, "https://e.com/", ""},
		{func(s *Settings) { s.PerHost = 0 }, "https://e.com/", "--per-host 0: give 1 or more"},
		{func(s *Settings) { s.MaxURLs = -1 }, "https://e.com/", "--max-urls -1: give 0 (no limit) or more"},
		{func(s *Settings) { s.Timeout = -time.Second }, "https://e.com/", "--timeout -1s: give 0 (none) or more"},
		{func(s *Settings) { s.CacheDir = file }, "https://e.com/", "is a file; give a directory"},
		{func(s *Settings) { s.IdleTimeout = 0 }, "https://e.com/", "--idle-timeout 0s: give a time limit above 0"},
		{func(s *Settings) { s.DedupMemory = 1000 }, "https://e.com/", "--dedup-memory"},
		{func(s *Settings) { s.KnownPaths = "sometimes" }, "https://e.com/", "--known-paths:"},
		{func(s *Settings) { s.Base = "https://e.com/" }, "https://e.com/", "--base is for a local file"},
		{func(s *Settings) { s.Since, s.Tree = "24h", true }, "https://e.com/", "--since filters the URLs printed"},
		{func(s *Settings) { s.Since = "soon" }, "https://e.com/", `--since "soon"`},
		{func(s *Settings) { s.Changes, s.CacheDir = true, "c" }, "https://e.com/", "--cache is not used with it"},
		{func(s *Settings) { s.Changes = true }, "https://e.com/", "--changes and --state go together"},
		{func(s *Settings) { s.Changes, s.State = true, "s.db" }, "sitemap.xml", "--changes and --state go together"},
		{func(s *Settings) { s.Changes, s.State = true, "s.db" }, "https://e.com/", ""},
		{func(s *Settings) { s.TreeURLs = true }, "https://e.com/", "--urls lists each sitemap's URLs"},
		{func(*Settings) {}, "www.example.com", "no such file, nor an absolute http(s) URL; give a sitemap file or directory, or a homepage, robots.txt or sitemap URL (did you mean https://www.example.com/?)"},
		{func(*Settings) {}, "missing.xml", "missing.xml: no such file, nor an absolute http(s) URL; give a sitemap file or directory, or a homepage, robots.txt or sitemap URL"},
		{func(*Settings) {}, "-", ""},
	} {
		s := validSettings()
		c.change(&s)
		err := s.Check()
		if err == nil {
			_, err = s.RunOptions(c.start, time.Now())
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v %s: %v", s, c.start, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v %s: %v, want %q", s, c.start, err, c.want)
		case strings.HasSuffix(c.want, "sitemap URL") && strings.Contains(err.Error(), "did you mean"):
			t.Errorf("%s: a file name taken for a host name: %v", c.start, err)
		}
	}
}

// RunOptions carries every setting into the walk's options: 0
// --max-errors is the decoder's no limit.
func TestSettingsRunOptions(t *testing.T) {
	s := validSettings()
	s.MaxURLs, s.NoDedup, s.AllowOffSite, s.UserAgent, s.Since = 7, true, true, "ua/1", "24h"
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	o, err := s.RunOptions("https://e.com/", now)
	if err != nil {
		t.Fatal(err)
	}
	w := o.Options
	if w.MaxURLs != 7 || !w.NoDedup || !w.AllowOffSite || w.UserAgent != "ua/1" || w.Concurrency != 8 || w.PerHost != 4 ||
		w.KnownPaths != KnownPathsFallback || w.MaxErrors != -1 || !o.Since.Equal(now.Add(-24*time.Hour)) || o.Format != "txt" {
		t.Errorf("options %+v", o)
	}
}
