package generate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/ctxio"
	"github.com/sitemapkit/sitemap/source"
)

// Source is the stream of entries a run reads, in the library's one
// stream shape (see [sitemap.Entries]): [Run] calls it once, from its
// reading goroutine, and it calls yield once per [Item], in input order.
// It returns nil at the end of its entries, the first error yield
// returns (as it is), or an error that ends the run: Run then publishes
// nothing and returns that error unchanged. Once ctx is done yield
// returns an error; a source blocked elsewhere must return soon after ctx
// is done too, since Run waits for it before it returns.
//
// The *Item is read only during the call; the source may reuse it.
// A source about to wait for input that may be slow to come (a terminal,
// a pipe) may call yield(nil) first: Run then hands the items read so
// far to the builder at once, so that a progress report moves and Strict
// stops without waiting for more input.
//
// [Read] reads text, CSV or JSONL; [Entries] turns any entry stream (such
// as crawl.Crawler.Entries or diff.Open) into a Source; several sources
// run one after the other are a Source too (see [Concat]).
type Source func(ctx context.Context, yield func(*Item) error) error

// Item is one step of a [Source]: an entry with where it was read, or,
// when Problem is set, a problem of the input.
type Item struct {
	// URL is the entry (unused when Problem is set).
	URL sitemap.URL
	// File and Line say where the entry was read, for messages about it
	// ("urls.txt", 3); empty and 0 when the source has no positions.
	File string
	Line int
	// Problem, when set, is a problem the source found at this point of
	// the input: an entry it could not read (skipped and counted like an
	// entry the builder refuses; under Options.Strict it ends the run),
	// or with Warning a remark that costs no entry.
	Problem *source.Error
	Warning bool
	// Omitted, with Problem, is a row the input itself marks as not to
	// publish (a crawler export's status, indexability or canonical
	// column; SRC-07, SRC-08, SRC-09): left out and counted in
	// Summary.Omitted, not an invalid entry.
	Omitted bool
	// stop, with Problem, is the problem that ended the reading of a
	// sitemap input (GZ-01, LIM-01, XML-01 …): reported as an error, it
	// costs no entry; the run then ends with an InputError.
	stop bool
}

// Read returns the Source of the entries of r, in text, CSV or JSONL as
// o says (see [source.New]; gzip is recognised). Entries the reader
// refuses and its warnings become Problem items, in input order, and so
// do the rows it leaves out (Item.Omitted); o.Warn and o.Omitted, when
// set, are called as well. A read that waits on input that may never
// come (r is not a regular file: a terminal, a pipe) returns when ctx is
// done. An error that stops the reading is returned as
// "cannot read input NAME: …".
func Read(r io.Reader, o source.Options) Source {
	return func(ctx context.Context, yield func(*Item) error) error {
		in := interruptible(ctx, r)
		cr, _ := in.(*ctxio.Reader)
		return readEntries(ctx, in, cr, o, yield)
	}
}

// readEntries is Read of in, whose reads wait on cr when it is not nil
// (in is cr, or a reader of it such as a bufio.Reader).
func readEntries(ctx context.Context, in io.Reader, cr *ctxio.Reader, o source.Options, yield func(*Item) error) error {
	if cr != nil {
		// Once a terminal or a pipe has kept us waiting a moment
		// (ctxio.IdleAfter), hand over what was read: Run sees an
		// entry soon after it arrives, and a producer writing a few
		// KiB at a time does not wake the builder at every write.
		cr.Idle = func() { yield(nil) }
	}
	var werr error // the first error yield returned for a warning
	warn := o.Warn
	o.Warn = func(e *source.Error) {
		if warn != nil {
			warn(e)
		}
		if werr == nil {
			werr = yield(&Item{Problem: e, Warning: true, File: e.File, Line: e.Line})
		}
	}
	omitted := o.Omitted
	o.Omitted = func(e *source.Error) {
		if omitted != nil {
			omitted(e)
		}
		if werr == nil {
			werr = yield(&Item{Problem: e, Omitted: true, File: e.File, Line: e.Line})
		}
	}
	src, err := source.New(in, o)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("cannot read input: %w", err)
	}
	var it Item
	for {
		rec, err := src.Next()
		if werr != nil {
			return werr
		}
		if err == io.EOF {
			return nil
		}
		var serr *source.Error
		if errors.As(err, &serr) {
			it = Item{Problem: serr, File: serr.File, Line: serr.Line}
			if err := yield(&it); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if strings.HasPrefix(err.Error(), o.Name+":") {
				return fmt.Errorf("cannot read input: %w", err) // it says where
			}
			return fmt.Errorf("cannot read input %s: %w", o.Name, err)
		}
		it = Item{URL: rec.URL, File: o.Name, Line: rec.Line}
		if err := yield(&it); err != nil {
			return err
		}
	}
}

// Entries returns the Source of the entries of e (crawl.Crawler.Entries,
// diff.Open, a program's own stream), without positions: a message about
// one of them names its loc.
func Entries(e sitemap.Entries) Source {
	return func(ctx context.Context, yield func(*Item) error) error {
		if e == nil {
			return errors.New("generate: Entries of a nil stream")
		}
		var it Item
		return e(ctx, func(u *sitemap.URL) error {
			if u == nil {
				return errors.New("generate: the entry stream yielded a nil entry")
			}
			it = Item{URL: *u}
			return yield(&it)
		})
	}
}

// Concat returns the Source that runs each of srcs to its end in turn,
// checking ctx between them.
func Concat(srcs ...Source) Source {
	return func(ctx context.Context, yield func(*Item) error) error {
		for i, s := range srcs {
			if err := ctx.Err(); err != nil {
				return err
			}
			if s == nil {
				return fmt.Errorf("generate: Concat: source %d of %d is nil", i+1, len(srcs))
			}
			if err := s(ctx, yield); err != nil {
				return err
			}
		}
		return nil
	}
}

// Interruptible returns r so that a read of it waiting on input that may
// never come (a terminal, a silent pipe) returns ctx.Err() as soon as ctx
// is done; a regular file is returned as it is. For a caller that looks
// at the first bytes of standard input before handing it to [Read].
func Interruptible(ctx context.Context, r io.Reader) io.Reader { return interruptible(ctx, r) }

// interruptible returns r so that a Read waiting on input that may never
// come (a terminal, a pipe whose writer is silent) returns ctx.Err() as
// soon as ctx is done (see package internal/ctxio).
func interruptible(ctx context.Context, r io.Reader) io.Reader { return ctxio.New(ctx, r) }
