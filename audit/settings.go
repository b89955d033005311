package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/tmpdir"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Settings are an audit as a person gives it (the flags of `sitemap
// audit`, named alike): what [Settings.Run] audits, how, where its state
// lives and what it writes.
type Settings struct {
	// Site is where local sitemap files are served (Options.Site); ""
	// for a URL.
	Site string
	// Format is the records' output: "text" or "jsonl" ([NewOutput]).
	Format string
	// Report, when set, is the HTML report's file, written aside and
	// renamed into place once complete.
	Report string
	// Sample is Options.Sample: 0 audits every URL.
	Sample int
	// State is the state file (or postgres:// database) that makes the
	// run resumable; Resume, without State, keeps it at [StatePath].
	// With neither the state lives in a temporary directory for the run.
	State  string
	Resume bool
	// History is Options.History; it needs State or Resume.
	History bool
	// Crawl crawls from the homepage too, at most CrawlMaxPages pages
	// and CrawlMaxDepth links deep (0: no limit).
	Crawl                        bool
	CrawlMaxPages, CrawlMaxDepth int
	// Concurrency (at least 1) and Rate (0: no limit) are the requests'
	// (Options); Timeout bounds one request of the crawl.
	Concurrency int
	Rate        float64
	Timeout     time.Duration
	// MaxErrors abandons a sitemap after that many errors (0: no cap).
	MaxErrors int
}

// Check refuses, before any request, settings that cannot work together
// for an audit of names (one http(s) URL, or local files with Site). An
// error names the setting as its flag (--sample) and says what to give.
func (s Settings) Check(names []string) error {
	switch {
	case s.Format != "text" && s.Format != "jsonl":
		return fmt.Errorf("--format %q: want text or jsonl", s.Format)
	case s.Concurrency < 1:
		return errors.New("--concurrency must be at least 1")
	case s.Sample < 0:
		return errors.New("--sample must be 0 (every URL) or more")
	case s.History && s.State == "" && !s.Resume:
		return errors.New("--history compares with earlier runs: give --state FILE (or --resume) to keep them")
	case s.Rate < 0:
		return fmt.Errorf("--rate %v: give 0 (no limit) or more requests a second", s.Rate)
	case s.CrawlMaxPages < 0:
		return fmt.Errorf("--crawl-max-pages %d: give 0 (no limit) or more", s.CrawlMaxPages)
	case s.CrawlMaxDepth < 0:
		return fmt.Errorf("--crawl-max-depth %d: give 0 (no limit) or more", s.CrawlMaxDepth)
	case s.Site != "" && !urlnorm.IsHTTP(s.Site):
		return fmt.Errorf("--site %q is not an http(s) URL; give where the files are served, e.g. https://www.example.com/", s.Site)
	}
	if len(names) == 1 && urlnorm.IsHTTP(names[0]) {
		if s.Site != "" {
			return errors.New("--site is for local sitemap files; a URL is served where it is")
		}
		return nil
	}
	for _, in := range names {
		if urlnorm.IsHTTP(in) {
			return fmt.Errorf("%s: audit one URL (a homepage, robots.txt or sitemap) or local files, not both", in)
		}
	}
	if err := input.CheckLocal(names); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%v, nor an http(s) URL; give a homepage, a sitemap URL or sitemap files with --site", err)
	} else if err != nil {
		return err
	}
	if s.Crawl && s.Site == "" {
		return errors.New("--crawl of local sitemaps needs --site URL: the homepage the crawl starts at")
	}
	return nil
}

// Options are the Options s sets, but for HTTP, Stdin and the callbacks,
// which are the caller's: Rate 0 is no limit, MaxErrors 0 no cap, and
// with Crawl the crawl's own Options (its store and log are the
// caller's too).
func (s Settings) Options() Options {
	o := Options{Concurrency: s.Concurrency, Rate: s.Rate, Sample: s.Sample, Site: s.Site, History: s.History, MaxErrors: sitemap.MaxErrorsFlag(s.MaxErrors)}
	if s.Rate == 0 {
		o.Rate = -1
	}
	if s.Crawl {
		o.Crawl = &crawl.Options{MaxPages: s.CrawlMaxPages, MaxDepth: s.CrawlMaxDepth, Rate: o.Rate, Concurrency: s.Concurrency, Timeout: s.Timeout}
	}
	return o
}

// A RunState is where a run keeps its state ([Settings.StateFile]).
type RunState struct {
	// Path is the file (or postgres:// database) to open.
	Path string
	// Created says the file did not exist before the run: a run that
	// fails at once removes it (Discard).
	Created bool
	// Note, when not "", tells where a state kept for --resume is.
	Note string
	// Release removes a temporary state (never nil).
	Release func()
}

// StateFile is where the run of names keeps its state: State; with
// Resume the audit's file in the user's state directory ([StatePath],
// its target written beside it, [KeepStateTarget]); else a file in a
// temporary directory Release removes (a killed run's is removed by the
// next audit). The directory of a named or kept file is created.
func (s Settings) StateFile(names []string) (RunState, error) {
	r := RunState{Release: func() {}}
	switch {
	case s.State != "":
		r.Path = s.State
	case s.Resume:
		p, err := StatePath(s.Site, names)
		if err != nil {
			return r, fmt.Errorf("the audit state has no default place: %v; give --state FILE", err)
		}
		r.Path = p
		r.Note = fmt.Sprintf("audit state: %s (--state FILE, or %s, to keep it elsewhere; --forget removes it)", p, state.DirEnv)
	default:
		dir, release, err := tmpdir.Make("", "sitemap-audit-*")
		if err != nil {
			return r, fmt.Errorf("audit state: %v", err)
		}
		return RunState{Path: filepath.Join(dir, "audit.db"), Created: true, Release: release}, nil
	}
	if state.IsPostgres(r.Path) {
		return r, nil
	}
	_, serr := os.Stat(r.Path)
	r.Created = errors.Is(serr, fs.ErrNotExist)
	if err := os.MkdirAll(filepath.Dir(r.Path), 0o755); err != nil {
		return r, fmt.Errorf("--state %s: %v", r.Path, err)
	}
	if s.Resume && s.State == "" {
		if err := KeepStateTarget(r.Path, s.Site, names); err != nil {
			return r, fmt.Errorf("audit state: %v", err)
		}
	}
	return r, nil
}
