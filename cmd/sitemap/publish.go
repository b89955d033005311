package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
)

// publishFlags are the output flags generate and crawl share: where the
// sitemaps go, how they are named, split and compressed.
type publishFlags struct {
	Out       string
	Name      string
	Gzip      bool
	GzipLevel int
	GzipIndex bool
	Index     string
	MaxURLs   int
	MaxBytes  int
}

// register adds the flags to f, in the order --help shows them.
func (p *publishFlags) register(f *pflag.FlagSet) {
	f.StringVar(&p.Out, "out", ".", "directory to write the sitemaps into (created when missing)")
	f.StringVar(&p.Name, "name", "sitemap", "base name of the files: NAME.xml, NAME-1.xml, …")
	f.BoolVar(&p.Gzip, "gzip", false, "compress the sitemaps (NAME-1.xml.gz, …)")
	f.IntVar(&p.GzipLevel, "gzip-level", build.DefaultGzipLevel, "gzip level, 1 (fastest) to 9 (smallest)")
	f.BoolVar(&p.GzipIndex, "gzip-index", false, "compress the index too")
	f.StringVar(&p.Index, "index", "auto", "write an index: auto (when more than one sitemap), always, never")
	f.IntVar(&p.MaxURLs, "max-urls", sitemap.MaxURLs, "most URLs per sitemap (S-01)")
	f.IntVar(&p.MaxBytes, "max-bytes", sitemap.MaxBytes, "most uncompressed bytes per sitemap (S-02)")
}

// buildOptions checks the flags (exit 2 on a bad value) and returns the
// build options they set; the caller adds BaseURL and the rest.
func (p *publishFlags) buildOptions() (build.Options, error) {
	mode, err := build.ParseIndexMode(p.Index)
	if err != nil {
		return build.Options{}, cannotRun("--index: %v", err)
	}
	// The library reads 0 as "the default"; on the command line a 0 is
	// a mistake, not a request for the default.
	if p.MaxURLs < 1 || p.MaxURLs > sitemap.MaxURLs {
		return build.Options{}, cannotRun("--max-urls %d: use 1 to %d (S-01)", p.MaxURLs, sitemap.MaxURLs)
	}
	if p.MaxBytes < 1 || p.MaxBytes > sitemap.MaxBytes {
		return build.Options{}, cannotRun("--max-bytes %d: use 1 to %d (S-02)", p.MaxBytes, sitemap.MaxBytes)
	}
	if p.GzipIndex && mode == build.IndexNever {
		return build.Options{}, cannotRun("--gzip-index with --index never: there is no index to compress; drop --gzip-index, or give --index auto or always")
	}
	if p.GzipLevel < 1 || p.GzipLevel > 9 {
		return build.Options{}, cannotRun("--gzip-level %d: use 1 (fastest) to 9 (smallest)", p.GzipLevel)
	}
	return build.Options{
		Name: p.Name, Gzip: p.Gzip, GzipLevel: p.GzipLevel, GzipIndex: p.GzipIndex,
		Index: mode, MaxURLs: p.MaxURLs, MaxBytes: p.MaxBytes,
	}, nil
}

// warnNoIndex says, after a run that published sum, that --gzip-index
// had nothing to compress because no index was written.
func (p *publishFlags) warnNoIndex(w io.Writer, sum build.Summary) {
	if p.GzipIndex && sum.Index == nil && len(sum.Files) > 0 {
		fmt.Fprintf(w, "sitemap: warning: --gzip-index: no index was written (the entries fit in one sitemap), so nothing was compressed as one; --gzip compresses the sitemap itself, --index always writes an index\n")
	}
}

// dryRunState returns the path of a copy of the state file path (with
// its SQLite journal files, when there are any) in a new temporary
// directory, or of a new file there when path does not exist; the caller
// removes the directory. generate and crawl --dry-run read their state
// through it, so a dry run writes nothing.
func dryRunState(path string) (string, error) {
	dir, err := os.MkdirTemp("", "sitemap-crawl-dry-run-")
	if err != nil {
		return "", err
	}
	tmp := filepath.Join(dir, "state.db")
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		b, err := os.ReadFile(path + suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil {
			err = os.WriteFile(tmp+suffix, b, 0o600)
		}
		if err != nil {
			os.RemoveAll(dir)
			return "", fmt.Errorf("copying the state file %s: %w", path+suffix, err)
		}
	}
	return tmp, nil
}
