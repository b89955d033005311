package indexnow

import (
	"context"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/input"
)

// PublishedOptions configure [SubmitPublished] beyond [Options].
type PublishedOptions struct {
	// VerifyKey fetches the key file first ([VerifyKey], through
	// Options.Client) and submits nothing when it is missing or holds
	// another key: a *[VerifyError].
	VerifyKey bool
	// OnVerified, when set, is told the URL of the key file verified.
	OnVerified func(keyURL string)
	// OnReadError, when set, is told each error reading the published
	// sitemaps back (a child that cannot be read, a broken file); such
	// an entry is not submitted, and the next publication sends it.
	OnReadError func(sitemap.Diagnostic)
}

// VerifyError is the error of [SubmitPublished] when the live key file
// could not be verified: nothing was submitted.
type VerifyError struct {
	URL string // the key file's URL
	Err error  // VerifyKey's error
}

func (e *VerifyError) Error() string { return e.Err.Error() }
func (e *VerifyError) Unwrap() error { return e.Err }

// SubmitPublished tells IndexNow engines what a publication changed, as
// `sitemap generate --indexnow-key-file` and `sitemap crawl` do after
// publishing: it reads back the sitemap, or the index and its children,
// just published at top (a file path or an s3://bucket/key location; see
// build.Summary.TopIn) through package input, and [Submit]s its entries
// with o, whose Ledger (required for this use) sends each URL once at
// each version: what the ledger saw submitted before is not sent again,
// and what a failed batch left out goes with the next publication.
// o.KeyLocation is taken in its normal form, as the POST carries it.
//
// readErrors counts the errors reading the sitemaps back (each also told
// to p.OnReadError); with the Summary's OK, it says whether everything
// published was offered.
func SubmitPublished(ctx context.Context, top string, o Options, p PublishedOptions) (sum Summary, readErrors int, err error) {
	if o.KeyLocation != "" {
		o.KeyLocation = NormalURL(o.KeyLocation)
	}
	if p.VerifyKey {
		ku := KeyURL(NormalHost(o.Host), o.Key, o.KeyLocation)
		if err := VerifyKey(ctx, o.Client, ku, o.Key); err != nil {
			return Summary{}, 0, &VerifyError{URL: ku, Err: err}
		}
		if p.OnVerified != nil {
			p.OnVerified(ku)
		}
	}
	entries := input.Entries([]string{top}, input.Options{Follow: true, OnDiagnostic: func(d sitemap.Diagnostic) {
		if d.Severity == sitemap.SeverityError {
			readErrors++
			if p.OnReadError != nil {
				p.OnReadError(d)
			}
		}
	}})
	sum, err = Submit(ctx, entries, o)
	return sum, readErrors, err
}
