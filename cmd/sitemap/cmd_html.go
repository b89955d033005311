package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/report"
	"github.com/sitemapkit/sitemap/state"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/urlnorm"
	"github.com/sitemapkit/sitemap/view"
)

// htmlOptions are the flags and arguments of `sitemap html`.
type htmlOptions struct {
	readFlags
	Output   string
	Document bool
	Title    string
	Lang     string
	PerPage  int
	CSS      string
	Template string
	State    string
	Inputs   []string
}

func newHTMLCmd(s *streams) *cobra.Command {
	o := &htmlOptions{}
	c := withHelp("html", &cobra.Command{
		Use:  "html [flags] INPUT... -o DIR",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			o.Inputs = args
			if err := requester(c, &o.UserAgent, &o.Scope); err != nil {
				return err
			}
			return runHTML(c.Context(), o, s)
		},
	})
	f := c.Flags()
	f.SortFlags = false
	f.StringVarP(&o.Output, "output", "o", "", "`DIR` to write the pages into; with --document a FILE, or - for standard output")
	f.BoolVar(&o.Document, "document", false, "write the HTML view of the one INPUT, a sitemap or index")
	f.StringVar(&o.Title, "title", "", "title of the pages (default \"Site map\")")
	f.StringVar(&o.Lang, "lang", "en", "language of the pages (the lang attribute)")
	f.IntVar(&o.PerPage, "per-page", view.DefaultPerPage, "most links on one page")
	f.StringVar(&o.CSS, "css", "", "`FILE` of CSS that replaces the default stylesheet (inlined)")
	f.StringVar(&o.Template, "template", "", "Go html/template `FILE` that replaces the default page")
	f.StringVar(&o.State, "state", "", "crawl state `FILE` (sitemap crawl --state) giving the pages' titles")
	o.add(c)
	return c
}

func runHTML(ctx context.Context, o *htmlOptions, s *streams) error {
	if o.Output == "" {
		return cannotRun("-o is required: the directory to write the pages into (with --document, a file or -)")
	}
	if o.PerPage < 1 {
		return cannotRun("--per-page must be at least 1")
	}
	css := ""
	if o.CSS != "" {
		b, err := os.ReadFile(o.CSS)
		if err != nil {
			return cannotRun("--css: %v", err)
		}
		css = string(b)
	}
	dp := report.NewPrinter(s.Err, o.Quiet)
	in, err := o.inputOptions(s.In, !o.Document, dp.Print)
	if err != nil {
		return cannotRun("%v", err)
	}
	in.JSONL = !o.Document // a CSV or JSONL entry list brings its titles
	if o.Document {
		if len(o.Inputs) != 1 || o.Template != "" || o.State != "" {
			return cannotRun("--document writes the view of one INPUT; it takes no --template or --state")
		}
		if fi, err := os.Stat(o.Inputs[0]); err == nil && fi.IsDir() {
			return cannotRun("--document %s is a directory; give the one sitemap or index of it to view, such as %s", o.Inputs[0], firstSitemapIn(o.Inputs[0]))
		}
		err = store.WriteOutput(o.Output, s.Out, func(w io.Writer) error {
			return writeDocumentView(ctx, o, in, css, w)
		})
	} else {
		err = writeVisitorPages(ctx, o, in, css)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var ee *exitError
		if errors.As(err, &ee) {
			return err
		}
		return cannotRun("%v", err)
	}
	if dp.Errors > 0 {
		return problemsFound()
	}
	return nil
}

// writeDocumentView writes the HTML view of the one input document.
func writeDocumentView(ctx context.Context, o *htmlOptions, in input.Options, css string, w io.Writer) error {
	r, err := input.NewReader(ctx, o.Inputs, in)
	if err != nil {
		return err
	}
	defer r.Close()
	vo := view.Options{Title: o.Title, Lang: o.Lang, CSS: css}
	if urlnorm.IsHTTP(o.Inputs[0]) {
		vo.Self = o.Inputs[0]
	}
	return view.Items(ctx, w, func() (*sitemap.Item, error) {
		e, err := r.Next()
		if err != nil {
			return nil, err
		}
		return &e.Item, nil
	}, vo)
}

// firstSitemapIn names a sitemap file of dir for a message: its index
// sitemap.xml when there is one, else its first *.xml or *.xml.gz, else
// dir/sitemap.xml.
func firstSitemapIn(dir string) string {
	index := filepath.Join(dir, "sitemap.xml")
	if _, err := os.Stat(index); err == nil {
		return index
	}
	for _, pat := range []string{"*.xml", "*.xml.gz"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
			return m[0]
		}
	}
	return index
}

// writeVisitorPages writes the site map pages into o.Output.
func writeVisitorPages(ctx context.Context, o *htmlOptions, in input.Options, css string) error {
	po := view.PageOptions{Title: o.Title, Lang: o.Lang, PerPage: o.PerPage, CSS: css}
	if o.Template != "" {
		b, err := os.ReadFile(o.Template)
		if err != nil {
			return cannotRun("--template: %v", err)
		}
		if po.Template, err = view.ParseTemplate(filepath.Base(o.Template), string(b)); err != nil {
			return cannotRun("--template %s: %v", o.Template, err)
		}
	}
	if o.State != "" {
		st, err := state.OpenCrawlState(ctx, o.State)
		if err != nil {
			return cannotRun("--state %v", err)
		}
		defer st.Close()
		po.Titles = crawl.Titles(st.Crawl())
	}
	fi, err := os.Stat(o.Output)
	isFile := err == nil && !fi.IsDir()
	if ext := strings.ToLower(filepath.Ext(o.Output)); isFile || err != nil && (ext == ".html" || ext == ".htm") {
		return cannotRun("-o %s: the site map is written into a directory (index.html, page-2.html, …): give a directory; --document writes the view of one sitemap into one file", o.Output)
	}
	if err := os.MkdirAll(o.Output, 0o755); err != nil {
		return cannotRun("-o %s: %v", o.Output, err)
	}
	entries := input.Entries(o.Inputs, in)
	sum, err := view.WritePages(ctx, o.Output, entries, po)
	if err != nil {
		return err
	}
	if sum.Links == 0 {
		return nothingRead(o.Inputs, "the site map lists no page")
	}
	return nil
}
