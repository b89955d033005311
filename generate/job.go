package generate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/internal/seen"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/xsl"
)

// ErrProblems is the error of a [Job] that ran but found problems, which
// it said on its Stderr: invalid entries skipped, fields dropped, nothing
// to publish, or a Strict run stopped (exit status 1 for a command).
var ErrProblems = errors.New("generate: the run found problems (said above)")

// A Job is `sitemap generate` as one call ([Job.Run]): a [Run] with the
// Settings it came from, its problems said on Stderr as they come, and
// the summary, notes and closing lines at its end.
type Job struct {
	// Settings are the run's settings as given, checked (Check,
	// Options); Options are what Settings.Options returned, with Out and
	// State (opened from Settings.State) set by the caller. Report and
	// Progress are the Job's.
	Settings Settings
	Options  Options
	// Stdout takes the summary as JSON (Settings.JSON), Stderr the rest.
	Stdout, Stderr io.Writer
	// ProgressLine draws a progress line on Stderr while the entries are
	// read (for a terminal only): the entries accepted and, with Measure
	// (Inputs' Progress), the bytes of the inputs read of their size.
	ProgressLine bool
	Measure      Progress
	// Unpublished, when set, is called when the run published nothing
	// (store.Open's undo, to remove the directories it made).
	Unpublished func()
	// Published, when set, is called after a publication (not a dry run,
	// not to a store.Writer) with where the top file was published
	// (build.Summary.TopIn of Settings.Out), before the closing line; an
	// error it returns is the Job's (an IndexNow submission's).
	Published func(ctx context.Context, top string) error
}

// Run runs src as j says and writes what happened: the problems as they
// come (a [Reporter]), then those held back, the summary (a table, or
// JSON), the notes, what was done to robots.txt and the closing line.
// It closes Options.State: after a publication, an error closing it is
// the run's (the state was not saved).
//
// It returns the summary, and nil when everything was published
// cleanly; [ErrProblems] when the run found problems it said; a
// *build.NeedIndexError when a store.Writer would need an index; else an
// error that names the flag pointing at what failed and what to do
// ("--out DIR: cannot write to the output directory; …"), the context's
// error when it was done.
func (j *Job) Run(ctx context.Context, src Source) (Summary, error) {
	var bar *progress.Bar
	if j.ProgressLine {
		measure := func() (int64, int64) { return 0, 0 }
		if j.Measure != nil {
			measure = j.Measure
		}
		bar = progress.New(j.Stderr, progress.Options{Unit: "URLs", Of: "bytes", Measure: measure})
		j.Options.Progress = func(n int64) { bar.Set(n) }
	}
	rep := &Reporter{Strict: j.Settings.Strict, Print: func(line string) { bar.Println(j.Stderr, line) }}
	j.Options.Report = rep.Report
	if st := j.Options.State; st != nil {
		defer func() {
			if j.Options.State != nil {
				st.Close()
			}
		}()
	}
	sum, err := Run(ctx, src, j.Options)
	bar.Done()
	var serr *StageError
	errors.As(err, &serr)
	if !(err == nil || (serr != nil && (serr.Stage == StageRobots || serr.Stage == StageRobotsEdit))) {
		// Not published.
		if j.Unpublished != nil {
			j.Unpublished()
		}
		return sum, j.unpublished(ctx, sum, err, rep)
	}
	return sum, j.finish(ctx, sum, err, serr, rep)
}

// unpublished is the end of a run that published nothing: err says why.
func (j *Job) unpublished(ctx context.Context, sum Summary, err error, rep *Reporter) error {
	if errors.Is(err, ErrStrict) {
		fmt.Fprintln(j.Stderr, "sitemap: --strict: stopped at the first invalid entry; nothing published, previous sitemaps left as they were")
		return ErrProblems
	}
	var need *build.NeedIndexError
	if j.Settings.ToWriter() && errors.As(err, &need) {
		return need
	}
	if !errors.Is(err, build.ErrNoEntries) {
		return j.Settings.Explain(ctx, err)
	}
	rep.WriteHeld(j.Stderr, sum.Skipped)
	sum.WriteScope(j.Stderr, j.Settings.BaseURL, j.Settings.SiteURL)
	fmt.Fprintf(j.Stderr, "sitemap: %s; nothing published (an empty sitemap is not valid, X-07), previous sitemaps left as they were\n", sum.WhyEmpty(j.Options.Shard, j.Options.Shards))
	return ErrProblems
}

// finish is the end of a run that published: err is nil, or the
// robots.txt stage's (serr) that failed after the publication.
func (j *Job) finish(ctx context.Context, sum Summary, err error, serr *StageError, rep *Reporter) error {
	s := j.Settings
	rep.WriteHeld(j.Stderr, sum.Skipped)
	sum.WriteScope(j.Stderr, s.BaseURL, s.SiteURL)
	if st := j.Options.State; st != nil {
		j.Options.State = nil // closed here, once
		if err := st.Close(); err != nil {
			return fmt.Errorf("--state %s: the sitemaps were published but the state could not be saved: %v", state.Redact(s.State), err)
		}
	}
	if s.JSON {
		enc := json.NewEncoder(j.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(sum); err != nil {
			return fmt.Errorf("writing summary: %v", err)
		}
	} else {
		sum.WriteTable(j.Stderr)
	}
	s.Output.WarnNoIndex(j.Stderr, sum.Summary)
	sum.WriteNotes(j.Stderr, s.DryRun, s.BaseURL, s.SiteURL)
	if err != nil {
		if serr != nil && sum.Sitemap != "" {
			path := s.Robots
			if sum.Robots != nil {
				path = sum.Robots.Path
			}
			return fmt.Errorf("--robots %s: %v; the sitemaps were published: add their line when the file can take it: sitemap robots add %s %s",
				path, serr.Err, path, sum.Sitemap)
		}
		return s.Explain(ctx, err)
	}
	sum.Robots.WriteText(j.Stderr)
	if j.Published != nil && !s.DryRun && !s.ToWriter() {
		if top := sum.TopIn(s.Out); top != "" {
			if err := j.Published(ctx, top); err != nil {
				return err
			}
		}
	}
	if sum.WriteClosing(j.Stderr, s.DryRun) {
		return ErrProblems
	}
	return nil
}

// Explain words an error of [Run] for the person who gave s: the flag
// that points at what failed (--out, --state, --robots, --dedup-memory)
// and what to do. The context's error when ctx is done; an
// [*InputError], a binary input (source.ErrBinary) or an error of no
// stage it has words for as it is.
func (s Settings) Explain(ctx context.Context, err error) error {
	var serr *StageError
	switch {
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return ctx.Err()
	case errors.As(err, new(*InputError)):
		return err
	case errors.Is(err, source.ErrBinary):
		// Not a sitemap nor an entry list (F-04): nothing generate can
		// read, an unreadable input (validate, parse, fetch and diff,
		// whose work is to judge it, say it as a finding).
		return err
	case !errors.As(err, &serr):
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) && s.Out != "" && !s.ToWriter() && filepath.Dir(pe.Path) == filepath.Clean(s.Out) {
			// A file of the set could not be written there.
			return fmt.Errorf("--out %s: cannot write to the output directory; check that it is writable: %v", s.Out, err)
		}
		return err
	}
	switch serr.Stage {
	case StageOpen:
		if pe := (*fs.PathError)(nil); errors.As(serr.Err, &pe) {
			// The lock or the recovery of an earlier run could not touch
			// the directory: say which flag points there.
			return fmt.Errorf("--out %s: cannot write to the output directory; check that it is writable: %v", s.Out, serr.Err)
		}
		return serr.Err
	case StageState:
		return fmt.Errorf("--state %s: %v", state.Redact(s.State), serr.Err)
	case StageSaveState:
		return fmt.Errorf("--state %s: the sitemaps were published but the state could not be saved: %v", state.Redact(s.State), serr.Err)
	case StageDedup:
		m := seen.Memory(s.DedupMemory)
		return fmt.Errorf("remembering the URLs read (--dedup-memory %s, temporary directory %s): %v; give more --dedup-memory, free space there, or --keep-duplicates", &m, os.TempDir(), serr.Err)
	case StageStylesheet:
		return fmt.Errorf("writing %s: %v", filepath.Join(s.Out, xsl.DefaultName), serr.Err)
	case StageRobots:
		return fmt.Errorf("--robots: %v", serr.Err)
	case StageRobotsEdit:
		return fmt.Errorf("--robots %s: %v", s.Robots, serr.Err)
	}
	return err
}
