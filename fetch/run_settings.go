package fetch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Settings are the options of [Run] as a person gives them (the flags of
// `sitemap fetch`, named alike): every count and time limit explicit,
// where Options reads 0 as its default; the well-known paths, --since
// and --full-every as text. [Settings.Check] and [Settings.RunOptions]
// check them.
type Settings struct {
	// Format, Tree, TreeURLs, Quiet and Verbose are those of RunOptions.
	Format         string
	Tree, TreeURLs bool
	Quiet, Verbose bool
	// KnownPaths is never, fallback or always (ParseKnownPaths).
	KnownPaths string
	// Base is the URL a local start is served at, to find an index's
	// children (input.Options.Base); a start that is a URL takes none.
	Base string
	// Concurrency, PerHost, MaxDepth, MaxSitemaps and Attempts are at
	// least 1; MaxURLs, MaxBytes and Timeout 0 (no limit) or more;
	// SitemapTimeout and IdleTimeout above 0 (those of Options).
	Concurrency, PerHost, MaxDepth, MaxSitemaps, Attempts int
	MaxURLs, MaxBytes                                     int64
	Timeout, SitemapTimeout, IdleTimeout                  time.Duration
	// CacheDir, AllowOffSite, NoDedup, UserAgent and Scope are those of
	// Options; DedupMemory too, at least 1 MiB (seen.Memory.Check; 0 for
	// DefaultDedupMemory).
	CacheDir     string
	AllowOffSite bool
	NoDedup      bool
	DedupMemory  int64
	UserAgent    string
	Scope        Scope
	// MaxErrors abandons a document after that many errors (0: no limit).
	MaxErrors int
	// Since prints only entries whose lastmod is after it: a time, a date
	// or a duration before now (2026-11-02, RFC 3339, 24h).
	Since string
	// Changes prints what changed since the last run recorded in State
	// (a file or a postgres:// database; package diff's RunChanges), with
	// every child read again every FullEvery runs or after a duration
	// (10, 168h). Changes and State go together, with an http(s) start.
	Changes          bool
	State, FullEvery string
}

// Check refuses a count or time limit the help gives no meaning (Options
// would take its default instead, without a word): the counts at least
// 1, MaxURLs, MaxBytes and Timeout 0 (none) or more, the per-sitemap
// time limits above 0, and a CacheDir that is a file. An error names the
// setting as its flag (--per-host 0: give 1 or more).
func (s Settings) Check() error {
	for _, c := range []struct {
		flag string
		n    int
	}{{"--concurrency", s.Concurrency}, {"--per-host", s.PerHost}, {"--max-depth", s.MaxDepth},
		{"--max-sitemaps", s.MaxSitemaps}, {"--attempts", s.Attempts}} {
		if c.n < 1 {
			return fmt.Errorf("%s %d: give 1 or more", c.flag, c.n)
		}
	}
	for _, c := range []struct {
		flag string
		n    int64
	}{{"--max-urls", s.MaxURLs}, {"--max-bytes", s.MaxBytes}} {
		if c.n < 0 {
			return fmt.Errorf("%s %d: give 0 (no limit) or more", c.flag, c.n)
		}
	}
	if s.Timeout < 0 {
		return fmt.Errorf("--timeout %v: give 0 (none) or more", s.Timeout)
	}
	if s.CacheDir != "" {
		if fi, err := os.Stat(s.CacheDir); err == nil && !fi.IsDir() {
			return fmt.Errorf("--cache %s is a file; give a directory (made when missing)", s.CacheDir)
		}
	}
	for _, c := range []struct {
		flag string
		d    time.Duration
	}{{"--sitemap-timeout", s.SitemapTimeout}, {"--idle-timeout", s.IdleTimeout}} {
		if c.d <= 0 {
			return fmt.Errorf("%s %v: give a time limit above 0, such as 30s", c.flag, c.d)
		}
	}
	return nil
}

// RunOptions checks the settings that go with start (a URL, or a local
// file, directory or "-") and returns the RunOptions they set: Since
// read against now (a duration before it), the walk's caps, the
// deduplication and the decoder's errors. For a local start, a file that
// does not exist is refused; the caller sets Options.Getter. With
// Changes it checks only what fetch --changes takes (Since, Quiet and
// Verbose and the walk's Options: package diff's ChangesRunOptions).
// An error names the flag and says what to give instead.
func (s Settings) RunOptions(start string, now time.Time) (RunOptions, error) {
	var o RunOptions
	if err := seen.Memory(s.DedupMemory).Check("--dedup-memory", DefaultDedupMemory); err != nil {
		return o, err
	}
	kp, err := ParseKnownPaths(s.KnownPaths)
	if err != nil {
		return o, fmt.Errorf("--known-paths: %v", err)
	}
	local := !urlnorm.IsHTTP(start)
	if !local && s.Base != "" {
		return o, fmt.Errorf("--base is for a local file or directory; %s is a URL", start)
	}
	if s.Since != "" {
		if s.Tree {
			return o, errors.New("--since filters the URLs printed; --tree prints documents: give one of them")
		}
		if o.Since, err = parseSince(s.Since, now); err != nil {
			return o, err
		}
	}
	o.Format, o.Tree, o.TreeURLs, o.Quiet, o.Verbose = s.Format, s.Tree, s.TreeURLs, s.Quiet, s.Verbose
	w := &o.Options
	w.UserAgent, w.Scope, w.KnownPaths, w.CacheDir, w.AllowOffSite = s.UserAgent, s.Scope, kp, s.CacheDir, s.AllowOffSite
	w.Concurrency, w.PerHost, w.MaxDepth, w.MaxSitemaps, w.Attempts = s.Concurrency, s.PerHost, s.MaxDepth, s.MaxSitemaps, s.Attempts
	w.MaxURLs, w.MaxBytes, w.Timeout, w.SitemapTimeout, w.IdleTimeout = s.MaxURLs, s.MaxBytes, s.Timeout, s.SitemapTimeout, s.IdleTimeout
	w.NoDedup, w.DedupMemory, w.MaxErrors = s.NoDedup, s.DedupMemory, sitemap.MaxErrorsFlag(s.MaxErrors)
	switch {
	case s.Changes && s.CacheDir != "":
		return o, errors.New("--changes keeps its validators in --state; --cache is not used with it: leave it out")
	case s.Changes || s.State != "":
		if !s.Changes || s.State == "" || local || s.Tree {
			return o, errors.New("--changes and --state go together, with an http(s) START and without --tree: " +
				"sitemap fetch --changes --state FILE https://www.example.com/")
		}
		return o, nil
	}
	if err := o.Check(); err != nil {
		return o, err
	}
	if local {
		return o, localStart(start)
	}
	return o, nil
}

// parseSince reads the time of --since: an RFC 3339 time or a W3C
// Datetime (a date: 2026-11-02, midnight UTC), or a duration before now
// (24h, 90m).
func parseSince(s string, now time.Time) (time.Time, error) {
	if d, err := sitemap.ParseDate(s); err == nil {
		return d.Time, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	return time.Time{}, fmt.Errorf("--since %q: give a time (2026-11-02T10:00:00Z), a date (2026-11-02) or a duration before now (24h)", s)
}

// HTTPOnlyFlags are the flags of `sitemap fetch` that only reading over
// HTTP uses (Settings' KnownPaths, Concurrency, PerHost, IdleTimeout,
// Attempts and CacheDir).
func HTTPOnlyFlags() []string {
	return []string{"known-paths", "concurrency", "per-host", "idle-timeout", "attempts", "cache"}
}

// WarnLocal says on w that the flags given (of [HTTPOnlyFlags], with
// their dashes) do nothing for the local start: said, not silently
// ignored, as the person may think they apply. Nothing for none.
func WarnLocal(w io.Writer, start string, given []string) {
	if len(given) == 0 {
		return
	}
	verb, they := "have", "they apply"
	if len(given) == 1 {
		verb, they = "has", "it applies"
	}
	fmt.Fprintf(w, "sitemap: warning: %s %s no effect on a local %s; %s only when reading over HTTP\n", strings.Join(given, ", "), verb, start, they)
}

// localStart refuses a local start that does not exist, saying what
// fetch reads (and the https:// a host name lacks).
func localStart(start string) error {
	if start == "-" {
		return nil
	}
	if _, err := os.Stat(start); errors.Is(err, fs.ErrNotExist) {
		msg := start + ": no such file, nor an absolute http(s) URL; give a sitemap file or directory, or a homepage, robots.txt or sitemap URL"
		if !strings.ContainsAny(start, `/\`) && strings.Contains(start, ".") && !fileExt(start) {
			msg += " (did you mean https://" + start + "/?)"
		}
		return errors.New(msg)
	}
	return nil
}

// fileExt reports whether name ends in the extension of a file the
// commands read or write (sitemap.xml, urls.txt, old.jsonl): a missing
// file of that name, not a host name without its https://.
func fileExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xml", ".gz", ".txt", ".jsonl", ".json", ".csv", ".tsv", ".html", ".htm", ".zst", ".bz2", ".xz", ".zip":
		return true
	}
	return false
}
