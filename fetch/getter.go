package fetch

import (
	"context"
	"errors"
	"io"

	sitemap "github.com/sitemapkit/sitemap"
)

// Doc is a document of a walk that is not requested over HTTP by the walk
// itself: a local file, standard input, an object of a store. A [Getter]
// makes and opens it.
type Doc struct {
	// Name names the document in diagnostics and as the Source of its
	// entries (a path, "<stdin>", an s3:// URL).
	Name string
	// URL is where the document is served ("" when unknown): the base of
	// its relative locs and the site its children must be on (I-05).
	URL string
	// Key is the document's identity: a document is read once however
	// often it is listed ("" for one that is never the same twice, such
	// as standard input).
	Key string
	// Ref is the Getter's own. A Doc whose Ref is nil is served at URL
	// and requested by the walk itself, through its Client.
	Ref any
}

// Document is a document a [Getter] opened.
type Document struct {
	// Body is the document's bytes, compressed or not (the decoder sniffs
	// gzip). The walk closes it.
	Body io.ReadCloser
	// Items, when set, is read instead of decoding Body as a sitemap
	// (JSONL entry records); the walk still closes Body.
	Items Items
}

// Items reads the entries of a document that is not a sitemap (JSONL
// entry records).
type Items interface {
	// Next returns the next entry, valid until the next call; io.EOF at
	// the end.
	Next() (*sitemap.Item, error)
	// Format names the document's format ("jsonl").
	Format() string
}

// ErrSkip, returned by [Getter.Child], says a listed child is not read
// as a child and that there is nothing to report about it (a file of a
// directory start, read in its own turn).
var ErrSkip = errors.New("read in its own turn")

// A Getter finds and opens the documents of a walk that are not requested
// over HTTP: package input's (input.NewGetter) reads files, directories,
// standard input and S3 objects. The walk keeps everything else: caps,
// concurrency, read-once, loops, deduplication and the I-05 rule for an
// index's children, so a tree reads the same from a directory as from
// its site.
type Getter interface {
	// Starts returns the documents a name given to [WalkNames] stands
	// for, in order (a directory: its sitemap files). An error says the
	// name cannot be read at all; the walk does not start.
	Starts(name string) ([]Doc, error)
	// Child returns the document that loc, an absolute http(s) URL the
	// index parent lists on the index's site (or any site when the walk
	// allows off-site children), stands for: for a local index, the file
	// it maps to; a Doc with a nil Ref to request loc over HTTP. The error
	// says why loc names no document (reported as VAL-01 at its entry),
	// or is ErrSkip.
	Child(parent *Doc, loc string) (Doc, error)
	// Open opens d. report receives the problems an Items reader finds.
	// The error says why d cannot be read (a missing file is
	// fs.ErrNotExist).
	Open(ctx context.Context, d *Doc, report func(sitemap.Diagnostic)) (*Document, error)
}
