package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/rules"
)

// local prints the URLs of a local START (a file, a directory, "-") read
// through package input: an index's children by input's rule (--base,
// I-05, --allow-off-site), nested indexes to --max-depth, every URL once
// unless --no-dedup (input.Options.SkipDuplicates). The summary and exit status are those of a walk.
func (r *fetchRun) local(ctx context.Context) error {
	o := r.o
	if o.Start != "-" {
		if _, err := os.Stat(o.Start); errors.Is(err, fs.ErrNotExist) {
			msg := o.Start + ": no such file, nor an absolute http(s) URL; give a sitemap file or directory, or a homepage, robots.txt or sitemap URL"
			if !strings.ContainsAny(o.Start, `/\`) && strings.Contains(o.Start, ".") && !fileExt(o.Start) {
				msg += " (did you mean https://" + o.Start + "/?)"
			}
			return cannotRun("%s", msg)
		}
	}
	t0 := time.Now()
	sum := fetch.Summary{Problems: map[string]int{}}
	depth := o.MaxDepth - 1 // the START is level 1
	if depth < 1 {
		depth = 1
	}
	in := input.Options{
		Base: o.Base, Stdin: r.s.In, Follow: true, MaxDepth: depth, AllowOffSite: o.AllowOffSite,
		SkipDuplicates: !o.NoDedup, DedupMemory: int64(o.DedupMemory),
		Decoder: sitemap.DecoderOptions{MaxErrors: decoderMaxErrors(o.MaxErrors)},
		OnDiagnostic: func(d sitemap.Diagnostic) {
			switch d.Severity {
			case sitemap.SeverityError:
				sum.Errors++
				if d.Rule == rules.VAL01 {
					sum.Failed++
				}
			case sitemap.SeverityWarning:
				sum.Warnings++
			default:
				sum.Infos++
			}
			sum.Problems[string(d.Rule)]++
			r.print(&d)
		},
	}
	rd, err := input.NewReader(ctx, []string{o.Start}, in)
	if err != nil {
		return cannotRun("%v", err)
	}
	defer rd.Close()
	var last *input.Doc
	for {
		e, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			r.bar.Done()
			r.out.flush()
			r.errOut.Flush()
			if errors.Is(err, context.Canceled) && ctx.Err() != nil {
				return &exitError{Code: exitUsage, Err: errors.New("fetch interrupted: the URLs above are what was read before the stop")}
			}
			return cannotRun("%v", err)
		}
		if e.Doc != last {
			last = e.Doc
			if err := r.out.flush(); err != nil {
				return cannotRun("writing the output: %v", err)
			}
		}
		sum.Entries++
		if o.MaxURLs > 0 && sum.URLs >= o.MaxURLs {
			sum.Capped = append(sum.Capped, "urls")
			break
		}
		sum.URLs++
		r.bar.Add(1)
		if err := r.out.write(&e.URL); err != nil {
			return cannotRun("writing the output: %v", err)
		}
	}
	r.bar.Done()
	if err := r.out.flush(); err != nil {
		return cannotRun("writing the output: %v", err)
	}
	sum.Duplicates = rd.Duplicates()
	sum.Entries += sum.Duplicates
	sum.Sitemaps = rd.Documents() + sum.Failed // as a walk counts them
	sum.Elapsed = time.Since(t0)
	r.summary(sum)
	r.errOut.Flush()
	if sum.Errors > 0 {
		return problemsFound()
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
