package diff

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
)

// Settings are the options of [Run] as a person gives them (the flags of
// `sitemap diff`, named alike). RunOptions checks them.
type Settings struct {
	// Client is how http(s) sides are requested (--user-agent, --timeout,
	// the scope).
	Client fetch.ClientSettings
	// Format is RunOptions.Format, one of [Formats].
	Format string
	// Ignore names fields not compared, each one of [Fields].
	Ignore []string
	// TempDir is Options.TempDir: an existing directory, or "" for the
	// system's.
	TempDir string
	// Base and AllowOffSite are those of OpenOptions.
	Base         string
	AllowOffSite bool
	// MaxErrors abandons a document after that many errors (0: no limit;
	// sitemap.MaxErrorsFlag).
	MaxErrors int
}

// RunOptions checks s for the sides old and new and returns the
// RunOptions it sets, reading "-" from stdin and http(s) sides through
// the Client of s.Client. An error names the setting as its flag
// (--ignore) and says what to give instead.
func (s Settings) RunOptions(old, new string, stdin io.Reader) (RunOptions, error) {
	ro := RunOptions{Format: s.Format, Options: Options{TempDir: s.TempDir, Ignore: s.Ignore}}
	if _, err := NewWriter(io.Discard, s.Format); err != nil {
		return ro, err
	}
	for _, f := range s.Ignore {
		if !slices.Contains(Fields, f) {
			return ro, fmt.Errorf("--ignore %q: not a field; want one of %s", f, strings.Join(Fields, ", "))
		}
	}
	if old == "-" && new == "-" {
		return ro, errors.New("OLD and NEW cannot both be standard input")
	}
	if err := input.CheckBase(s.Base, []string{old, new}); err != nil {
		return ro, err
	}
	if s.TempDir != "" {
		if fi, err := os.Stat(s.TempDir); err != nil || !fi.IsDir() {
			return ro, fmt.Errorf("--tmp-dir %s: no such directory; give an existing directory for the sort files", s.TempDir)
		}
	}
	client, err := s.Client.Client()
	if err != nil {
		return ro, err
	}
	ro.Open = OpenOptions{Stdin: stdin, Base: s.Base, AllowOffSite: s.AllowOffSite, Client: client,
		Decoder: sitemap.DecoderOptions{MaxErrors: sitemap.MaxErrorsFlag(s.MaxErrors)}}
	return ro, nil
}
