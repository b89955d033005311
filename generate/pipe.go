package generate

import (
	"context"
	"errors"
	"hash/fnv"
	"net/url"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/urlfilter"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Run works in two goroutines: a reader runs the source and marks
// repeated locs (L-17); the caller's goroutine stamps lastmod from the
// state (M-05), adds the entries to the builder and reports every
// problem. They pass batches of steps, in input order, through a
// channel, and the batches come back through another one, so memory stays
// flat whatever the number of URLs. What the source has to say (a
// warning, an entry it refused, an error that ends the run) is a step in
// the same sequence, so problems are reported exactly as if one goroutine
// did everything.

const (
	// batchLen is the number of steps in a full batch: large enough that
	// a channel operation per batch costs nothing per entry.
	batchLen = 512
	// batches is the number of batches in circulation: one being filled,
	// one being consumed, the rest queued.
	batches = 4
)

type stepKind uint8

const (
	stepEntry   stepKind = iota // it, an entry
	stepWarning                 // it.Problem, a remark that costs no entry
	stepInvalid                 // it.Problem, an entry the source refused
	stepFatal                   // err, the run cannot go on
	// stepRepeat is an entry whose loc the reader has seen before
	// (L-17). The consumer skips it, unless every earlier copy was
	// refused by the builder (see run.repeat).
	stepRepeat
	// stepOmitted is it.Problem, a row the input marks as not to
	// publish (Item.Omitted).
	stepOmitted
	// stepStop is it.Problem, the error that ended the reading of a
	// sitemap input (Item.stop): reported as an error, no entry counted.
	stepStop
)

// step is one step of the reader's output.
type step struct {
	kind stepKind
	it   Item
	err  error
	// norm are the URLs of it the reader wrote in their normal form
	// (L-18), for the consumer to report.
	norm []normalized
	// rel are the relative URLs of it the reader resolved (L-19).
	rel []normalized
	// key is the loc's key in the dedup set when it differs from the loc
	// (with NoNormalize: its normal form); "" otherwise.
	key string
}

// dedupKey is the key of s's loc in the dedup set (L-17).
func (s *step) dedupKey() string {
	if s.key != "" {
		return s.key
	}
	return s.it.URL.Loc
}

// batch is a run of consecutive steps.
type batch struct {
	steps []step
}

// errStopped is what yield returns to the source once the consumer has
// stopped (or ctx is done): the source returns it and the reader ends.
var errStopped = errors.New("generate: the run has stopped")

// reader is the reading side of a run. It stops, closing out, at the end
// of the source, after a step that ends the run, or as soon as ctx is
// done (the consumer cancels ctx when it stops).
type reader struct {
	ctx    context.Context
	src    Source
	r      *run // only o and seen are used here
	out    chan *batch
	free   chan *batch
	done   chan struct{} // closed when loop returns
	cur    *batch        // the batch being filled, nil when none
	strict bool
	filter urlfilter.Filter
	// base is what relative URLs resolve against (L-19), nil when none.
	base *url.URL
	// excluded counts the entries filter left out, otherShards those
	// of other shards; read once done is closed.
	excluded, otherShards int
	// pending are the places in cur of the entries whose loc the dedup
	// set has not seen yet (dedup); keys and isNew its scratch.
	pending []int
	keys    []string
	isNew   []bool
}

func newReader(ctx context.Context, src Source, r *run) *reader {
	p := &reader{ctx: ctx, src: src, r: r,
		out:    make(chan *batch, batches),
		free:   make(chan *batch, batches),
		done:   make(chan struct{}),
		strict: r.o.Strict,
		filter: urlfilter.Filter{Include: r.o.Include, Exclude: r.o.Exclude},
		base:   relativeBase(r.o.Build.BaseURL, r.o.Build.SiteURL),
	}
	for range batches {
		p.free <- &batch{}
	}
	return p
}

// loop runs the source to its end.
func (p *reader) loop() {
	defer close(p.done)
	defer close(p.out)
	err := p.src(p.ctx, p.yield)
	switch {
	case errors.Is(err, errStopped):
		// The consumer has stopped, or Strict ended the run: nothing
		// more to say.
		p.flush()
	case err != nil:
		p.fatal(err)
	default:
		p.flush()
	}
}

// yield is the source's yield: one item, in input order.
func (p *reader) yield(it *Item) error {
	if it == nil {
		// The source is about to wait: hand over what it read.
		if !p.flush() {
			return errStopped
		}
		return nil
	}
	if it.Problem != nil {
		kind := stepInvalid
		switch {
		case it.Omitted:
			kind = stepOmitted
		case it.stop:
			kind = stepStop
		case it.Warning:
			kind = stepWarning
		}
		if !p.emit(kind, it) {
			return errStopped
		}
		if kind == stepInvalid && p.strict {
			// The consumer stops at this entry; read no further.
			p.flush()
			return errStopped
		}
		return nil
	}
	var rel []normalized
	if p.base != nil {
		// L-19: before the filter and everything else look at the loc.
		rel = resolveRelative(&it.URL, p.base)
	}
	if !p.filter.Keep(it.URL.Loc) {
		p.excluded++
		return nil
	}
	if !p.batch() {
		return errStopped
	}
	p.cur.steps = append(p.cur.steps, step{kind: stepEntry})
	st := &p.cur.steps[len(p.cur.steps)-1]
	st.it = *it
	st.rel = rel
	if !p.r.o.NoNormalize {
		// L-18: before the dedup set sees the loc, so that the spellings
		// of one URL count as one.
		st.norm = normalize(&st.it.URL, nil)
	}
	if o := p.r.o; o.Shards > 1 {
		key := st.it.URL.Loc
		if o.NoNormalize {
			key = urlnorm.Key(key)
		}
		if ShardOf(key, o.Shards) != o.Shard {
			p.cur.steps = p.cur.steps[:len(p.cur.steps)-1]
			p.otherShards++
			return nil
		}
	}
	if p.r.seen != nil {
		// L-17: a repeated loc wastes the 50,000-URL budget; the first
		// valid occurrence is kept (also in the state, stamped by the
		// consumer). Whether an earlier copy was valid only the consumer
		// knows, so a repeat is marked here, not dropped. Locs are
		// compared in their normal form, written so or not.
		if p.r.o.NoNormalize {
			if k := urlnorm.Key(st.it.URL.Loc); k != st.it.URL.Loc {
				st.key = k
			}
		}
		// Marked when the batch is sent (dedup), all at once.
		p.pending = append(p.pending, len(p.cur.steps)-1)
	}
	if len(p.cur.steps) == batchLen && !p.flush() {
		return errStopped
	}
	return nil
}

// emit appends a step to the current batch, sending the batch when it is
// full. It reports false when the consumer has stopped.
func (p *reader) emit(kind stepKind, it *Item) bool {
	if !p.batch() {
		return false
	}
	p.cur.steps = append(p.cur.steps, step{kind: kind})
	p.cur.steps[len(p.cur.steps)-1].it = *it
	if len(p.cur.steps) == batchLen {
		return p.flush()
	}
	return true
}

// flush sends the current batch, if any, once its repeated locs are
// marked (dedup). It reports false when the consumer has stopped, or the
// dedup set failed (the batch then ends with the error).
func (p *reader) flush() bool {
	if p.cur == nil {
		return p.ctx.Err() == nil
	}
	ok := len(p.pending) == 0 || p.dedup()
	select {
	case p.out <- p.cur:
		p.cur = nil
		return ok
	case <-p.ctx.Done():
		return false
	}
}

// dedup marks the repeated locs among the current batch's entries (L-17)
// in one call of the dedup set (seen.Set.AddBatch: the locs in input
// order, so the first occurrence is the one kept, as with one Add a loc,
// and cheaper once the set has spilled to disk). It reports false when
// the set failed: the batch then ends before its first entry not marked,
// with the error as its last step.
func (p *reader) dedup() bool {
	keys := p.keys[:0]
	for _, i := range p.pending {
		keys = append(keys, p.cur.steps[i].dedupKey())
	}
	isNew := append(p.isNew[:0], make([]bool, len(keys))...)
	err := p.r.seen.AddBatch(keys, isNew)
	if err == nil {
		for j, i := range p.pending {
			if !isNew[j] {
				p.cur.steps[i].kind = stepRepeat
			}
		}
	} else {
		first := p.pending[0]
		clear(p.cur.steps[first:])
		p.cur.steps = append(p.cur.steps[:first], step{kind: stepFatal, err: &StageError{StageDedup, err}})
	}
	clear(keys)
	p.keys, p.isNew, p.pending = keys[:0], isNew[:0], p.pending[:0]
	return err == nil
}

// fatal sends err as the last step.
func (p *reader) fatal(err error) {
	if p.batch() {
		p.cur.steps = append(p.cur.steps, step{kind: stepFatal, err: err})
		p.flush()
	}
}

// batch makes sure there is a current batch, taking a free one. It
// reports false when the consumer has stopped.
func (p *reader) batch() bool {
	if p.cur != nil {
		return true
	}
	select {
	case p.cur = <-p.free:
	case <-p.ctx.Done():
		return false
	}
	if p.cur.steps == nil {
		p.cur.steps = make([]step, 0, batchLen)
	}
	return true
}

// readAll feeds the source's entries to the builder. It returns the error
// that ends the run: the source's, an invalid entry under Strict, a
// builder or state that cannot go on. The reading goroutine has ended
// when it returns.
func (r *run) readAll(ctx context.Context, src Source) error {
	pctx, cancel := context.WithCancel(ctx)
	p := newReader(pctx, src, r)
	go p.loop()
	defer func() {
		cancel()
		<-p.done
		r.sum.Excluded = p.excluded
		r.sum.OtherShards = p.otherShards
	}()
	for {
		var b *batch
		var ok bool
		select {
		case b, ok = <-p.out:
		case <-ctx.Done():
			return ctx.Err()
		}
		if !ok {
			return ctx.Err()
		}
		if err := r.prefetch(ctx, b); err != nil {
			return err
		}
		for i := range b.steps {
			if err := r.consume(ctx, &b.steps[i]); err != nil {
				return err
			}
		}
		clear(b.steps)
		b.steps = b.steps[:0]
		p.free <- b // never blocks: free holds every batch
	}
}

// prefetch reads the state records of a batch's entries in one go when
// the state can (state.Prefetcher: a database a round trip away), so that
// their Lookups are answered from memory.
func (r *run) prefetch(ctx context.Context, b *batch) error {
	pf, ok := r.o.State.(state.Prefetcher)
	if !ok {
		return nil
	}
	locs := r.locs[:0]
	for i := range b.steps {
		if k := b.steps[i].kind; k == stepEntry || k == stepRepeat {
			locs = append(locs, b.steps[i].it.URL.Loc)
		}
	}
	r.locs = locs
	if len(locs) == 0 {
		return nil
	}
	if err := pf.Prefetch(ctx, locs); err != nil {
		return &StageError{StageState, err}
	}
	return nil
}

// consume handles one step of the reader, in input order.
func (r *run) consume(ctx context.Context, s *step) error {
	switch s.kind {
	case stepWarning:
		e := s.it.Problem
		p := entryProblem(e, sitemap.SeverityWarning, &s.it, "")
		if e.Dropped != "" || e.Fixed {
			if r.o.Strict {
				// The entry would be published only after a repair.
				p.Severity = sitemap.SeverityError
				return r.invalidEntry(p)
			}
			if e.Dropped != "" {
				r.repaired(e.Rule, "dropped", e.Dropped)
			} else {
				r.repaired(e.Rule, "fixed", fixedField(e.Message))
			}
		}
		r.report(p)
		return nil
	case stepStop:
		r.report(entryProblem(s.it.Problem, sitemap.SeverityError, &s.it, ""))
		return nil
	case stepInvalid:
		return r.invalidEntry(entryProblem(s.it.Problem, sitemap.SeverityError, &s.it, ""))
	case stepOmitted:
		r.sum.Omitted++
		if r.sum.OmittedByRule == nil {
			r.sum.OmittedByRule = make(map[rules.ID]int)
		}
		r.sum.OmittedByRule[s.it.Problem.Rule]++
		r.report(entryProblem(s.it.Problem, sitemap.SeverityInfo, &s.it, ""))
		return nil
	case stepFatal:
		return s.err
	}
	if err := r.reportResolved(&s.it, s.rel); err != nil {
		return err
	}
	switch s.kind {
	case stepRepeat:
		r.reportNormalized(&s.it, s.norm)
		if !r.repeat(s.dedupKey()) {
			return nil
		}
		return r.add(ctx, &s.it, s.dedupKey())
	}
	r.reportNormalized(&s.it, s.norm)
	return r.add(ctx, &s.it, s.dedupKey())
}

// ShardOf is the shard (1 to shards) of the URL loc, given in its normal
// form: 1 + the 64-bit FNV-1a hash of its bytes modulo shards. With
// shards below 2 every loc is in shard 1 (as Options.Shards below 2 means
// no sharding).
func ShardOf(loc string, shards int) int {
	if shards < 2 {
		return 1
	}
	h := fnv.New64a()
	h.Write([]byte(loc))
	return 1 + int(h.Sum64()%uint64(shards))
}
