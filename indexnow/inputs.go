package indexnow

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/source"
)

// Inputs is what `sitemap submit INPUT...` sends: the entries of every
// input in the order given. A change list (`sitemap diff --format jsonl`;
// [IsChanges]) is read by [Changes]; a sitemap or index (XML, local or
// http(s), told by its bytes: input.IsSitemapHead) through package input
// with its children; any other local file (a URL list, CSV or JSONL entry
// records) through package source, as `sitemap generate` reads it. A
// site's homepage or robots.txt URL (input.IsSiteStart) stands for the
// sitemaps found there (input.Discover). The key file of key, when a
// directory given holds it, is not read.
//
// o says how inputs are read: o.Stdin is what "-" reads (default
// os.Stdin), o.OnDiagnostic is told every problem (the reader's, a
// record refused: an error; a source's remark: a warning). The names are
// resolved (and sites discovered) before Inputs returns; its error is
// that of input.Resolve or input.Discover.
func Inputs(ctx context.Context, names []string, key string, o input.Options) (sitemap.Entries, error) {
	if o.Stdin == nil {
		o.Stdin = os.Stdin
	}
	stdin := bufio.NewReaderSize(o.Stdin, 64<<10)
	o.Stdin = stdin
	diag := func(d sitemap.Diagnostic) {
		if o.OnDiagnostic != nil {
			o.OnDiagnostic(d)
		}
	}
	var found []string
	for _, n := range names {
		if !input.IsSiteStart(n) {
			found = append(found, n)
			continue
		}
		sitemaps, err := input.Discover(ctx, n, o, o.OnDiagnostic)
		if err != nil {
			return nil, err
		}
		found = append(found, sitemaps...)
	}
	docs, err := input.Resolve(found, o)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, yield func(*sitemap.URL) error) error {
		var run []input.Doc // sitemaps read together: an index and its sibling files
		for i := range docs {
			d := &docs[i]
			if d.Path != "" && filepath.Base(d.Path) == KeyFileName(key) {
				continue
			}
			if d.IsHTTP() {
				run = append(run, *d)
				continue
			}
			var br *bufio.Reader
			var closer io.Closer
			if d.Stdin {
				br = stdin
			} else {
				f, err := input.Open(ctx, d, o)
				if err != nil {
					return err
				}
				closer = f
				br = bufio.NewReaderSize(f, 64<<10)
			}
			head, _ := br.Peek(64 << 10)
			if input.IsSitemapHead(head) {
				if closer != nil {
					closer.Close() // read again by package input
				}
				run = append(run, *d)
				continue
			}
			err := input.DocEntries(run, o)(ctx, yield)
			run = nil
			if err == nil {
				err = entryList(ctx, br, head, d, diag, yield)
			}
			if closer != nil {
				closer.Close()
			}
			if err != nil {
				return err
			}
		}
		return input.DocEntries(run, o)(ctx, yield)
	}, nil
}

// entryList yields the entries of a document that is not a sitemap: a
// change list, or entry records read by package source.
func entryList(ctx context.Context, br *bufio.Reader, head []byte, d *input.Doc, diag func(sitemap.Diagnostic), yield func(*sitemap.URL) error) error {
	if IsChanges(head) {
		return Changes(br, d.Name, diag)(ctx, yield)
	}
	name := d.Name
	if d.Stdin {
		name = input.StdinName
	}
	warn := func(e *source.Error) { diag(e.WithSeverity(sitemap.SeverityWarning)) }
	src, err := source.New(br, source.Options{Name: name, Warn: warn})
	if err != nil {
		return err
	}
	return source.Entries(src, func(e *source.Error) { diag(e.WithSeverity(sitemap.SeverityError)) })(ctx, yield)
}
