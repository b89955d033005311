package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// fetchOptions are the flags and argument of `sitemap fetch`.
type fetchOptions struct {
	Start  string
	Format string
	Tree   bool
	// URLs lists each sitemap's URLs beneath it in the --tree.
	URLs       bool
	KnownPaths string
	UserAgent  string
	// Scope is what HTTP requests may reach (--scope, --allow-host, --no-private).
	Scope          fetch.Scope
	Concurrency    int
	PerHost        int
	MaxDepth       int
	AllowOffSite   bool
	Base           string
	MaxSitemaps    int
	MaxURLs        int64
	MaxBytes       int64
	Timeout        time.Duration
	SitemapTimeout time.Duration
	IdleTimeout    time.Duration
	Attempts       int
	// httpOnly are the HTTP-only flags given (fetchHTTPOnlyFlags).
	httpOnly    []string
	Cache       string
	NoDedup     bool
	DedupMemory byteSize
	Quiet       bool
	Verbose     bool
	MaxErrors   int
}

// fetchShownPerRule is how many diagnostics of one rule are printed on
// standard error; the rest are counted in the summary.
const fetchShownPerRule = 10

// fetchTreeDiags is how many diagnostics --tree shows under one node.
const fetchTreeDiags = 5

func newFetchCmd(s *streams) *cobra.Command {
	o := &fetchOptions{}
	c := &cobra.Command{
		Use:   "fetch [flags] URL|FILE|DIR|-",
		Short: "Find every sitemap a site publishes and print every URL in them once",
		Long: `Fetch finds every sitemap a site publishes (robots.txt, well-known paths, nested indexes) and
prints every URL once, as it is read, in memory that does not grow with the site; --tree
prints the documents instead. See docs/READING.md.`,
		Example: `  sitemap fetch https://www.example.com/
  sitemap fetch --tree https://www.example.com/
  sitemap fetch --tree --urls https://www.example.com/sitemap_index.xml
  sitemap fetch --format jsonl https://www.example.com/robots.txt > urls.jsonl
  sitemap fetch --known-paths never --max-urls 1000 https://www.example.com/sitemap_index.xml
  sitemap fetch --dedup-memory 16MiB https://www.example.com/ > urls.txt`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Start = args[0]
			o.UserAgent = userAgent(c)
			for _, name := range fetchHTTPOnlyFlags {
				if fl := c.Flags().Lookup(name); fl != nil && fl.Changed {
					o.httpOnly = append(o.httpOnly, "--"+name)
				}
			}
			if err := checkFetchLimits(o); err != nil {
				return err
			}
			var err error
			if o.Scope, err = scopeOf(c); err != nil {
				return err
			}
			return runFetch(c.Context(), o, s)
		},
	}
	f := c.Flags()
	f.SortFlags = false
	f.StringVar(&o.Format, "format", "txt", "output: txt, jsonl or csv")
	f.BoolVar(&o.Tree, "tree", false, "print the tree of documents with counts and problems instead of URLs (--format json: one object)")
	f.BoolVar(&o.URLs, "urls", false, "with --tree, list each sitemap's URLs beneath it")
	f.StringVar(&o.KnownPaths, "known-paths", "fallback", "probe well-known paths: never, fallback (robots.txt names none), always")
	f.IntVar(&o.Concurrency, "concurrency", 8, "sitemaps read at once")
	f.IntVar(&o.PerHost, "per-host", 4, "sitemaps read at once from one host")
	f.StringVar(&o.Base, "base", "", "`URL` a local START is served at, to find an index's children")
	f.BoolVar(&o.AllowOffSite, "allow-off-site", false, "also read an index's children on another site (I-05, then a warning)")
	f.IntVar(&o.MaxDepth, "max-depth", 5, "deepest level of indexes followed")
	f.IntVar(&o.MaxSitemaps, "max-sitemaps", 10000, "most sitemaps requested")
	f.Int64Var(&o.MaxURLs, "max-urls", 0, "stop after this many URLs (0: no limit)")
	f.Int64Var(&o.MaxBytes, "max-bytes", 0, "stop after this many bytes transferred (0: no limit)")
	f.DurationVar(&o.Timeout, "timeout", 0, "time limit of the whole run (0: none)")
	f.DurationVar(&o.SitemapTimeout, "sitemap-timeout", 5*time.Minute, "time limit of one sitemap, request and body")
	f.DurationVar(&o.IdleTimeout, "idle-timeout", 30*time.Second, "longest a server may send nothing in the middle of a body")
	f.IntVar(&o.Attempts, "attempts", 3, "tries of a request on 429, 5xx and network errors")
	f.StringVar(&o.Cache, "cache", "", "`DIR` keeping bodies for conditional requests next time")
	f.BoolVar(&o.NoDedup, "no-dedup", false, "print a URL every time a sitemap lists it (memory stays flat)")
	o.DedupMemory = fetch.DefaultDedupMemory
	f.Var(&o.DedupMemory, "dedup-memory", "memory for the URLs printed, a `SIZE` such as 1GiB; then a temporary file")
	f.BoolVar(&o.Quiet, "quiet", false, "print only errors and the summary on standard error")
	f.BoolVar(&o.Verbose, "verbose", false, "also print notes (info diagnostics) on standard error")
	addMaxErrors(c, &o.MaxErrors)
	return c
}

// fetchRun is the state of one `sitemap fetch`.
type fetchRun struct {
	o      *fetchOptions
	s      *streams
	out    *fetchURLWriter
	shown  *report.Cap // diagnostics printed per rule
	bar    *progress.Bar
	queue  *fetchQueue // the sitemaps done of those known, for bar
	tree   *fetchTree
	errOut *bufio.Writer
	// held are the start sitemap's fetch errors, printed after the walk
	// unless the one line of a start that could not be read says it.
	held        []sitemap.Diagnostic
	releaseHeld bool
}

// fetchHTTPOnlyFlags are the flags of fetch that only reading over HTTP
// uses; a local START gets a warning that they do nothing.
var fetchHTTPOnlyFlags = []string{"known-paths", "concurrency", "per-host", "idle-timeout", "attempts", "cache"}

// localStart refuses a local START that does not exist, saying what fetch
// reads (and the https:// a host name lacks).
func localStart(start string) error {
	if start == "-" {
		return nil
	}
	if _, err := os.Stat(start); errors.Is(err, fs.ErrNotExist) {
		msg := start + ": no such file, nor an absolute http(s) URL; give a sitemap file or directory, or a homepage, robots.txt or sitemap URL"
		if !strings.ContainsAny(start, `/\`) && strings.Contains(start, ".") && !fileExt(start) {
			msg += " (did you mean https://" + start + "/?)"
		}
		return cannotRun("%s", msg)
	}
	return nil
}

// fileExt reports whether name ends in the extension of a file the
// commands read or write (sitemap.xml, urls.txt, old.jsonl): a missing
// file of that name, not a host name without its https://.
func fileExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".xml", ".gz", ".txt", ".jsonl", ".json", ".csv", ".tsv", ".html", ".htm", ".zst", ".bz2", ".xz", ".zip":
		return true
	}
	return false
}

func runFetch(ctx context.Context, o *fetchOptions, s *streams) error {
	if err := checkDedupMemory(o.DedupMemory, fetch.DefaultDedupMemory); err != nil {
		return err
	}
	kp, err := fetch.ParseKnownPaths(o.KnownPaths)
	if err != nil {
		return cannotRun("--known-paths: %v", err)
	}
	local := !urlnorm.IsHTTP(o.Start)
	if !local && o.Base != "" {
		return cannotRun("--base is for a local file or directory; %s is a URL", o.Start)
	}
	r, err := newFetchRun(o, s)
	if err != nil {
		return err
	}
	if r.tree != nil && r.tree.urls != nil {
		defer r.tree.urls.close()
	}
	fo, err := fetchWalkOptions(o, s, kp, local)
	if err != nil {
		return err
	}
	sum, werr := fetch.Walk(ctx, o.Start, fo, r.event)
	var oe *input.OpenError
	if errors.As(sum.StartErr, &oe) {
		sum.StartErr = oe.Err // the message names the START already
	}
	r.bar.Done()
	if r.out != nil {
		if err := r.out.flush(); err != nil && werr == nil {
			werr = err
		}
	}
	// Interrupted (Ctrl-C): what was read is kept, the tree so far and the
	// summary are printed, and the exit status is 2 with a message that
	// says the output is partial.
	interrupted := werr != nil && ctx.Err() != nil && (errors.Is(werr, context.Canceled) || errors.Is(werr, context.DeadlineExceeded))
	if werr != nil && !interrupted {
		r.errOut.Flush()
		if sum.Elapsed == 0 && sum.Sitemaps == 0 && !strings.Contains(werr.Error(), "write") {
			return cannotRun("%v", werr)
		}
		return cannotRun("writing the output: %v", werr)
	}
	if sum.StartErr != nil && !interrupted && sum.Sitemaps <= 1 && sum.Entries == 0 {
		// The one sitemap asked for could not be fetched, and nothing
		// else was read: one line says it (its diagnostic, the summary
		// and the problem count would say it three more times).
		return cannotRun("%s could not be read: %v", o.Start, sum.StartErr)
	}
	r.releaseHeld = true
	for i := range r.held {
		r.print(&r.held[i])
	}
	if err := r.writeTree(); err != nil {
		return err
	}
	r.summary(sum)
	r.errOut.Flush()
	if interrupted {
		what := "the URLs above are"
		if r.tree != nil {
			what = "the tree above is"
		}
		return &exitError{Code: exitUsage, Err: fmt.Errorf("fetch interrupted: %s what was read before the stop", what)}
	}
	if sum.StartErr != nil {
		return cannotRun("%s could not be read: %v", o.Start, sum.StartErr)
	}
	if sum.Errors > 0 || sum.Failed > 0 {
		return problemsFound()
	}
	return nil
}

// newFetchRun makes the run's outputs: the tree (--tree, its URL spool
// with --urls) or the URL writer, and the progress line on a terminal.
func newFetchRun(o *fetchOptions, s *streams) (*fetchRun, error) {
	r := &fetchRun{o: o, s: s, shown: report.NewCap(fetchShownPerRule), errOut: bufio.NewWriter(s.Err)}
	var err error
	if o.Tree {
		if f := o.Format; f != "txt" && f != "text" && f != "json" {
			return nil, cannotRun("--format %q with --tree: want text (the default) or json", f)
		}
		r.tree = newFetchTree()
		if o.URLs {
			if o.Format == "json" {
				return nil, cannotRun("--urls lists URLs in the text tree; for each URL with its sitemap as JSON, use --format jsonl without --tree (its source field)")
			}
			if r.tree.urls, err = newFetchURLSpool(); err != nil {
				return nil, cannotRun("%v", err)
			}
		}
	} else {
		if o.URLs {
			return nil, cannotRun("--urls lists each sitemap's URLs in the --tree; give --tree too (without it every URL is printed once, with its sitemap in --format jsonl's or csv's source)")
		}
		if r.out, err = newFetchURLWriter(s.Out, o.Format); err != nil {
			return nil, cannotRun("%v", err)
		}
	}
	if s.ErrIsTerminal {
		r.bar = progress.New(s.Err, progress.Options{Unit: "URLs", Of: "sitemaps"})
		r.queue = &fetchQueue{}
	}
	return r, nil
}

// fetchWalkOptions are the walk's options from the flags. A local START is
// read by the same walk as a URL, its documents through package input's
// Getter, one at a time so the URLs come in the files' order.
func fetchWalkOptions(o *fetchOptions, s *streams, kp fetch.KnownPaths, local bool) (fetch.Options, error) {
	if o.UserAgent == "" {
		o.UserAgent = defaultUserAgent()
	}
	fo := fetch.Options{
		UserAgent: o.UserAgent, Concurrency: o.Concurrency, PerHost: o.PerHost,
		MaxDepth: o.MaxDepth, MaxSitemaps: o.MaxSitemaps, MaxURLs: o.MaxURLs, MaxBytes: o.MaxBytes, MaxErrors: decoderMaxErrors(o.MaxErrors),
		Timeout: o.Timeout, SitemapTimeout: o.SitemapTimeout, IdleTimeout: o.IdleTimeout,
		Attempts: o.Attempts, KnownPaths: kp, CacheDir: o.Cache, NoDedup: o.NoDedup,
		DedupMemory: int64(o.DedupMemory), AllowOffSite: o.AllowOffSite, Scope: o.Scope,
	}
	if !local {
		return fo, nil
	}
	if err := localStart(o.Start); err != nil {
		return fo, err
	}
	if len(o.httpOnly) > 0 {
		// Said, not silently ignored: the user may think they apply.
		fmt.Fprintf(s.Err, "sitemap: warning: %s %s no effect on a local %s; %s only when reading over HTTP\n",
			strings.Join(o.httpOnly, ", "), map[bool]string{true: "has", false: "have"}[len(o.httpOnly) == 1], o.Start,
			map[bool]string{true: "it applies", false: "they apply"}[len(o.httpOnly) == 1])
	}
	fo.Getter = input.NewGetter(input.Options{Base: o.Base, Stdin: s.In})
	fo.Concurrency = 1
	return fo, nil
}

// writeTree prints the --tree, if asked for, on standard output.
func (r *fetchRun) writeTree() error {
	if r.tree == nil {
		return nil
	}
	bw := bufio.NewWriter(r.s.Out)
	if r.o.Format == "json" {
		if err := r.tree.writeJSON(bw); err != nil {
			return cannotRun("writing the output: %v", err)
		}
	} else if err := r.tree.write(bw); err != nil {
		return cannotRun("%v", err)
	}
	if err := bw.Flush(); err != nil {
		return cannotRun("writing the output: %v", err)
	}
	return nil
}

func (r *fetchRun) event(ev fetch.Event) error {
	switch ev.Kind {
	case fetch.EventURL:
		r.bar.Add(1)
		if r.tree != nil && r.tree.urls != nil {
			r.tree.urls.add(ev.NodeID, ev.URL.Loc)
		}
		if r.out != nil {
			return r.out.write(ev.URL)
		}
	case fetch.EventDiagnostic:
		d := ev.Diagnostic
		if r.tree != nil {
			r.tree.diag(ev.NodeID, d)
		}
		r.print(d)
	case fetch.EventNodeStart:
		if r.queue != nil {
			r.bar.SetOf(r.queue.start(ev.Node))
		}
	case fetch.EventNodeEnd:
		if r.queue != nil {
			r.bar.SetOf(r.queue.end(ev.Node))
		}
		if r.tree != nil {
			r.tree.node(ev.Node)
		}
		if r.out != nil {
			// Output streams out sitemap by sitemap, not only when the
			// buffer fills.
			return r.out.flush()
		}
	}
	return nil
}

// print shows a diagnostic on standard error, at most fetchShownPerRule
// per rule.
func (r *fetchRun) print(d *sitemap.Diagnostic) {
	switch {
	case d.Severity == sitemap.SeverityInfo && !r.o.Verbose:
		return
	case d.Severity == sitemap.SeverityWarning && r.o.Quiet:
		return
	}
	if d.Severity == sitemap.SeverityError && d.URL == r.o.Start && d.Rule == rules.FetchHTTP && !r.releaseHeld {
		// The start sitemap could not be fetched: said once at the end
		// when nothing else was read (runFetch), else printed then.
		r.held = append(r.held, *d)
		return
	}
	if !r.shown.Show(string(d.Rule)) {
		return
	}
	r.bar.Clear()
	r.errOut.WriteString(d.String())
	r.errOut.WriteByte('\n')
	if d.Severity == sitemap.SeverityError || r.errOut.Buffered() > 4096 {
		r.errOut.Flush()
	}
}

func (r *fetchRun) summary(sum fetch.Summary) {
	w := r.errOut
	secs := sum.Elapsed.Seconds()
	fmt.Fprintf(w, "fetch: %s read", plural.Of(sum.Sitemaps, "sitemap", "sitemaps"))
	if sum.Failed > 0 {
		fmt.Fprintf(w, " (%d failed)", sum.Failed)
	}
	if sum.URLs == 1 {
		w.WriteString(", 1 URL")
	} else {
		fmt.Fprintf(w, ", %s URLs", progress.Group(sum.URLs))
	}
	if sum.Duplicates > 0 {
		word := " duplicates"
		if sum.Duplicates == 1 {
			word = " duplicate"
		}
		fmt.Fprintf(w, " (%s%s dropped)", progress.Group(sum.Duplicates), word)
	}
	if urlnorm.IsHTTP(r.o.Start) {
		fmt.Fprintf(w, ", %s transferred", fetchHumanBytes(sum.Bytes))
	} // a local run transfers nothing
	fmt.Fprintf(w, " in %s", sum.Elapsed.Round(time.Millisecond))
	if secs > 0 && sum.URLs > 0 {
		fmt.Fprintf(w, " (%s URLs/s)", progress.Group(int64(float64(sum.URLs)/secs)))
	}
	w.WriteString("\n")
	if len(sum.Capped) > 0 {
		fmt.Fprintf(w, "fetch: stopped early by caps: %s\n", strings.Join(sum.Capped, ", "))
	}
	if len(sum.Problems) > 0 {
		rules := make([]string, 0, len(sum.Problems))
		for k := range sum.Problems {
			rules = append(rules, k)
		}
		sort.Strings(rules)
		parts := make([]string, 0, len(rules))
		for _, k := range rules {
			p := fmt.Sprintf("%s %s", k, progress.Group(int64(sum.Problems[k])))
			if r.shown.Count(k) > fetchShownPerRule {
				p += fmt.Sprintf(" (%d shown)", fetchShownPerRule)
			}
			parts = append(parts, p)
		}
		fmt.Fprintf(w, "fetch: problems by rule: %s; %s, %s, %s\n", strings.Join(parts, ", "),
			plural.Of(sum.Errors, "error", "errors"), plural.Of(sum.Warnings, "warning", "warnings"), plural.Of(sum.Infos, "note", "notes"))
	}
}

func fetchHumanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// fetchTree collects nodes and their diagnostics for --tree.
type fetchTree struct {
	nodes    map[int]*fetch.Node
	children map[int][]int
	diags    map[int][]sitemap.Diagnostic
	more     map[int]int
	// urls, with --urls, holds each sitemap's URLs, listed beneath it.
	urls *fetchURLSpool
}

func newFetchTree() *fetchTree {
	return &fetchTree{nodes: map[int]*fetch.Node{}, children: map[int][]int{}, diags: map[int][]sitemap.Diagnostic{}, more: map[int]int{}}
}

func (t *fetchTree) node(n *fetch.Node) {
	if t.urls != nil {
		t.urls.flush(n.ID)
	}
	c := *n
	t.nodes[n.ID] = &c
	t.children[n.Parent] = append(t.children[n.Parent], n.ID)
}

// ordered sorts every node's children as the lists that named them order
// them (Node.Seq): robots.txt's Sitemap: lines, an index's entries; the
// documents are read concurrently, so they arrive in any order. Probes
// (no Seq) follow, in the order they were read.
func (t *fetchTree) ordered() {
	for _, ids := range t.children {
		sort.SliceStable(ids, func(a, b int) bool {
			na, nb := t.nodes[ids[a]], t.nodes[ids[b]]
			if na == nil || nb == nil {
				return false
			}
			sa, sb := na.Seq, nb.Seq
			if sa == 0 {
				sa = math.MaxInt
			}
			if sb == 0 {
				sb = math.MaxInt
			}
			if sa != sb {
				return sa < sb
			}
			return na.ID < nb.ID
		})
	}
}

func (t *fetchTree) diag(id int, d *sitemap.Diagnostic) {
	if d.Severity == sitemap.SeverityInfo && d.Rule != rules.FetchDup {
		return
	}
	if len(t.diags[id]) >= fetchTreeDiags {
		t.more[id]++
		return
	}
	t.diags[id] = append(t.diags[id], *d)
}

// write prints the tree the way `usp ls` does (one document per line,
// children indented), with counts and problems.
func (t *fetchTree) write(w *bufio.Writer) error {
	t.ordered()
	var err error
	var walk func(id, depth int)
	walk = func(id, depth int) {
		n := t.nodes[id]
		if n == nil || err != nil {
			return
		}
		indent := strings.Repeat("    ", depth)
		// One line per document and per problem, whatever a server or a
		// sitemap put in a URL or a message: control characters escaped.
		w.WriteString(indent)
		w.WriteString(check.EscapeControls(n.URL))
		if n.FinalURL != "" && n.FinalURL != n.URL && n.Kind != fetch.NodeStart {
			w.WriteString(" -> " + check.EscapeControls(n.FinalURL))
		}
		w.WriteString("  [" + check.EscapeControls(t.describe(n)) + "]\n")
		for _, d := range t.diags[id] {
			fmt.Fprintf(w, "%s    ! %s %s: %s\n", indent, d.Severity, d.Rule, fetchTreeWhere(d, n)+check.EscapeControls(d.Message))
		}
		if m := t.more[id]; m > 0 {
			fmt.Fprintf(w, "%s    ! … and %s more\n", indent, progress.Group(int64(m)))
		}
		if t.urls != nil {
			// The sitemap's URLs, one level in, before any child.
			if err = t.urls.write(w, id, indent+"    "); err != nil {
				return
			}
		}
		// In the order ordered put them: the index's, not the URLs'.
		for _, k := range t.children[id] {
			walk(k, depth+1)
		}
	}
	roots := t.children[0]
	slices.Sort(roots)
	for _, id := range roots {
		walk(id, 0)
	}
	for _, d := range t.diags[0] {
		fmt.Fprintf(w, "! %s %s: %s\n", d.Severity, d.Rule, check.EscapeControls(d.Message))
	}
	return err
}

func fetchTreeWhere(d sitemap.Diagnostic, n *fetch.Node) string {
	if d.Line > 0 {
		return "line " + strconv.Itoa(d.Line) + ": "
	}
	return ""
}

func (t *fetchTree) describe(n *fetch.Node) string {
	var parts []string
	switch n.Kind {
	case fetch.NodeStart:
		return "start"
	case fetch.NodeRobots:
		parts = append(parts, "robots.txt", plural.Of(n.Sitemaps, "sitemap", "sitemaps"))
	default:
		f := n.Format
		if f == "" {
			f = "sitemap"
		}
		if n.Probe {
			f += ", probed"
		}
		parts = append(parts, f)
		if n.Format == "sitemapindex" || n.Sitemaps > 0 {
			parts = append(parts, plural.Of(n.Sitemaps, "sitemap", "sitemaps"))
		}
		if n.Format != "sitemapindex" || n.URLs > 0 {
			parts = append(parts, plural.Of(n.URLs, "URL", "URLs"))
		}
	}
	if n.Cached {
		parts = append(parts, "not modified, cached")
	}
	if n.Failed {
		parts = append(parts, "FAILED: "+n.Err)
	} else if n.Err != "" {
		parts = append(parts, n.Err)
	}
	if n.Errors > 0 {
		parts = append(parts, plural.Of(n.Errors, "error", "errors"))
	}
	if n.Warnings > 0 {
		parts = append(parts, plural.Of(n.Warnings, "warning", "warnings"))
	}
	return strings.Join(parts, ", ")
}

// fetchURLWriter prints URL entries (source.Writer: txt, jsonl or csv
// with a source column).
type fetchURLWriter struct{ sw *source.Writer }

func newFetchURLWriter(w io.Writer, format string) (*fetchURLWriter, error) {
	sw, err := source.NewWriter(w, source.WriterOptions{Format: format, Source: true})
	if err != nil {
		return nil, err
	}
	return &fetchURLWriter{sw}, sw.WriteHeader()
}

func (u *fetchURLWriter) write(x *sitemap.URL) error { return u.sw.Write(x) }

func (u *fetchURLWriter) flush() error { return u.sw.Flush() }

// fetchTreeJSON is one document of --tree --format json.
type fetchTreeJSON struct {
	URL      string               `json:"url"`
	FinalURL string               `json:"final_url,omitempty"`
	Kind     string               `json:"kind"`
	Format   string               `json:"format,omitempty"`
	Status   int                  `json:"status,omitempty"`
	URLs     int                  `json:"urls"`
	Sitemaps int                  `json:"sitemaps"`
	Errors   int                  `json:"errors"`
	Warnings int                  `json:"warnings"`
	Failed   bool                 `json:"failed,omitempty"`
	Err      string               `json:"error,omitempty"`
	Problems []sitemap.Diagnostic `json:"problems,omitempty"`
	Children []*fetchTreeJSON     `json:"children,omitempty"`
}

// writeJSON prints the tree as one JSON object, the start at its root,
// children in their lists' order, as the text form.
func (t *fetchTree) writeJSON(w *bufio.Writer) error {
	t.ordered()
	var build func(id int) *fetchTreeJSON
	build = func(id int) *fetchTreeJSON {
		n := t.nodes[id]
		if n == nil {
			return nil
		}
		kind := "sitemap"
		switch n.Kind {
		case fetch.NodeStart:
			kind = "start"
		case fetch.NodeRobots:
			kind = "robots"
		}
		j := &fetchTreeJSON{URL: n.URL, Kind: kind, Format: n.Format, Status: n.Status, URLs: n.URLs, Sitemaps: n.Sitemaps,
			Errors: n.Errors, Warnings: n.Warnings, Failed: n.Failed, Err: n.Err, Problems: t.diags[id]}
		if n.FinalURL != n.URL {
			j.FinalURL = n.FinalURL
		}
		for _, c := range t.children[id] {
			if cj := build(c); cj != nil {
				j.Children = append(j.Children, cj)
			}
		}
		return j
	}
	var roots []*fetchTreeJSON
	for _, id := range t.children[0] {
		if j := build(id); j != nil {
			roots = append(roots, j)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if len(roots) == 1 {
		return enc.Encode(roots[0])
	}
	return enc.Encode(roots)
}

// checkFetchLimits refuses a count or time limit the help gives no meaning
// (the library would take its default instead, without a word): the
// counts at least 1, --max-urls, --max-bytes and --timeout 0 (none) or
// more.
func checkFetchLimits(o *fetchOptions) error {
	for _, c := range []struct {
		flag string
		n    int
	}{{"--concurrency", o.Concurrency}, {"--per-host", o.PerHost}, {"--max-depth", o.MaxDepth},
		{"--max-sitemaps", o.MaxSitemaps}, {"--attempts", o.Attempts}} {
		if c.n < 1 {
			return cannotRun("%s %d: give 1 or more", c.flag, c.n)
		}
	}
	for _, c := range []struct {
		flag string
		n    int64
	}{{"--max-urls", o.MaxURLs}, {"--max-bytes", o.MaxBytes}} {
		if c.n < 0 {
			return cannotRun("%s %d: give 0 (no limit) or more", c.flag, c.n)
		}
	}
	if o.Timeout < 0 {
		return cannotRun("--timeout %v: give 0 (none) or more", o.Timeout)
	}
	if o.Cache != "" {
		if fi, err := os.Stat(o.Cache); err == nil && !fi.IsDir() {
			return cannotRun("--cache %s is a file; give a directory (made when missing)", o.Cache)
		}
	}
	for _, c := range []struct {
		flag string
		d    time.Duration
	}{{"--sitemap-timeout", o.SitemapTimeout}, {"--idle-timeout", o.IdleTimeout}} {
		if c.d <= 0 {
			return cannotRun("%s %v: give a time limit above 0, such as 30s", c.flag, c.d)
		}
	}
	return nil
}
