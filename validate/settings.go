package validate

import (
	"errors"
	"fmt"
	"io"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/report"
)

// Settings are the options of [Run] as a person gives them (the flags of
// `sitemap validate`, named alike): the time as text, 0 for none where
// the options read 0 as their default. RunOptions checks them.
type Settings struct {
	// Client is how http(s) inputs are requested (--user-agent, --timeout,
	// the scope).
	Client fetch.ClientSettings
	// Format is RunOptions.Format: text, json or jsonl.
	Format string
	// Strict counts warnings as errors ([RunSummary.Failed]).
	Strict bool
	// Base is input.Options.Base (--base).
	Base string
	// Now is Options.Now as RFC 3339 or YYYY-MM-DD ("": the time of the
	// check).
	Now string
	// CrossSubmit and TrustedHosts are those of Options.
	CrossSubmit  bool
	TrustedHosts []string
	// NoChildren is TreeOptions.NoChildren.
	NoChildren bool
	// MaxChildren is the most children of one index checked (0: none;
	// not negative).
	MaxChildren int
	// MaxPerRule is RunOptions.MaxPerRule.
	MaxPerRule int
	// MaxErrors abandons a document after that many errors (0: no limit;
	// sitemap.MaxErrorsFlag).
	MaxErrors int
}

// RunOptions checks s for the inputs names (a Base is for local files)
// and returns the RunOptions it sets, reading "-" from stdin and http(s)
// inputs through the Client of s.Client. An error names the setting as
// its flag (--now) and says what to give instead; Progress is left to
// the caller.
func (s Settings) RunOptions(names []string, stdin io.Reader) (RunOptions, error) {
	ro := RunOptions{Format: s.Format, MaxPerRule: s.MaxPerRule}
	if err := input.CheckBase(s.Base, names); err != nil {
		return ro, err
	}
	if _, err := report.New(io.Discard, s.Format, s.MaxPerRule); err != nil { // said first
		return ro, err
	}
	now, err := ParseNow(s.Now)
	if err != nil {
		return ro, err
	}
	if s.MaxChildren < 0 {
		return ro, errors.New("--max-children must not be negative")
	}
	for _, h := range s.TrustedHosts {
		if err := CheckTrustedHost(h); err != nil {
			return ro, err
		}
	}
	client, err := s.Client.Client()
	if err != nil {
		return ro, err
	}
	maxChildren := s.MaxChildren
	if maxChildren == 0 {
		maxChildren = -1 // none: a negative MaxChildren checks no child
	}
	ro.TreeOptions = TreeOptions{
		Options: Options{CrossSubmit: s.CrossSubmit, TrustedHosts: s.TrustedHosts, Now: now,
			Decoder: sitemap.DecoderOptions{MaxErrors: sitemap.MaxErrorsFlag(s.MaxErrors)}},
		Input:      input.Options{Base: s.Base, Stdin: stdin, MaxChildren: maxChildren, Client: client},
		NoChildren: s.NoChildren,
	}
	return ro, nil
}

// ParseNow reads a time to judge by as --now gives it: RFC 3339
// (2026-11-22T12:00:00Z) or YYYY-MM-DD; "" is the zero Time (Options.Now:
// the time of the check). Anything else is an error saying the forms.
func ParseNow(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	d, err := sitemap.ParseDate(s)
	if err != nil {
		return time.Time{}, fmt.Errorf("--now %q: want RFC 3339 (2026-11-22T12:00:00Z) or YYYY-MM-DD", s)
	}
	return d.Time, nil
}

// Failed reports whether the run found problems: an error, or with
// strict (--strict) a warning.
func (s RunSummary) Failed(strict bool) bool {
	return s.Reported.Errors > 0 || strict && s.Reported.Warnings > 0
}

// Unread says, when inputs could not be opened, how many, pointing at
// the errors Run said about them ("2 inputs could not be read (the
// errors above)"); "" when every input was opened.
func (s RunSummary) Unread() string {
	if s.Unopened == 0 {
		return ""
	}
	return fmt.Sprintf("%s could not be read (the %s above)", plural.Of(s.Unopened, "input", "inputs"), map[bool]string{true: "error", false: "errors"}[s.Unopened == 1])
}
