package fetch

import (
	"context"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
)

// Adapter over the root package's streaming Decoder: the walk reads every
// format it knows (XML urlset and index, text, RSS, Atom; gzip sniffed by
// magic bytes, F-04) and receives its diagnostics with their rule IDs.

type itemKind uint8

const (
	itemURL itemKind = iota
	itemIndex
)

type docItem struct {
	Kind  itemKind
	URL   sitemap.URL
	Index sitemap.IndexEntry
	// Line and Col are where the entry's URL is in the document
	// (sitemap.Item.LocPos).
	Line, Col int
}

type docOptions struct {
	Name         string
	MaxBytes     int64
	MaxErrors    int
	Context      context.Context
	OnDiagnostic func(sitemap.Diagnostic)
}

type docReader struct{ d *sitemap.Decoder }

func openDoc(r io.Reader, o docOptions) *docReader {
	return &docReader{d: sitemap.NewDecoder(r, sitemap.DecoderOptions{
		Name:         o.Name,
		BaseURL:      o.Name,
		MaxBytes:     o.MaxBytes,
		MaxErrors:    o.MaxErrors,
		Context:      o.Context,
		OnDiagnostic: o.OnDiagnostic,
	})}
}

// Next returns the next entry; io.EOF at the clean end, a
// *sitemap.DecodeError (already reported) when the document cannot be read
// further.
func (r *docReader) Next() (docItem, error) {
	it, err := r.d.Next()
	if err != nil {
		return docItem{}, err
	}
	line, col := it.LocPos() // what is said of an entry is said of its URL
	if it.Kind == sitemap.ItemIndex {
		return docItem{Kind: itemIndex, Index: it.Index, Line: line, Col: col}, nil
	}
	return docItem{Kind: itemURL, URL: it.URL, Line: line, Col: col}, nil
}

// Format names the document's format ("urlset", "sitemapindex", "text",
// "rss", "atom", "html", or "" when unknown).
func (r *docReader) Format() string {
	f := r.d.Format()
	if f == sitemap.FormatUnknown {
		return ""
	}
	return f.String()
}
