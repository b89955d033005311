package crawl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/state"
)

// CheckShared refuses the settings of a shared crawl that cannot work:
// more than one of Worker, Finish and Status, one of them without a
// PostgreSQL State (workers share the crawl through the database), or a
// Lease under a second. Without any of the three it refuses nothing
// (Again and Lease alone are the caller's to refuse: it knows which
// were given). An error names the settings as their flags.
func (s Settings) CheckShared() error {
	n := 0
	for _, b := range []bool{s.Worker, s.Finish, s.Status} {
		if b {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if n > 1 {
		return errors.New("give one of --worker, --finish and --status")
	}
	name := "--worker"
	switch {
	case s.Finish:
		name = "--finish"
	case s.Status:
		name = "--status"
	}
	if !state.IsPostgres(s.State) {
		return fmt.Errorf("%s needs a PostgreSQL state (--state postgres://user:password@host/db): workers share the crawl through the database; a state file is one process's crawl", name)
	}
	if s.Lease < time.Second {
		return fmt.Errorf("--lease %s: give at least 1s (a worker renews its leases every third of it)", s.Lease)
	}
	return nil
}

// StartOptions are the options of [Start] for s: the Mode Worker or
// Finisher says, the worker's Again and Lease, the state's name shown in
// messages and where its notes go.
func (s Settings) StartOptions(shown string, note func(string)) StartOptions {
	so := StartOptions{Shown: shown, Worker: WorkerOptions{Lease: s.Lease, Again: s.Again}, Note: note}
	switch {
	case s.Worker:
		so.Mode = Worker
	case s.Finish:
		so.Mode = Finisher
	}
	return so
}

// StartURL is the start URL of the crawl s runs: start, or with Finish
// the one of the shared crawl the PostgreSQL State holds
// ([SharedStart]: start, when not "", must be it).
func (s Settings) StartURL(ctx context.Context, start string) (string, error) {
	if !s.Finish {
		return start, nil
	}
	st, log, err := openShared(ctx, s.State)
	if err != nil {
		return "", err
	}
	defer st.Close()
	return SharedStart(ctx, log, start, state.Redact(s.State))
}

// CheckStart parses the start URL of a crawl, which must be an absolute
// http(s) URL; the error says what to give.
func CheckStart(start string) (*url.URL, error) {
	u, err := url.Parse(start)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("START-URL %q is not an absolute http(s) URL; give the homepage, e.g. https://www.example.com/", start)
	}
	return u, nil
}

// openShared opens the PostgreSQL state name and its shared crawl log.
func openShared(ctx context.Context, name string) (*state.Postgres, state.SharedCrawlLog, error) {
	st, err := state.OpenPostgres(ctx, name, state.PostgresOptions{})
	if err != nil {
		return nil, nil, err
	}
	log, ok := st.Crawl().(state.SharedCrawlLog)
	if !ok {
		st.Close()
		return nil, nil, errors.New("the state holds no shared crawl log")
	}
	return st, log, nil
}

// WriteSharedStatus writes the progress of the crawl shared through the
// PostgreSQL state name (`sitemap crawl --status`): as [WriteStatus]
// does (the state named without its password), or with asJSON as
// [WriteStatusJSON] does.
func WriteSharedStatus(ctx context.Context, w io.Writer, name string, asJSON bool) error {
	st, log, err := openShared(ctx, name)
	if err != nil {
		return err
	}
	defer st.Close()
	cs, err := log.Status(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		err = WriteStatusJSON(w, cs)
	} else {
		err = WriteStatus(w, cs, state.Redact(name))
	}
	if err != nil {
		return fmt.Errorf("writing the status: %w", err)
	}
	return nil
}

// Interrupted is the line an interrupted crawl of s ends with (without a
// prefix): what was kept in the state shown, and how to continue.
func (s Settings) Interrupted(shown string) string {
	switch {
	case s.Worker:
		return fmt.Sprintf("worker interrupted; its URLs went back to the other workers: run the same command again to rejoin the crawl in %s", shown)
	case s.DryRun:
		return "crawl interrupted; dry run, nothing kept"
	}
	return fmt.Sprintf("crawl interrupted; what was crawled is kept in %s: run the same command again to continue", shown)
}

// ShowProgress draws the crawl's progress line on w (a terminal): the
// pages fetched of the frontier, through o's Progress and Frontier.
// done ends the line.
func (o *Options) ShowProgress(w io.Writer) (done func()) {
	bar := progress.New(w, progress.Options{Unit: "pages", Of: "pages"})
	o.Progress = func(n int) { bar.Set(int64(n)) }
	o.Frontier = func(done, seen int) { bar.SetOf(int64(done), int64(seen)) }
	return bar.Done
}

// WriteClosing writes the closing summary of a crawl: with asJSON one
// object on out ([Summary.WriteJSON], built what was published or nil),
// else the text on w ([Summary.WriteText]) followed by built's table
// when it has one (a build.Summary's WriteTable). Only an error writing
// the JSON is returned.
func (s Summary) WriteClosing(out, w io.Writer, asJSON bool, built any) error {
	if asJSON {
		if err := s.WriteJSON(out, built); err != nil {
			return fmt.Errorf("writing summary: %w", err)
		}
		return nil
	}
	s.WriteText(w)
	if t, ok := built.(interface{ WriteTable(io.Writer) error }); ok {
		t.WriteTable(w)
	}
	return nil
}

// WriteFailed writes, when URLs failed ([Summary.Failed]), the line that
// says how many and where they are listed: report, the file of
// [Crawler.WriteReport] ("" or "-" for none or standard output). It
// reports whether any failed.
func (s Summary) WriteFailed(w io.Writer, report string) bool {
	failed := s.Failed()
	if failed == 0 {
		return false
	}
	hint := "; " + report + " lists them"
	if report == "" || report == "-" {
		hint = "; --report FILE lists them"
	}
	fmt.Fprintf(w, "sitemap: %s failed (see the counts above%s)\n", plural.Of(failed, "URL", "URLs"), hint)
	return true
}

// NothingListed ends a crawl that lists no page, after its summary: an
// error when the site did not answer ([Summary].Unreachable: no finding
// about its pages, a run that could not be made), else the line on w
// that nothing was published and the previous sitemaps are left as they
// were (a problem found), and nil.
func (s Summary) NothingListed(w io.Writer) error {
	if s.Unreachable != "" {
		return fmt.Errorf("the site did not answer (%s): nothing crawled, nothing published; check the URL and that the site is up", s.Unreachable)
	}
	fmt.Fprintf(w, "sitemap: no page can be listed; nothing published, previous sitemaps left as they were\n")
	return nil
}
