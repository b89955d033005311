package input

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
)

// Walk reads names and the children of every index among them as one
// tree, through the one traversal of the module ([fetch.WalkNames] with
// [NewGetter]): local names as [Resolve] and [Open] read them, http(s)
// names and children through o.Client, the caps, the I-05 rule, loops
// and read-once the same whatever reads the bytes. The documents are
// read one after the other, each index followed by its children, so the
// entries come in a stable order. fn receives every event (every
// diagnostic too; o.OnDiagnostic is not called). See [WalkOptions] for
// what of o applies.
func Walk(ctx context.Context, names []string, o Options, fn func(fetch.Event) error) (fetch.Summary, error) {
	return fetch.WalkNames(ctx, names, WalkOptions(o), fn)
}

// WalkDocs is [Walk] of documents already resolved ([Resolve]).
func WalkDocs(ctx context.Context, docs []Doc, o Options, fn func(fetch.Event) error) (fetch.Summary, error) {
	fo := WalkOptions(o)
	g := &getter{o: o, docs: docs}
	fo.Getter = g
	names := make([]string, len(docs))
	for i := range docs {
		names[i] = docRef + strconv.Itoa(i)
		if docs[i].IsHTTP() {
			names[i] = docs[i].URL
		}
	}
	return fetch.WalkNames(ctx, names, fo, fn)
}

// WalkOptions are the options of the walk [Walk] and [Entries] make of o:
// its Client (nil: one with the defaults), a Getter of o, Concurrency 1,
// MaxDepth (0: the walk's default, 5 levels; else that many levels below
// a named input), MaxChildren (0: DefaultMaxChildren; negative: none),
// AllowOffSite, SkipDuplicates (NoDedup without it) and DedupMemory, and
// the decoder's MaxErrors and MaxBytes. Well-known paths are probed only
// for a homepage name, when robots.txt names no sitemap.
func WalkOptions(o Options) fetch.Options {
	fo := fetch.Options{
		HTTP: o.Client, Getter: NewGetter(o), Concurrency: 1,
		MaxChildren: o.MaxChildren, AllowOffSite: o.AllowOffSite,
		NoDedup: !o.SkipDuplicates, DedupMemory: o.DedupMemory,
		MaxErrors: o.Decoder.MaxErrors, MaxSitemapBytes: o.Decoder.MaxBytes,
	}
	if o.MaxDepth > 0 {
		fo.MaxDepth = o.MaxDepth + 1
	}
	if fo.MaxChildren == 0 {
		fo.MaxChildren = DefaultMaxChildren
	}
	return fo
}

// errStopWalk stops a walk of Entries at a document that could not be
// read to its end (Options.Complete).
var errStopWalk = errors.New("a document could not be read to its end")

// walkEntries calls yield with the URL entries of the walk of names, or
// of docs when names is nil.
func walkEntries(ctx context.Context, names []string, docs []Doc, o Options, yield func(*sitemap.URL) error) error {
	if len(names) == 0 && len(docs) == 0 {
		return nil
	}
	var failed, named *fetch.Node // the first failed document; the first failed named one
	walk := func(fn func(fetch.Event) error) (fetch.Summary, error) {
		if names == nil {
			return WalkDocs(ctx, docs, o, fn)
		}
		return Walk(ctx, names, o, fn)
	}
	sum, err := walk(func(ev fetch.Event) error {
		switch ev.Kind {
		case fetch.EventURL:
			return yield(ev.URL)
		case fetch.EventDiagnostic:
			o.diag(*ev.Diagnostic)
		case fetch.EventNodeEnd:
			n := ev.Node
			if n.Kind != fetch.NodeSitemap || !n.Failed {
				break
			}
			c := *n
			if named == nil && n.Depth == 1 {
				named = &c
			}
			if o.Complete {
				failed = &c
				return errStopWalk
			}
		}
		return nil
	})
	if errors.Is(err, errStopWalk) {
		switch {
		case sum.StartErr != nil:
			return startErr(sum.StartErr, named)
		case failed.Depth > 1:
			return &ChildError{fmt.Errorf("could not read %s: %s", failed.URL, failed.Err)}
		case failed.Cause != nil:
			return failed.Cause // the decoder's, said as its diagnostic was
		}
		return fmt.Errorf("%s: %s", failed.URL, failed.Err)
	}
	if err != nil {
		return err
	}
	if sum.StartErr != nil {
		return startErr(sum.StartErr, named)
	}
	return nil
}

// startErr is the error of a named input that could not be read: an
// [*OpenError] naming it.
func startErr(err error, n *fetch.Node) error {
	var oe *OpenError
	if errors.As(err, &oe) || n == nil {
		return err
	}
	return &OpenError{Doc: &Doc{Name: n.URL, URL: n.URL}, Err: err}
}
