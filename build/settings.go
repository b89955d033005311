package build

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Settings are the Options of the files a run writes as a person gives
// them (the output flags of `sitemap generate` and `sitemap crawl`,
// named alike): every limit explicit, where Options reads 0 as its
// default, and the index mode as text.
type Settings struct {
	// Name is the files' base name, without .xml: NAME.xml, NAME-1.xml, …
	Name      string
	Gzip      bool
	GzipLevel int // 1 (fastest) to 9 (smallest)
	GzipIndex bool
	Index     string // auto, always or never (ParseIndexMode)
	MaxURLs   int    // 1 to sitemap.MaxURLs (S-01)
	MaxBytes  int    // minMaxBytes() (a sitemap of one short URL) to sitemap.MaxBytes (S-02)
}

// DefaultSettings are the settings of a run that gives none.
func DefaultSettings() Settings {
	return Settings{Name: "sitemap", GzipLevel: DefaultGzipLevel, Index: "auto", MaxURLs: sitemap.MaxURLs, MaxBytes: sitemap.MaxBytes}
}

// Options checks s and returns the Options it sets; the caller adds
// BaseURL and the rest. An error names the setting as its flag
// (--max-urls) and says what to give instead. A 0 limit is refused: on a
// command line it is a mistake, not a request for the default.
func (s Settings) Options() (Options, error) {
	mode, err := ParseIndexMode(s.Index)
	switch {
	case err != nil:
		return Options{}, fmt.Errorf("--index: %v", err)
	case s.MaxURLs < 1 || s.MaxURLs > sitemap.MaxURLs:
		return Options{}, fmt.Errorf("--max-urls %d: use 1 to %d (S-01)", s.MaxURLs, sitemap.MaxURLs)
	case s.MaxBytes < minMaxBytes() || s.MaxBytes > sitemap.MaxBytes:
		return Options{}, fmt.Errorf("--max-bytes %d: use %d to %d (S-02); a sitemap holding one short URL has %d bytes with its header and closing tag", s.MaxBytes, minMaxBytes(), sitemap.MaxBytes, minMaxBytes())
	case s.GzipIndex && mode == IndexNever:
		return Options{}, fmt.Errorf("--gzip-index with --index never: there is no index to compress; drop --gzip-index, or give --index auto or always")
	case s.GzipLevel < 1 || s.GzipLevel > 9:
		return Options{}, fmt.Errorf("--gzip-level %d: use 1 (fastest) to 9 (smallest)", s.GzipLevel)
	}
	if err := CheckName(s.Name); err != nil {
		return Options{}, err
	}
	return Options{
		Name: s.Name, Gzip: s.Gzip, GzipLevel: s.GzipLevel, GzipIndex: s.GzipIndex,
		Index: mode, MaxURLs: s.MaxURLs, MaxBytes: s.MaxBytes,
	}, nil
}

// minMaxBytes is the smallest byte limit (Settings.MaxBytes) a sitemap
// can keep: the header, the closing tag and one entry of a short URL
// ("http://a.bc/"). Below it every entry would be refused.
func minMaxBytes() int {
	var o sitemap.EncoderOptions
	u, _ := o.AppendURL(nil, &sitemap.URL{Loc: "http://a.bc/"})
	return len(o.AppendHeader(nil)) + len(u) + len(o.Trailer())
}

// ParseShard parses a shard of a set, "K/N" with 1 <= K <= N (for
// `sitemap generate --shard`): shard K's files are named ShardName(name, K).
func ParseShard(s string) (k, n int, err error) {
	ks, ns, ok := strings.Cut(s, "/")
	k, kerr := strconv.Atoi(ks)
	n, nerr := strconv.Atoi(ns)
	if !ok || kerr != nil || nerr != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("--shard %q: give K/N with 1 <= K <= N, such as --shard 2/3", s)
	}
	return k, n, nil
}

// CheckName refuses a --name that ends in the extension the files get
// (--name sitemap.xml would write sitemap.xml.xml), or that cannot be
// part of a file name and a URL (a "/", a space, a leading "."); "" is
// the default name.
func CheckName(name string) error {
	for _, ext := range []string{".xml.gz", ".xml"} {
		if base, ok := strings.CutSuffix(name, ext); ok && base != "" {
			return fmt.Errorf("--name %s: give the base name without the extension: --name %s (the files are %s.xml, %s-1.xml, …)", name, base, base, base)
		}
	}
	if name != "" && !plainName(name) {
		return fmt.Errorf("--name %q: use letters, digits, '-', '_' and '.', not starting with '.' (it becomes part of file names and URLs)", name)
	}
	return nil
}

// CheckURLSetting refuses the value of a URL setting (--base-url,
// --site-url) that the builder cannot use, not an absolute http(s) URL,
// in an error naming the flag, before a run reads its input.
func CheckURLSetting(flag, v string) error {
	if _, err := absURL(v, flag); err != nil {
		return fmt.Errorf("%s %q is not an absolute http(s) URL; give one such as https://www.example.com/", flag, v)
	}
	return nil
}

// NormalURLSetting returns the value of a URL setting (--base-url,
// --site-url) in its normal form (urlnorm.Normalize, L-18), as the
// entries are written: a punycode, lower-case host, no default port or
// fragment, percent-encoded. A rewrite is said on w ("sitemap: --base-url
// … written as …"), but for the slash of an empty path
// (https://www.example.com). A value with no normal form is returned as
// it is, for the builder to refuse with its reason.
func NormalURLSetting(flag, v string, w io.Writer) string {
	n, ch, err := urlnorm.Normalize(v)
	if err != nil || ch == 0 {
		return v
	}
	if ch&^urlnorm.ChangedPath != 0 {
		fmt.Fprintf(w, "sitemap: %s %q written as %q (%s; L-18)\n", flag, check.EscapeControls(v), n, ch)
	}
	return n
}

// StdoutOptions checks the settings that cannot go with one sitemap
// written to standard output (--out -): Index "always", and asJSON
// (--json, whose summary would go there too) or xsl (--xsl, which writes
// sitemap.xsl beside the sitemaps); it makes o's index mode IndexNever.
// An error names the flags and says what to give instead.
func (s Settings) StdoutOptions(o *Options, asJSON, xsl bool) error {
	switch {
	case s.Index == "always":
		return errors.New("--out - writes one sitemap to standard output, which cannot hold an index and its children; give --out DIR for --index always")
	case asJSON:
		return errors.New("--out - writes the sitemap to standard output, where --json would print the summary; drop --json (the summary goes to standard error)")
	case xsl:
		return errors.New("--out - writes one sitemap to standard output; --xsl writes sitemap.xsl beside the sitemaps, which needs --out DIR")
	}
	o.Index = IndexNever
	return nil
}

// WarnNoIndex says on w, after a run that published sum, that GzipIndex
// had nothing to compress because no index was written; nothing else.
func (s Settings) WarnNoIndex(w io.Writer, sum Summary) {
	if s.GzipIndex && sum.Index == nil && len(sum.Files) > 0 {
		fmt.Fprintf(w, "sitemap: warning: --gzip-index: no index was written (the entries fit in one sitemap), so nothing was compressed as one; --gzip compresses the sitemap itself, --index always writes an index\n")
	}
}
