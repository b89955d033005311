// Package generate is `sitemap generate` as one library call: [Run] reads
// a [Source] of entries, skips repeated locs (L-17) in bounded memory,
// stamps each entry's lastmod from a state store (M-05), builds the
// sitemaps (package build), writes the XSL stylesheet beside them,
// publishes the set through a store, and adds the Sitemap: line to a
// robots.txt file. A program calling Run gets the files the command
// writes, byte for byte.
//
// Run works in two goroutines: one runs the source and marks repeated
// locs, the caller's checks, stamps and encodes. They pass batches of
// items in input order, so memory stays flat whatever the number of
// entries, and every problem is reported (Options.Report) in input
// order, from the caller's goroutine.
//
// It is a package of its own rather than part of build because it ties
// together the stages build does not know about (source positions, the
// dedup set, the state store, robots.txt, the stylesheet); build stays
// the part that only turns entries into files, and a program that only
// builds does not link the state store's SQLite driver.
package generate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/urlnorm"
	"github.com/sitemapkit/sitemap/xsl"
)

// DefaultDedupMemory is the memory for remembering the locs read when
// Options.DedupMemory is zero: 80 MiB holds about 3.9 million distinct
// URLs in memory; past that the set spills to sorted runs on disk behind
// filters, each hash written a few times at most (see package
// internal/seen's documentation for the layout). At 10^8 URLs its
// filters have about 5 bits a hash and the whole process peaks under
// 150 MB.
const DefaultDedupMemory = 80 << 20

// Options configure [Run]. The zero value of every field is usable except
// Out (required unless Build.DryRun) and Build.BaseURL (required when an
// index is written).
type Options struct {
	// Out is the store the sitemaps are published to. In a dry run it may
	// be nil; when set it is only read: the files published there tell
	// what a real run would remove.
	Out store.Store
	// Build configures the sitemaps: names, base URL, scope, split,
	// compression, index mode, dry run (see [build.Options]). Build.Now,
	// when set, is also the run's time for State.
	Build build.Options
	// XSL writes the default stylesheet (xsl.DefaultName) into Out,
	// published with the sitemaps and before them (a run that publishes
	// nothing writes no stylesheet either), and references it from every
	// file, so browsers show a table; Build.Stylesheet, when set, is the
	// reference instead. A store.Writer takes one file: Run refuses XSL
	// with it (a StageOpen error, nothing written).
	XSL bool
	// State, when set, gives every entry a truthful lastmod (M-02, M-05;
	// see [state.Decide]) and remembers it: an entry the builder refuses is
	// never recorded. StatePrecision is the precision of the run's time
	// given to a changed entry (default seconds). Run flushes State after
	// publishing; closing it is the caller's. A dry run (Build.DryRun)
	// only reads State: the lastmods are those a real run would write, and
	// nothing is recorded.
	State          state.Store
	StatePrecision sitemap.Precision
	// KeepDuplicates publishes every entry as read. By default an entry
	// whose loc was read before is skipped and counted (L-17), unless
	// every earlier copy was invalid; the locs are remembered in at most
	// DedupMemory bytes (default DefaultDedupMemory) and past that in a
	// temporary file in Build.TempDir (default os.TempDir()), removed
	// when Run returns.
	KeepDuplicates bool
	DedupMemory    int64
	// Include and Exclude choose the entries published, by the rule
	// crawl.Options.Include and Exclude follow: an entry is read on when
	// its loc matches some Include pattern (or there is none) and no
	// Exclude pattern (RE2, unanchored). The others are left out before
	// any check and counted in Summary.Excluded.
	Include, Exclude []*regexp.Regexp
	// Shard and Shards, when Shards > 1, keep only the entries of shard
	// Shard (1 to Shards): those whose loc, in its normal form (L-18, the
	// key duplicates are compared under), hashes to Shard-1 modulo Shards
	// ([ShardOf]). Shards runs over the same input, one per shard, thus
	// publish every URL exactly once between them, wherever they run. The
	// others are left out before any check and counted in
	// Summary.OtherShards. Name the shard's files with build.ShardName
	// (the command's --shard does).
	Shard, Shards int
	// RobotsTxt, when set, is the path of a robots.txt file to add the
	// Sitemap: line of the run's top file to (created when missing; every
	// other byte kept, RB-13), and to drop the Sitemap: lines of files
	// this run removed. A dry run does not touch it. A path that is a
	// directory, or whose directory does not exist, or an empty
	// Build.BaseURL (the line is an absolute URL, RB-05), stops the run
	// before anything is published (a StageOpen error).
	RobotsTxt string
	// Strict ends the run at the first invalid entry, or the first entry
	// that would be published only after a repair (a field or block
	// dropped, a value read in a corrected form, a lastmod in the
	// future): nothing is published and Run returns an error wrapping
	// [ErrStrict]. Writing a URL in its normal form is not such a repair.
	Strict bool
	// NoNormalize publishes every URL as read. By default Run writes the
	// URLs of each entry (loc, image locs, video thumbnail, content and
	// player locs, alternate hrefs) in their normal form before anything
	// else looks at them, duplicates included: percent-encoded as UTF-8,
	// the host in lower case and punycode, no default port, no fragment
	// (L-18, see urlnorm.Normalize). Each rewrite is reported at info level
	// and counted in Summary.Repairs; Build.BaseURL and Build.SiteURL are
	// taken in that form too. With NoNormalize, such a loc is refused as
	// the encoder refuses it (L-07), and so is such a base URL.
	NoNormalize bool
	// NoHreflangCheck adds every entry to the builder as it comes. By
	// default, from the first entry with hreflang alternates on, the
	// entries are held back (in a temporary file in Build.TempDir,
	// unlinked at creation) until the whole set is read, and each
	// cluster of language versions is made complete and reciprocal as
	// package validate checks it (H-03, H-04, H-08): a missing return or
	// self link added when both pages are in the set, an alternate that
	// has no one right repair dropped with a warning; each counted in
	// Summary.Repairs, reported after the entries' own problems. Under
	// Strict the first such repair ends the run.
	NoHreflangCheck bool
	// Report receives every problem, in input order, from the goroutine
	// that called Run (may be nil).
	Report func(Problem)
	// Progress, when set, is called with the number of entries accepted
	// so far, after each one, from the goroutine that called Run.
	Progress func(accepted int64)
}

// Summary describes a run: the build's summary, whose Skipped counts every
// invalid entry (those the source refused as well as those the builder
// did), and what Run adds to it. Its JSON form counts duplicates among
// the skipped, as the text summary does ([Summary.MarshalJSON]).
type Summary struct {
	build.Summary
	// Duplicates is the number of entries skipped as repeats (L-17).
	Duplicates int `json:"duplicates"`
	// Excluded is the number of entries Options.Include and Exclude left
	// out.
	Excluded int `json:"excluded,omitempty"`
	// OtherShards is the number of entries left to other shards
	// (Options.Shards).
	OtherShards int `json:"other_shards,omitempty"`
	// Omitted is the number of rows the input itself marks as not to
	// publish (a crawler export's status, indexability or canonical
	// column, see source.Options.AllRows), and OmittedByRule counts them
	// by rule (SRC-07, SRC-08, SRC-09). They are not invalid entries.
	Omitted       int              `json:"omitted,omitempty"`
	OmittedByRule map[rules.ID]int `json:"omitted_by_rule,omitempty"`
	// OutOfScope is the number of invalid entries refused as outside the
	// scope (L-09, L-15).
	OutOfScope int `json:"out_of_scope,omitempty"`
	// SkippedByRule counts the invalid entries (Skipped) by the rule
	// each broke ("" for a problem with no rule, such as bad JSON).
	SkippedByRule map[rules.ID]int `json:"skipped_by_rule,omitempty"`
	// Repairs counts what was done to entries so they could be
	// published: URLs normalised, fields and blocks dropped, values read
	// in a corrected form; by action, rule and field.
	Repairs []Repair `json:"repairs,omitempty"`
	// Sitemap is the URL of the run's top file, the one robots.txt lists:
	// the index, or the single sitemap ("" when nothing was built); its
	// name alone when Build.BaseURL is empty.
	Sitemap string `json:"sitemap,omitempty"`
	// Robots is what was done to Options.RobotsTxt (nil without it).
	Robots *RobotsUpdate `json:"robots,omitempty"`
}

// Problem is one thing Run reports about the input, a [rules.Problem]:
// an invalid entry, skipped (SeverityError), a warning or a note that
// cost nothing. File and Line say where the entry was read ("" and 0 when
// the source has no positions), URL is the entry's loc; a problem the
// source found is the source's *source.Error, one the builder refused the
// encoder's *sitemap.EntryError, with those set. A remark of Run itself
// has none of them. Its Error method formats it for people: the place
// (the file and line, else the loc), the message and the rule
// ("urls.csv:4:12: … (P-01)", "urls.txt:3: loc … (L-07)").
type Problem = rules.Problem

// entryProblem is p (a copy) reported at sev for the entry it (its loc),
// placed by at.
func entryProblem(p *rules.Problem, sev sitemap.Severity, it *Item, loc string) Problem {
	return at(p.WithSeverity(sev), it, loc)
}

// at places p where the entry it was read (a position p has already
// wins), or, when the source has no positions, at its loc.
func at(p Problem, it *Item, loc string) Problem {
	if p.File == "" && p.Line == 0 {
		p.File, p.Line = it.File, it.Line
	}
	if p.File == "" && p.Line == 0 {
		p.URL = loc
	}
	return p
}

// ErrStrict is wrapped by Run's error when Options.Strict ended the run at
// an invalid entry (reported through Options.Report); nothing was
// published.
var ErrStrict = errors.New("generate: stopped at the first invalid entry (strict); nothing published, previous sitemaps left as they were")

// Stage is a step of a run that can fail on its own: see [StageError].
type Stage uint8

// The stages of [StageError].
const (
	StageOpen       Stage = iota // starting the build (build.New): the options, Out's lock, finishing a killed run's publication
	StageState                   // looking up or recording an entry in State
	StageDedup                   // remembering the locs read (memory, temporary file)
	StageStylesheet              // writing the XSL stylesheet into Out (published with the sitemaps)
	StageSaveState               // flushing State after the sitemaps were published
	StageRobots                  // reading or writing Options.RobotsTxt (after publishing)
	StageRobotsEdit              // the contents of Options.RobotsTxt cannot take the line
	StageHreflang                // holding entries back for the hreflang cluster check (temporary files)
)

var stageNames = [...]string{"starting the build", "state", "remembering the URLs read", "writing the stylesheet", "saving the state", "robots.txt", "robots.txt", "checking hreflang clusters"}

func (s Stage) String() string {
	if int(s) < len(stageNames) {
		return stageNames[s]
	}
	return "stage(" + strconv.Itoa(int(s)) + ")"
}

// StageError is an error of one stage of a run, other than reading the
// source (whose errors Run returns as they are) and building (whose
// errors come from package build). After StageSaveState, StageRobots and
// StageRobotsEdit the sitemaps are published and the Summary is complete.
type StageError struct {
	Stage Stage
	Err   error
}

func (e *StageError) Error() string { return "generate: " + e.Stage.String() + ": " + e.Err.Error() }
func (e *StageError) Unwrap() error { return e.Err }

// maxRefused bounds the locs remembered as refused by the builder (see
// run.refused): at most this many, and maxRefusedBytes of locs, so that
// memory stays flat however bad the input.
const (
	maxRefused      = 100000
	maxRefusedBytes = 16 << 20
)

// run is the state of one Run on the caller's side.
type run struct {
	o        *Options
	b        *build.Builder
	now      time.Time
	seen     *seen.Set // nil with KeepDuplicates
	locs     []string  // the locs of a batch, for State's Prefetch
	sum      Summary
	invalid  int
	accepted int64
	// refused holds the locs of entries the builder refused, none of
	// whose copies has been added since, so that a later valid copy is
	// published instead of skipped as a repeat (L-17). It is bounded
	// (maxRefused); refusedFull tells that a loc did not fit.
	refused       map[string]struct{}
	refusedBytes  int
	refusedFull   bool
	refusedWarned bool
	repairs       map[repairKey]int
	skippedByRule map[rules.ID]int
	// hl holds the entries back from the first one with alternates on,
	// for the hreflang cluster check (nil until then).
	hl *hreflangPass
}

// Run reads src to its end and publishes its entries as o says. It
// returns the run's summary, and:
//
//   - an error wrapping [build.ErrNoEntries] when no entry was valid
//     (nothing published; the summary counts the invalid ones);
//   - an error wrapping [ErrStrict] when Strict stopped the run;
//   - the source's error as it is, when the source could not be read;
//   - a [*StageError] for the stages it names;
//   - ctx.Err() when ctx was done first;
//   - any other error of package build (the store, too many sitemaps for
//     the index mode).
//
// On every error but StageSaveState, StageRobots and StageRobotsEdit
// nothing is published and the previous sitemaps stay as they were.
func Run(ctx context.Context, src Source, o Options) (Summary, error) {
	if err := prepare(src, &o); err != nil {
		return Summary{}, err
	}
	b, err := build.NewContext(ctx, o.Out, o.Build)
	if err != nil {
		return Summary{}, &StageError{StageOpen, err}
	}
	if o.RobotsTxt != "" {
		// Checked before anything is published (it is written after):
		// with Out opened, a robots.txt inside a new Out has its
		// directory.
		if err := checkRobotsPath(o.RobotsTxt, o.Build.DryRun); err != nil {
			b.Abort()
			return Summary{}, &StageError{StageOpen, err}
		}
	}
	r := &run{o: &o, b: b, now: time.Now()}
	defer r.releaseHold()
	if o.Build.Now != nil {
		r.now = o.Build.Now()
	}
	if !o.KeepDuplicates {
		// The spill file is removed by Close on every path out of Run.
		r.seen = newSeen(&o)
		defer r.seen.Close()
	}
	if err := r.readAll(ctx, src); err != nil {
		b.Abort()
		return r.summary(), err
	}
	if err := r.clusters(ctx); err != nil {
		b.Abort()
		return r.summary(), err
	}
	if o.XSL && !o.Build.DryRun && r.accepted > 0 {
		// Published with the sitemaps, before them: a run that publishes
		// nothing leaves no stylesheet either.
		if err := attachStylesheet(ctx, o.Out, b); err != nil {
			b.Abort()
			return r.summary(), &StageError{StageStylesheet, err}
		}
	}
	bs, err := b.Commit(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return r.summary(), ctx.Err()
		}
		return r.summary(), err
	}
	r.sum.Summary = bs
	if o.State != nil && !o.Build.DryRun {
		if err := o.State.Flush(ctx); err != nil {
			return r.summary(), &StageError{StageSaveState, err}
		}
	}
	sum := r.summary()
	if o.RobotsTxt != "" && sum.Sitemap != "" {
		ru, err := updateRobots(o.RobotsTxt, sum, o.Build.BaseURL, o.Build.DryRun)
		sum.Robots = ru
		if err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// prepare checks o against src before anything is opened and puts o's
// base and site URL in normal form (unless NoNormalize) and its
// stylesheet href (XSL without one). A nil src, a shard out of range,
// XSL into a single-file store and RobotsTxt without a base URL are
// each a StageOpen *StageError; o is left half prepared then.
func prepare(src Source, o *Options) error {
	if src == nil {
		return &StageError{StageOpen, errors.New("generate: nil Source; give Read, Entries or a func of the Source shape")}
	}
	if o.Shards > 1 && (o.Shard < 1 || o.Shard > o.Shards) {
		return &StageError{StageOpen, fmt.Errorf("generate: shard %d of %d: use 1 to %d", o.Shard, o.Shards, o.Shards)}
	}
	if !o.NoNormalize {
		// The directory and scope in the form of the entries (L-18).
		o.Build.BaseURL, o.Build.SiteURL = urlnorm.Key(o.Build.BaseURL), urlnorm.Key(o.Build.SiteURL)
	}
	if _, one := o.Out.(*store.WriterStore); one && o.XSL && !o.Build.DryRun {
		// Checked first: the stylesheet would go to the writer ahead of
		// the sitemap, or the sitemap be refused after it.
		return &StageError{StageOpen, errors.New("generate: XSL writes the stylesheet beside the sitemaps, and the store takes one file (store.Writer); publish into a directory (store.Dir) for XSL, or leave XSL off and set Build.Stylesheet to the href of a stylesheet served elsewhere")}
	}
	if o.RobotsTxt != "" && o.Build.BaseURL == "" {
		// The Sitemap: line is an absolute URL (RB-05): without the base
		// URL the sitemaps were published, then the line refused.
		return &StageError{StageOpen, fmt.Errorf("generate: robots.txt %s lists the sitemap by its absolute URL (RB-05), which needs Build.BaseURL: the URL of the directory the sitemaps are served from, such as https://www.example.com/", o.RobotsTxt)}
	}
	if o.XSL && o.Build.Stylesheet == "" {
		// Relative: it resolves against each file's own URL, and every
		// file of the set sits in the same directory.
		o.Build.Stylesheet = xsl.DefaultName
	}
	return nil
}

// newSeen makes the set that remembers the locs read, in o.DedupMemory
// bytes (DefaultDedupMemory when zero or less) and past that in a spill
// file in o.Build.TempDir (os.TempDir() when empty); the caller closes
// it, which removes the file.
func newSeen(o *Options) *seen.Set {
	mem := o.DedupMemory
	if mem <= 0 {
		mem = DefaultDedupMemory
	}
	dir := o.Build.TempDir
	if dir == "" {
		dir = os.TempDir()
	}
	return seen.New(mem, dir)
}

// MarshalJSON writes the summary with the names and meanings of the text
// summary ([Summary.WriteTable]): "skipped" is every entry read and not
// published (invalid ones and duplicates, Skipped+Duplicates), "invalid"
// the invalid ones (the Skipped field), "duplicates" the repeats, and
// "skipped_by_rule" counts all of "skipped" by rule, duplicates under
// L-17, so its counts add up to "skipped". "excluded" (Include and
// Exclude) is apart, as in the text.
func (s Summary) MarshalJSON() ([]byte, error) {
	type plain Summary
	byRule := s.SkippedByRule
	if s.Duplicates > 0 {
		byRule = make(map[rules.ID]int, len(s.SkippedByRule)+1)
		for k, v := range s.SkippedByRule {
			byRule[k] = v
		}
		byRule[rules.L17] += s.Duplicates
	}
	return json.Marshal(struct {
		plain
		Skipped       int              `json:"skipped"`
		Invalid       int              `json:"invalid"`
		SkippedByRule map[rules.ID]int `json:"skipped_by_rule,omitempty"`
	}{plain(s), s.Skipped + s.Duplicates, s.Skipped, byRule})
}

// WriteTable writes the summary for people, as [build.Summary.WriteTable]
// does, with every entry left out counted on its closing line: skipped
// as invalid (Skipped) or as repeats (Duplicates), and Excluded:
//
//	7 URLs in 1 sitemap, 5 skipped (2 invalid, 3 duplicate), 4 excluded, 0.01s (700 URLs/s)
func (s Summary) WriteTable(w io.Writer) error {
	skipped := group(s.Skipped+s.Duplicates) + " skipped"
	if s.Duplicates > 0 {
		skipped += " (" + group(s.Skipped) + " invalid, " + group(s.Duplicates) + " duplicate)"
	}
	if s.Excluded > 0 {
		skipped += ", " + group(s.Excluded) + " excluded"
	}
	if s.OtherShards > 0 {
		skipped += ", " + group(s.OtherShards) + " left to other shards"
	}
	if s.Omitted > 0 {
		skipped += ", " + group(s.Omitted) + " left out as the export marks them"
	}
	return s.Summary.WriteTableSkipped(w, skipped)
}

// group writes n with thousands separators, as the table does.
func group(n int) string { return progress.Group(int64(n)) }

// summary completes r.sum with the counts of the run.
func (r *run) summary() Summary {
	s := r.sum
	// Every invalid entry counts, those the source refused as well as
	// those the builder did, so the summary agrees with the report.
	s.Skipped = r.invalid
	s.SkippedByRule = r.skippedByRule
	s.Repairs = r.repairList()
	s.Sitemap = topURL(r.o.Build.BaseURL, s.Summary)
	return s
}

// topURL is the URL of the run's top file: the index, or the single
// sitemap.
func topURL(base string, sum build.Summary) string {
	switch {
	case sum.Index != nil:
		return slash(base) + sum.Index.Name
	case len(sum.Files) > 0:
		return slash(base) + sum.Files[0].Name
	}
	return ""
}

func slash(s string) string {
	if s == "" || s[len(s)-1] == '/' {
		return s
	}
	return s + "/"
}

func (r *run) report(p Problem) {
	if r.o.Report != nil {
		r.o.Report(p)
	}
}

// add stamps it (with State) and adds it to the builder; key is its loc's
// key in the dedup set (L-17).
// addDropping adds it (or holds it back for the hreflang check); an
// invalid field or block costs that field or block, not the page: each
// is dropped, reported and counted, and the entry tried again (not under
// Strict). The error is the one left: an entry that is invalid whole.
func (r *run) addDropping(ctx context.Context, it *Item, loc string) error {
	err := r.addOrHold(ctx, &it.URL)
	var eerr *sitemap.EntryError
	var gone droppedItems
	for !r.o.Strict && errors.As(err, &eerr) {
		dropped, ok := it.URL.Drop(eerr)
		if !ok {
			break
		}
		msg, dropped := gone.asRead(eerr.Error(), dropped)
		r.report(at(Problem{Severity: sitemap.SeverityWarning, Rule: eerr.Rule,
			Message: msg + "; " + dropped + " dropped, the page kept"}, it, loc))
		r.repaired(eerr.Rule, "dropped", dropped)
		err = r.addOrHold(ctx, &it.URL)
	}
	return err
}

func (r *run) add(ctx context.Context, it *Item, key string) error {
	if futureLastMod(it.URL.LastMod, r.now) {
		// M-07: a date in the future is wrong, and would make the
		// index's lastmod wrong too; the page is kept without it.
		p := at(Problem{Severity: sitemap.SeverityWarning, Rule: rules.M07,
			Message: "lastmod " + it.URL.LastMod.String() + " is in the future (now is " + r.now.UTC().Format(time.RFC3339) +
				", one day of clock skew allowed); dropped, the page kept: lastmod says when the page last changed (M-07)"}, it, it.URL.Loc)
		if r.o.Strict {
			p.Severity = sitemap.SeverityError
			return r.invalidEntry(p)
		}
		r.report(p)
		r.repaired(rules.M07, "dropped", "lastmod")
		it.URL.LastMod = sitemap.Date{}
	}
	var stamped state.Record
	if r.o.State != nil {
		// Truthful lastmod (M-05): unchanged entries keep the lastmod
		// recorded when they last changed; changed ones get the run's
		// time; a lastmod given on input wins. The record is kept only
		// once the builder accepts the entry, so an invalid copy of a
		// URL never counts as a change of the valid one.
		prev, found, err := r.o.State.Lookup(ctx, it.URL.Loc)
		if err != nil {
			return &StageError{StageState, err}
		}
		stamped, it.URL.LastMod = state.Decide(prev, found, &it.URL, r.now, r.o.StatePrecision)
	}
	loc := it.URL.Loc
	var deprecated []deprecatedDrop
	if !r.o.Build.Legacy {
		if deprecated = deprecatedFields(&it.URL); deprecated != nil && r.o.Strict {
			d := deprecated[0]
			return r.invalidEntry(at(Problem{Severity: sitemap.SeverityError, Rule: d.rule,
				Message: d.field + ": " + deprecatedWhy[d.rule] + "; not written without --legacy (" + string(d.rule) + ")"}, it, loc))
		}
	}
	err := r.addDropping(ctx, it, loc)
	var eerr *sitemap.EntryError
	if errors.As(err, &eerr) {
		if eerr.Rule == rules.L09 {
			r.sum.OutOfScope++
		}
		r.refuse(key)
		// The encoder's message already carries its suggestion (L-07).
		return r.invalidEntry(entryProblem(eerr, sitemap.SeverityError, it, loc))
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	if deprecated != nil {
		r.reportDeprecated(it, loc, deprecated)
	}
	if r.o.State != nil && !r.o.Build.DryRun {
		if err := r.o.State.Put(ctx, stamped); err != nil {
			return &StageError{StageState, err}
		}
	}
	r.accept(key)
	r.accepted++
	if r.o.Progress != nil {
		r.o.Progress(r.accepted)
	}
	return nil
}

// invalidEntry reports one skipped entry; under Strict it ends the run.
func (r *run) invalidEntry(p Problem) error {
	r.invalid++
	if r.skippedByRule == nil {
		r.skippedByRule = make(map[rules.ID]int)
	}
	r.skippedByRule[p.Rule]++
	r.report(p)
	if r.o.Strict {
		return fmt.Errorf("%s: %w", p.Error(), ErrStrict)
	}
	return nil
}

// repeat reports whether a repeated loc (L-17) is to be added after all:
// only when no earlier copy was added, that is when the builder refused
// each of them. Items come in input order, so the answer is exact while
// the refused set has room; past that, a repeat is skipped as before, and
// the first such skip says so once. A skipped repeat is counted.
func (r *run) repeat(loc string) bool {
	if _, ok := r.refused[loc]; ok {
		return true
	}
	r.sum.Duplicates++
	if r.refusedFull && !r.refusedWarned {
		r.refusedWarned = true
		r.report(Problem{Severity: sitemap.SeverityWarning, Rule: rules.L17,
			Message: fmt.Sprintf("more than %d invalid entries; from here on a repeated URL is skipped even when its earlier copies were invalid", maxRefused)})
	}
	return false
}

// refuse remembers loc as refused by the builder, so a later valid copy
// of it is published (L-17); accept forgets it again.
func (r *run) refuse(loc string) {
	if r.seen == nil {
		return // KeepDuplicates: nothing is skipped
	}
	if _, ok := r.refused[loc]; ok {
		return
	}
	if len(r.refused) >= maxRefused || r.refusedBytes+len(loc) > maxRefusedBytes {
		r.refusedFull = true
		return
	}
	if r.refused == nil {
		r.refused = make(map[string]struct{})
	}
	r.refused[loc] = struct{}{}
	r.refusedBytes += len(loc)
}

// accept forgets loc as refused: it is published now.
func (r *run) accept(loc string) {
	if len(r.refused) == 0 {
		return
	}
	if _, ok := r.refused[loc]; ok {
		delete(r.refused, loc)
		r.refusedBytes -= len(loc)
	}
}

// attachStylesheet writes the default stylesheet into st and has b
// publish it with the sitemaps.
func attachStylesheet(ctx context.Context, st store.Store, b *build.Builder) error {
	f, err := st.Create(ctx, xsl.DefaultName)
	if err != nil {
		return err
	}
	if _, err := xsl.WriteTo(f); err != nil {
		f.Abort()
		return err
	}
	if err := f.Commit(); err != nil {
		f.Abort()
		return err
	}
	return b.Attach(f)
}
