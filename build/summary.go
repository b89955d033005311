package build

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/plural"
	"github.com/sitemapkit/sitemap/internal/progress"
)

// FileSummary describes one file of a run.
type FileSummary struct {
	// Name is the file name in the store.
	Name string `json:"name"`
	// URLs is the number of <url> entries (for the index: of <sitemap>).
	URLs int `json:"urls"`
	// News is the number of entries with a <news:news> block.
	News int `json:"news,omitempty"`
	// Bytes is the uncompressed size, the one the limits apply to (S-02).
	Bytes int64 `json:"bytes"`
	// CompressedBytes is the gzip size; 0 when the file is not compressed.
	CompressedBytes int64 `json:"compressed_bytes,omitempty"`
	// LastMod is the newest lastmod of the file's URLs (the index lastmod
	// of a child, I-09), or for the index the newest of its children's;
	// zero when none has one.
	LastMod sitemap.Date `json:"lastmod,omitzero"`
	// SHA256 is the hex SHA-256 of the file as stored.
	SHA256 string `json:"sha256,omitempty"`
}

// Summary describes a run.
type Summary struct {
	// Files are the sitemaps written, in order (the single sitemap, or the
	// children of the index).
	Files []FileSummary `json:"files"`
	// Index is the sitemap index, when one was written.
	Index *FileSummary `json:"index,omitempty"`
	// URLs is the number of entries written.
	URLs int `json:"urls"`
	// Skipped is the number of entries Add rejected.
	Skipped int `json:"skipped"`
	// NewsStripped is the number of entries whose news block was dropped
	// for age (N-11, Options.NewsMaxAge).
	NewsStripped int `json:"news_stripped,omitempty"`
	// Bytes and CompressedBytes total every file, the index included.
	Bytes           int64 `json:"bytes"`
	CompressedBytes int64 `json:"compressed_bytes,omitempty"`
	// Elapsed is the time from New to the end of Commit.
	Elapsed time.Duration `json:"elapsed_ns"`
	// URLsPerSecond is URLs / Elapsed.
	URLsPerSecond float64 `json:"urls_per_second"`
	// Removed are files of the previous run that were removed (or, in a
	// dry run, would be).
	Removed []string `json:"removed,omitempty"`
	// Kept are files the index this run replaced lists, kept for readers
	// that fetched that index before the switch: the next run removes
	// them (or, in a dry run, would keep).
	Kept []string `json:"kept,omitempty"`
	// DryRun is set when nothing was written.
	DryRun bool `json:"dry_run,omitempty"`
}

// WriteTable writes the summary for people: one row per file with its
// URLs, uncompressed size (the one the limits apply to), gzip size and
// newest lastmod, a total row, and a closing line with the counts, the
// elapsed time and the throughput:
//
//	FILE                    URLS     SIZE  GZIPPED  LASTMOD
//	sitemap-1.xml.gz      50,000  2.7 MiB  133 KiB  2026-11-02
//	sitemap-2.xml.gz      50,000  2.7 MiB  133 KiB  -
//	sitemap-3.xml.gz      20,000  1.1 MiB   54 KiB  -
//	sitemap.xml (index)        3    335 B        -  2026-11-02
//	total                120,000  6.5 MiB  319 KiB
//	120,000 URLs in 3 sitemaps and an index, 0 skipped, 0.16s (735,316 URLs/s)
func (s Summary) WriteTable(w io.Writer) error {
	return s.WriteTableSkipped(w, progress.Group(int64(s.Skipped))+" skipped")
}

// WriteTableSkipped is [Summary.WriteTable] with skipped in place of the
// closing line's "N skipped": a caller that skips entries for more
// reasons than the builder knows says so there ("5 skipped (2 invalid,
// 3 duplicate)"), so the line never contradicts what follows it.
func (s Summary) WriteTableSkipped(w io.Writer, skipped string) error {
	rows := [][]string{{"FILE", "URLS", "SIZE", "GZIPPED", "LASTMOD"}}
	file := func(name string, f FileSummary) {
		lm := "-"
		if !f.LastMod.IsZero() {
			lm = f.LastMod.String()
		}
		rows = append(rows, []string{name, progress.Group(int64(f.URLs)), progress.Bytes(f.Bytes), gz(f.CompressedBytes), lm})
	}
	for _, f := range s.Files {
		file(f.Name, f)
	}
	if s.Index != nil {
		file(s.Index.Name+" (index)", *s.Index)
	}
	rows = append(rows, []string{"total", progress.Group(int64(s.URLs)), progress.Bytes(s.Bytes), gz(s.CompressedBytes), ""})
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		line := ""
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0:
				line += c + pad // file names read left-aligned
			case i == len(r)-1:
				line += "  " + c // lastmod: left-aligned, last
			default:
				line += "  " + pad + c // numbers right-aligned
			}
		}
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	files := plural.Of(len(s.Files), "sitemap", "sitemaps")
	if s.Index != nil {
		files += " and an index"
	}
	line := fmt.Sprintf("%s in %s, %s", plural.Of(s.URLs, "URL", "URLs"), files, skipped)
	if s.NewsStripped > 0 {
		line += fmt.Sprintf(", %s dropped for age (N-11)", plural.Of(s.NewsStripped, "news block", "news blocks"))
	}
	line += fmt.Sprintf(", %.2fs (%s URLs/s)", s.Elapsed.Seconds(), progress.Group(int64(s.URLsPerSecond)))
	if s.DryRun {
		line += "; dry run, nothing written"
	}
	if _, err := fmt.Fprintln(w, line); err != nil {
		return err
	}
	if len(s.Removed) > 0 {
		verb := "removed"
		if s.DryRun {
			verb = "would remove"
		}
		if _, err := fmt.Fprintf(w, "%s %s: %s\n", verb, plural.Of(len(s.Removed), "file", "files"), strings.Join(s.Removed, " ")); err != nil {
			return err
		}
	}
	if len(s.Kept) > 0 {
		verb := "kept"
		if s.DryRun {
			verb = "would keep"
		}
		if _, err := fmt.Fprintf(w, "%s %s the replaced index lists, for readers that fetched it; the next run removes them\n", verb, plural.Of(len(s.Kept), "file", "files")); err != nil {
			return err
		}
	}
	return nil
}

func gz(n int64) string {
	if n == 0 {
		return "-"
	}
	return progress.Bytes(n)
}
