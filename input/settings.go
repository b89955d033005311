package input

import (
	"errors"
	"fmt"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/source"
)

// ReadSettings are the Options of a command that reads sitemap trees
// (`sitemap parse`, `graph`, `html`) as a person gives them, named like
// its flags: MaxChildren 0 reads no children, MaxErrors 0 has no limit.
type ReadSettings struct {
	// Base is where local inputs are served (Options.Base).
	Base string
	// MaxChildren is the most children of one index read (0: none).
	MaxChildren  int
	AllowOffSite bool
	// Quiet prints only the errors among the diagnostics.
	Quiet bool
	// MaxErrors abandons a document after that many errors (0: no
	// limit; sitemap.MaxErrorsFlag).
	MaxErrors int
}

// Options returns the Options s sets: http(s) inputs read through
// client, "-" from stdin, an index's children with follow, every
// diagnostic to diag (may be nil).
func (s ReadSettings) Options(client *fetch.Client, stdin io.Reader, follow bool, diag func(sitemap.Diagnostic)) Options {
	in := Options{
		Base: s.Base, Stdin: stdin, Follow: follow, MaxChildren: s.MaxChildren, AllowOffSite: s.AllowOffSite,
		Client: client, Decoder: sitemap.DecoderOptions{MaxErrors: sitemap.MaxErrorsFlag(s.MaxErrors)}, OnDiagnostic: diag,
	}
	if s.MaxChildren == 0 {
		in.MaxChildren = -1 // none
	}
	return in
}

// ParseSettings are the options of [Parse] as `sitemap parse` takes
// them, named like its flags.
type ParseSettings struct {
	ReadSettings
	// Format is jsonl, csv or txt (ParseOptions.Format).
	Format string
	// Follow prints the URLs of an index's children instead of its
	// entries.
	Follow bool
	// MaxPerRule is the most diagnostics of one rule printed per
	// document (0: all).
	MaxPerRule int
}

// Check refuses settings Parse cannot take, an error naming the flag: a
// Format the output does not have (said before any other), a negative
// MaxChildren or MaxPerRule.
func (s ParseSettings) Check() error {
	if _, err := source.NewWriter(io.Discard, source.WriterOptions{Format: s.Format}); err != nil {
		return err
	}
	if s.MaxChildren < 0 {
		return fmt.Errorf("--max-children %d: give 0 or more", s.MaxChildren)
	}
	if s.MaxPerRule < 0 {
		return errors.New("--max-per-rule must not be negative (0 shows every diagnostic)")
	}
	return nil
}

// ParseOptions returns the ParseOptions s sets (see
// [ReadSettings.Options]); Progress is the caller's.
func (s ParseSettings) ParseOptions(client *fetch.Client, stdin io.Reader) ParseOptions {
	return ParseOptions{Options: s.Options(client, stdin, s.Follow, nil), Format: s.Format, Quiet: s.Quiet, MaxPerRule: s.MaxPerRule}
}
