package diff

import (
	"context"
	"errors"
	"fmt"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// OpenOptions configures [Open].
type OpenOptions struct {
	// Stdin is read for the name "-".
	Stdin io.Reader
	// Base is where local files are served (a directory URL ending in
	// "/", or the file's URL): it maps an index's child locs to files
	// below the index's directory, and tells which children are on
	// another site (see package input).
	Base string
	// AllowOffSite follows the children of an index on another scheme,
	// host or port than the index (I-05; reported either way).
	AllowOffSite bool
	// Decoder holds the caps for local documents (Name and OnDiagnostic
	// are set by Open).
	Decoder sitemap.DecoderOptions
	// Client requests http(s) inputs and their children (nil: one with
	// the defaults).
	Client *fetch.Client
	// OnDiagnostic receives every problem seen while reading (may be nil).
	OnDiagnostic func(sitemap.Diagnostic)
}

func (o OpenOptions) diag(d sitemap.Diagnostic) {
	if o.OnDiagnostic != nil {
		o.OnDiagnostic(d)
	}
}

// ErrNoSitemap is wrapped by the error of a side given as a URL where
// discovery found no sitemap (FETCH-NONE): a problem found, as in fetch.
var ErrNoSitemap = errors.New("no sitemap found")

// IsURL reports whether name is an http(s) URL ([urlnorm.IsHTTP]).
func IsURL(name string) bool { return urlnorm.IsHTTP(name) }

// Open returns the entries of one side of a diff, named as on the command
// line, read through the one walk of the module (input.Entries; an
// http(s) side eight sitemaps at a time):
//
//   - "-": standard input, one document (any format the decoder reads, or
//     JSONL entry records). It is read once: name it on one side only (a
//     second side of "-" reads it empty, and the diff shows every entry
//     removed; `sitemap diff` refuses "-" twice).
//   - an http(s) URL: a sitemap, an index and its children (depth 1, I-10),
//     a robots.txt or a homepage (discovery as fetch.Walk does it).
//   - a directory: every *.xml, *.xml.gz and *.txt file in it (not
//     robots.txt), in name order. An index among them does not read its
//     children that are files of the directory again (they are read in
//     turn); its other children (in subdirectories, say) are read.
//   - a file: a sitemap, or an index whose children are read from the
//     files below it by package input's rule (the loc's path under the
//     index's URL directory, from Base, or else its last segment beside
//     the index); a JSONL file of entry records (*.jsonl, *.ndjson, or
//     content starting with '{').
//
// A child of an index on another site than the index is not read (I-05,
// reported) unless AllowOffSite. A document that cannot be read to its
// end (missing, truncated, not a sitemap, HTTP error) stops the side with
// an error: a partial side would show false removals. A child sitemap
// that cannot be read is an [*input.ChildError]; a URL where no sitemap
// is found wraps [ErrNoSitemap]. Problems inside
// documents go to OnDiagnostic and reading goes on.
func Open(name string, o OpenOptions) Entries {
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		none := false // a URL where discovery found no sitemap (FETCH-NONE)
		in := input.Options{
			// An index and its children (depth 2, I-10), each entry as
			// listed (Diff counts duplicates itself, in bounded memory).
			Base: o.Base, Stdin: o.Stdin, Client: o.Client, Follow: true, MaxDepth: 1, AllowOffSite: o.AllowOffSite,
			JSONL: true, Complete: true, Decoder: o.Decoder,
			OnDiagnostic: func(d sitemap.Diagnostic) {
				none = none || d.Rule == rules.FetchNone
				o.diag(d)
			},
		}
		if IsURL(name) {
			in.Concurrency = 8
		}
		err := input.Entries([]string{name}, in)(ctx, yield)
		if err == nil && none {
			return fmt.Errorf("%s: %w", name, ErrNoSitemap)
		}
		return err
	}
}
