package diff

import (
	"context"
	"errors"
	"fmt"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
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
	// Fetch configures reading http(s) inputs. Open sets NoDedup (Diff
	// counts duplicates itself, in bounded memory), AllowOffSite and,
	// when zero, MaxDepth 2: a sitemap index and its children (I-10).
	Fetch fetch.Options
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
// line:
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
		if IsURL(name) {
			return walkURL(ctx, name, o, yield)
		}
		return input.Entries([]string{name}, input.Options{
			// An index and its children, as walkURL reads a URL (depth 2).
			Base: o.Base, Stdin: o.Stdin, Follow: true, MaxDepth: 1, AllowOffSite: o.AllowOffSite,
			JSONL: true, Complete: true, Decoder: o.Decoder, OnDiagnostic: o.OnDiagnostic,
		})(ctx, yield)
	}
}

// walkURL reads an http(s) input with fetch.Walk.
func walkURL(ctx context.Context, start string, o OpenOptions, yield func(*sitemap.URL) error) error {
	fo := o.Fetch
	fo.NoDedup = true
	fo.AllowOffSite = o.AllowOffSite
	if fo.MaxDepth == 0 {
		fo.MaxDepth = 2
	}
	var failed []string
	sum, err := fetch.Walk(ctx, start, fo, func(e fetch.Event) error {
		switch e.Kind {
		case fetch.EventURL:
			return yield(e.URL)
		case fetch.EventDiagnostic:
			o.diag(*e.Diagnostic)
		case fetch.EventNodeEnd:
			if e.Node != nil && e.Node.Failed && e.Node.Kind == fetch.NodeSitemap {
				failed = append(failed, fmt.Sprintf("%s: %s", e.Node.URL, e.Node.Err))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if sum.StartErr != nil {
		// The input itself cannot be read (an HTTP error, a network
		// failure): not a child, the run could not start.
		return fmt.Errorf("could not read %s: %v", start, sum.StartErr)
	}
	if len(failed) > 0 {
		more := ""
		if len(failed) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(failed)-1)
		}
		return &input.ChildError{Err: fmt.Errorf("could not read %s%s", failed[0], more)}
	}
	if sum.Sitemaps == 0 {
		return fmt.Errorf("%s: %w", start, ErrNoSitemap)
	}
	return nil
}
