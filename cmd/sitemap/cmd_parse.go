package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/source"
)

// parseOptions are the flags and arguments of `sitemap parse`.
type parseOptions struct {
	// UserAgent is sent with every request (default: the CLI's).
	UserAgent string
	// Scope is what HTTP requests may reach (--scope, --allow-host, --no-private).
	Scope        fetch.Scope
	Format       string
	Base         string
	Follow       bool
	MaxChildren  int
	AllowOffSite bool
	Quiet        bool
	MaxErrors    int
	MaxPerRule   int
	Timeout      time.Duration
	Inputs       []string

	client *fetch.Client
}

func newParseCmd(s *streams) *cobra.Command {
	o := &parseOptions{}
	c := &cobra.Command{
		Use:   "parse [flags] INPUT...",
		Short: "Print the entries of sitemaps (XML, index, text, RSS, Atom; gzip or not) as JSONL, CSV or text",
		Long: `Parse prints the entries of sitemaps (XML, index, text, RSS, Atom; gzip or not; files,
directories, URLs or a site's homepage) as JSONL entry records, CSV or text, with the problems
found on standard error; --follow reads an index's children. See docs/READING.md.`,
		Example: `  sitemap parse testdata/samples/basic.xml
  sitemap parse --format txt testdata/samples/basic.xml.gz
  sitemap parse --format csv --follow https://www.example.com/sitemap.xml
  sitemap parse --format txt --follow https://www.example.com/robots.txt
  sitemap parse testdata/samples/basic.xml | sitemap generate --base-url https://www.example.com/ --dry-run -`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			return runParse(c.Context(), o, s)
		},
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "jsonl", "output: jsonl, csv or txt")
	f.BoolVar(&o.Follow, "follow", false, "print the URLs of an index's children instead of its entries")
	f.StringVar(&o.Base, "base", "", "`URL` a local INPUT is served at, to find an index's children")
	f.IntVar(&o.MaxChildren, "max-children", 1000, "most children of one index to read with --follow")
	f.BoolVar(&o.AllowOffSite, "allow-off-site", false, "with --follow, also read children on another site (I-05, then a warning)")
	f.BoolVar(&o.Quiet, "quiet", false, "print only errors on standard error, not warnings and notes")
	f.IntVar(&o.MaxPerRule, "max-per-rule", 20, "most diagnostics of one rule shown per document, the rest counted (0: all)")
	addMaxErrors(c, &o.MaxErrors)
	f.DurationVar(&o.Timeout, "timeout", 60*time.Second, "time limit of each HTTP request")
	return c
}

// entryWriter prints entries in one format through a source.Writer,
// made at the first entry; wide: several INPUTs, so urlsets and indexes
// may mix (every CSV row then has the columns of a URL).
type entryWriter struct {
	w      io.Writer
	format string
	wide   bool
	sw     *source.Writer
}

func newEntryWriter(w io.Writer, format string) (*entryWriter, error) {
	if !slices.Contains(source.WriterFormats, format) {
		_, err := source.NewWriter(w, source.WriterOptions{Format: format})
		return nil, err
	}
	return &entryWriter{w: w, format: format}, nil
}

func (ew *entryWriter) writer() *source.Writer {
	if ew.sw == nil {
		ew.sw, _ = source.NewWriter(ew.w, source.WriterOptions{Format: ew.format, Mixed: ew.wide})
	}
	return ew.sw
}

func (ew *entryWriter) write(it *sitemap.Item) error { return ew.writer().WriteItem(it) }

func (ew *entryWriter) writeURL(u *sitemap.URL) error { return ew.writer().Write(u) }

func (ew *entryWriter) flush() error { return ew.writer().Flush() }

// parseRun is the state of one `sitemap parse`.
type parseRun struct {
	o      *parseOptions
	s      *streams
	ew     *entryWriter
	errw   io.Writer // standard error, the progress line erased before each line
	bar    *progress.Bar
	errors int
	// The cap of --max-per-rule, per document and rule (keys
	// "document\x00rule"): memory grows with documents times rules, not
	// with entries.
	cap *report.Cap
	// readShown is set once a READ-01 is printed: the reader failed, and
	// the error that ends the run (a *sitemap.DecodeError of that rule)
	// says it again.
	readShown bool
}

func runParse(ctx context.Context, o *parseOptions, s *streams) error {
	if err := baseNeedsLocal(o.Base, o.Inputs); err != nil {
		return err
	}
	ew, err := newEntryWriter(s.Out, o.Format)
	if err != nil {
		return cannotRun("%v", err)
	}
	if o.MaxChildren < 0 {
		return cannotRun("--max-children %d: give 0 or more", o.MaxChildren)
	}
	if o.client == nil {
		if o.client, err = httpClient(o.UserAgent, o.Timeout, o.Scope); err != nil {
			return cannotRun("%v", err)
		}
	}
	// The progress line (a terminal's standard error, when the entries
	// go elsewhere: on the same terminal they scroll anyway): entries
	// read, and the bytes of the local files read of their size (of the
	// files opened so far).
	var bar *progress.Bar
	var read, size atomic.Int64
	if f, ok := s.Out.(*os.File); s.ErrIsTerminal && (!ok || !term.IsTerminal(int(f.Fd()))) {
		bar = progress.New(s.Err, progress.Options{Unit: "entries", Of: "bytes",
			Measure: func() (int64, int64) { return read.Load(), size.Load() }})
	}
	defer bar.Done()
	r := &parseRun{o: o, s: s, ew: ew, errw: bar.Writer(s.Err), bar: bar, cap: report.NewCap(o.MaxPerRule)}
	in := input.Options{
		Base: o.Base, Stdin: s.In, Follow: o.Follow, MaxChildren: o.MaxChildren, AllowOffSite: o.AllowOffSite,
		Client: o.client,
		// Each entry is written and dropped: the decoder may reuse the
		// memory of its strings (no fresh memory per entry).
		Decoder:      sitemap.DecoderOptions{MaxErrors: decoderMaxErrors(o.MaxErrors), ReuseValues: true},
		OnDiagnostic: r.diag,
	}
	if bar != nil {
		in.Progress = func(r, n int64) { read.Add(r); size.Add(n) }
	}
	if o.MaxPerRule < 0 {
		return cannotRun("--max-per-rule must not be negative (0 shows every diagnostic)")
	}
	if o.MaxChildren == 0 {
		in.MaxChildren = -1 // none
	}
	names, err := discoverInputs(ctx, o.Inputs, in)
	if err != nil {
		return err
	}
	docs, err := input.Resolve(names, in)
	if err != nil {
		return cannotRun("%v", err)
	}
	ew.wide = len(docs) > 1
	var runErr error
	if o.Follow {
		runErr = r.walk(ctx, docs, in)
	} else {
		runErr = r.read(input.NewDocReader(ctx, docs, in))
	}
	bar.Done()
	r.notes()
	if err := ew.flush(); err != nil && runErr == nil {
		runErr = cannotRun("writing entries: %v", err)
	}
	if runErr != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return runErr
	}
	if r.errors > 0 {
		return problemsFound()
	}
	return nil
}

// read prints every entry rd returns.
func (r *parseRun) read(rd *input.Reader) error {
	defer rd.Close()
	for {
		// The Reader's own Entry, reused: nothing is copied per entry.
		e, err := rd.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var de *sitemap.DecodeError
			if r.readShown && errors.As(err, &de) && de.Diagnostic.Rule == sitemap.RuleRead {
				// Its READ-01 line, above, said it: exit 2 without
				// saying it again.
				return &exitError{Code: exitUsage}
			}
			return cannotRun("%v", err)
		}
		if err := r.ew.write(&e.Item); err != nil {
			return cannotRun("writing entries: %v", err)
		}
		r.bar.Add(1)
	}
}

// walk prints the URL entries of docs and of the children of every index
// among them: the one walk of index trees (input.WalkDocs), as fetch
// reads them, documents one at a time in order.
func (r *parseRun) walk(ctx context.Context, docs []input.Doc, in input.Options) error {
	var werr error // a write error stops the walk
	sum, err := input.WalkDocs(ctx, docs, in, func(ev fetch.Event) error {
		switch ev.Kind {
		case fetch.EventURL:
			if werr = r.ew.writeURL(ev.URL); werr != nil {
				return werr
			}
			r.bar.Add(1)
		case fetch.EventDiagnostic:
			r.diag(*ev.Diagnostic)
		}
		return nil
	})
	switch {
	case werr != nil:
		return cannotRun("writing entries: %v", werr)
	case err != nil:
		return cannotRun("%v", err)
	case sum.StartErr != nil:
		var oe *input.OpenError
		if !errors.As(sum.StartErr, &oe) && r.errors > 0 {
			// An http(s) input that could not be fetched: its FETCH-HTTP
			// line above said it.
			return &exitError{Code: exitUsage}
		}
		return cannotRun("%v", sum.StartErr)
	}
	return nil
}

func (r *parseRun) diag(d sitemap.Diagnostic) {
	if d.Rule == sitemap.RuleRead {
		r.readShown = true
	}
	if d.Severity == sitemap.SeverityError {
		r.errors++
	} else if r.o.Quiet {
		return
	}
	where := d.File
	if where == "" {
		where = d.URL
	}
	if r.cap.Show(where + "\x00" + string(d.Rule)) {
		fmt.Fprintln(r.errw, d.String())
	}
}

// notes writes, after the run, one line per document and rule whose
// diagnostics --max-per-rule held back, as sitemap validate does.
func (r *parseRun) notes() {
	for _, h := range r.cap.Held() {
		where, rule, _ := strings.Cut(h.Key, "\x00")
		fmt.Fprintln(r.s.Err, report.Note(where, rule, h.N))
	}
}
