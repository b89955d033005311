package audit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// listBatch is how many listed entries go to the log per transaction.
const listBatch = 1000

// lister batches the entries of the sitemaps into the log.
type lister struct {
	a     *Auditor
	batch []state.AuditListed
	// scopes caches the scope of the sitemap last seen (sitemaps are read
	// one entry after the other, so one is enough most of the time).
	scopeURL string
	scope    check.Scope
	scopeOK  bool
}

func (l *lister) add(ctx context.Context, u *sitemap.URL, source, servedAt string) error {
	key, err := l.a.norm.Normalize(u.Loc)
	if err != nil {
		key = u.Loc
	}
	e := state.AuditListed{Loc: u.Loc, Key: key, Source: source, Rand: rand.Int64()}
	if l.a.o.History {
		e.Rand = stableRand(key)
	}
	if !u.LastMod.IsZero() {
		e.LastMod = u.LastMod.String()
	}
	e.Scope = l.outside(servedAt, u.Loc)
	l.batch = append(l.batch, e)
	if len(l.batch) >= listBatch {
		return l.flush(ctx)
	}
	return nil
}

// outside says why loc is outside the scope of a sitemap served at
// servedAt (L-09, L-15); "" when it is in scope or servedAt is unknown.
func (l *lister) outside(servedAt, loc string) string {
	if servedAt == "" {
		return ""
	}
	if servedAt != l.scopeURL {
		l.scopeURL, l.scopeOK = servedAt, false
		if su, err := url.Parse(servedAt); err == nil {
			if sc, err := check.NewScope(su); err == nil {
				l.scope, l.scopeOK = sc, true
			}
		}
	}
	if !l.scopeOK {
		return ""
	}
	parts, p := check.URL(loc)
	if p != nil {
		return ""
	}
	if p := l.scope.Check(parts, check.Page); p != nil {
		return "lists it, but it " + p.Message
	}
	return ""
}

func (l *lister) flush(ctx context.Context) error {
	if len(l.batch) == 0 {
		return nil
	}
	err := l.a.log.AddListed(ctx, l.batch)
	l.batch = l.batch[:0]
	return err
}

// list reads every sitemap of the start into the log.
func (a *Auditor) list(ctx context.Context) error {
	l := &lister{a: a}
	if a.names == nil {
		if err := a.listURL(ctx, l); err != nil {
			return err
		}
	} else if err := a.listLocal(ctx, l); err != nil {
		return err
	}
	return l.flush(ctx)
}

// listURL walks the sitemaps of an http(s) start as fetch does; every
// entry is kept, repeats included (AUD-14 counts them).
func (a *Auditor) listURL(ctx context.Context, l *lister) error {
	served := map[int]string{} // node → the URL that answered
	sum, err := fetch.Walk(ctx, a.start, fetch.Options{
		HTTP: a.o.HTTP, NoDedup: true, MaxDepth: a.o.MaxDepth, MaxErrors: a.o.MaxErrors, AllowOffSite: a.o.AllowOffSite,
	}, func(ev fetch.Event) error {
		switch ev.Kind {
		case fetch.EventNodeStart, fetch.EventNodeEnd:
			if ev.Node.Kind == fetch.NodeSitemap {
				if ev.Kind == fetch.EventNodeEnd {
					delete(served, ev.NodeID)
				} else {
					served[ev.NodeID] = ev.Node.URL
				}
			}
		case fetch.EventURL:
			at := ev.URL.Source
			if s, ok := served[ev.NodeID]; ok {
				at = s
			}
			return l.add(ctx, ev.URL, ev.URL.Source, at)
		case fetch.EventDiagnostic:
			if a.o.OnDiagnostic != nil {
				a.o.OnDiagnostic(*ev.Diagnostic)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if sum.StartErr != nil {
		return fmt.Errorf("%s: %w", a.start, sum.StartErr)
	}
	return nil
}

// listLocal reads local sitemaps through package input: an index's
// children by input's rule, served at Options.Site.
func (a *Auditor) listLocal(ctx context.Context, l *lister) error {
	in := input.Options{
		Base: a.o.Site, Client: a.o.HTTP, Follow: true, MaxDepth: a.o.MaxDepth - 1, AllowOffSite: a.o.AllowOffSite,
		Decoder:      sitemap.DecoderOptions{MaxErrors: a.o.MaxErrors},
		OnDiagnostic: a.o.OnDiagnostic,
	}
	if a.o.Stdin != nil {
		in.Stdin = a.o.Stdin
	}
	served := map[int]string{} // node → where it is served
	sum, err := input.Walk(ctx, a.names, in, func(ev fetch.Event) error {
		switch ev.Kind {
		case fetch.EventNodeStart:
			at := ev.Node.Served // a file: where it is served (Base)
			if at == "" && urlnorm.IsHTTP(ev.Node.URL) {
				at = ev.Node.URL
			}
			served[ev.NodeID] = at
		case fetch.EventNodeEnd:
			delete(served, ev.NodeID)
		case fetch.EventURL:
			return l.add(ctx, ev.URL, ev.URL.Source, served[ev.NodeID])
		case fetch.EventDiagnostic:
			if a.o.OnDiagnostic != nil {
				a.o.OnDiagnostic(*ev.Diagnostic)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return sum.StartErr
}
