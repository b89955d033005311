package build

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
)

// IndexMode says when a run writes a sitemap index (I-01).
type IndexMode uint8

const (
	// IndexAuto writes an index only when the entries need more than one
	// sitemap; a single sitemap is then NAME.xml itself.
	IndexAuto IndexMode = iota
	// IndexAlways writes NAME.xml as an index even over a single child.
	IndexAlways
	// IndexNever writes one sitemap and fails when the entries need more.
	IndexNever
)

// String returns "auto", "always" or "never".
func (m IndexMode) String() string {
	switch m {
	case IndexAuto:
		return "auto"
	case IndexAlways:
		return "always"
	case IndexNever:
		return "never"
	}
	return "IndexMode(" + strconv.Itoa(int(m)) + ")"
}

// ParseIndexMode parses "auto", "always" or "never" (for command-line
// flags).
func ParseIndexMode(s string) (IndexMode, error) {
	switch s {
	case "auto":
		return IndexAuto, nil
	case "always":
		return IndexAlways, nil
	case "never":
		return IndexNever, nil
	}
	return 0, fmt.Errorf("index mode %q: use auto, always or never", s)
}

// DefaultGzipLevel is the compression level used when Options.GzipLevel is
// zero: klauspost/compress's fastest deflate level. Sitemaps compress about
// 10:1 at this level and generation stays I/O-bound; raise the level for
// somewhat smaller files at a large cost in speed (see BenchmarkBuild1M).
const DefaultGzipLevel = gzip.BestSpeed

// Options configure a Builder. The zero value of every field is a usable
// default except BaseURL, which an index needs.
type Options struct {
	// Name is the base of every file name (docs/CONVENTIONS.md): NAME.xml is the
	// single sitemap or the index; the children are NAME-1-HASH.xml,
	// NAME-2-HASH.xml, … where HASH is the first 12 hex digits of the
	// SHA-256 of the file as stored, so a child's name changes exactly
	// when its content does (.xml.gz when compressed). Default "sitemap";
	// a name ending in .xml or .xml.gz is refused (it would make
	// sitemap.xml.xml).
	Name string
	// BaseURL is where the files are served, for example
	// "https://www.example.com/" or "https://www.example.com/sitemaps/";
	// index locs are BaseURL + file name. A missing final "/" is added;
	// a URL whose last segment is a sitemap file (…/sitemap.xml) is
	// refused, with its directory to give instead. Required when an index
	// is written.
	BaseURL string
	// SiteURL is the scope every entry's loc must be in (L-09): by default
	// BaseURL. With neither set, the scope is not checked.
	SiteURL string
	// Gzip compresses the sitemaps (NAME-N.xml.gz, or NAME.xml.gz when
	// there is one). The size limits apply before compression (S-02).
	Gzip bool
	// GzipLevel is the gzip level, 1 (fastest) to 9 (smallest); 0 means
	// DefaultGzipLevel.
	GzipLevel int
	// GzipIndex compresses the index as well (NAME.xml.gz). Off by default:
	// an uncompressed index is what robots.txt and people read.
	GzipIndex bool
	// Index says when an index is written. Into a store.Writer, which
	// takes one file, IndexAuto works as IndexNever (entries that need
	// more than one sitemap are a *NeedIndexError, nothing written) and
	// IndexAlways is refused.
	Index IndexMode
	// MaxURLs lowers the URLs per sitemap below sitemap.MaxURLs (S-01, S-07);
	// 0 means sitemap.MaxURLs.
	MaxURLs int
	// MaxBytes lowers the uncompressed bytes per sitemap below
	// sitemap.MaxBytes (S-02, S-07); 0 means sitemap.MaxBytes. The count
	// includes the XML declaration, the root tag and the closing tag. The
	// index is held to sitemap.MaxBytes (S-03) whatever this is.
	MaxBytes int
	// MaxNews lowers the <news:news> entries per sitemap below
	// sitemap.MaxNewsPerSitemap (N-10); 0 means the maximum.
	MaxNews int
	// NewsMaxAge, when > 0, strips the <news:news> block from entries whose
	// news publication date is older than that, relative to Now (N-11);
	// the entry itself stays. 48 hours is Google's window.
	NewsMaxAge time.Duration
	// Stylesheet is the href of an optional xml-stylesheet processing
	// instruction in every file written.
	Stylesheet string
	// Legacy also writes the deprecated extension tags (IM-04, V-04, N-09).
	Legacy bool
	// DryRun computes the summary (sizes included) without writing to the
	// store: nothing is published and nothing is removed.
	DryRun bool
	// Now is the clock for the summary's elapsed time and the news age of
	// NewsMaxAge; it is never used for a lastmod (M-05, I-09). Default
	// time.Now.
	Now func() time.Time
	// TempDir is where the bodies of sitemaps being built are spilled;
	// default os.TempDir(). The files are unlinked as soon as they are
	// created, so a killed run leaves nothing there.
	TempDir string
}

// resolved holds the checked options.
type resolved struct {
	Options
	base   string   // BaseURL with a final "/"
	scope  *url.URL // entry scope (nil: none)
	iscope *url.URL // index loc scope (nil: none)
	// oneFile: the store takes one file (store.Writer); Index was
	// IndexAuto and is IndexNever.
	oneFile bool
}

func (o Options) resolve() (*resolved, error) {
	r := &resolved{Options: o}
	if r.Name == "" {
		r.Name = "sitemap"
	}
	if base, ext := splitSitemapExt(r.Name); ext != "" {
		return nil, fmt.Errorf("build: name %q: give it without %s, such as %q (the files are NAME.xml, NAME-1-HASH.xml, …)", r.Name, ext, base)
	}
	if !plainName(r.Name) {
		return nil, fmt.Errorf("build: name %q: use letters, digits, '-', '_' and '.', not starting with '.' (it becomes part of file names and URLs)", r.Name)
	}
	if r.GzipLevel == 0 {
		r.GzipLevel = DefaultGzipLevel
	}
	if r.GzipLevel < 1 || r.GzipLevel > 9 {
		return nil, fmt.Errorf("build: gzip level %d: use 1 (fastest) to 9 (smallest)", r.GzipLevel)
	}
	if r.MaxURLs == 0 {
		r.MaxURLs = sitemap.MaxURLs
	}
	if r.MaxURLs < 1 || r.MaxURLs > sitemap.MaxURLs {
		return nil, fmt.Errorf("build: max URLs %d: use 1 to %d (S-01)", r.MaxURLs, sitemap.MaxURLs)
	}
	if r.MaxBytes == 0 {
		r.MaxBytes = sitemap.MaxBytes
	}
	if r.MaxBytes < 1 || r.MaxBytes > sitemap.MaxBytes {
		return nil, fmt.Errorf("build: max bytes %d: use 1 to %d (S-02)", r.MaxBytes, sitemap.MaxBytes)
	}
	if r.MaxNews == 0 {
		r.MaxNews = sitemap.MaxNewsPerSitemap
	}
	if r.MaxNews < 1 || r.MaxNews > sitemap.MaxNewsPerSitemap {
		return nil, fmt.Errorf("build: max news %d: use 1 to %d (N-10)", r.MaxNews, sitemap.MaxNewsPerSitemap)
	}
	if r.Index > IndexNever {
		return nil, fmt.Errorf("build: unknown index mode %d", r.Index)
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	if r.BaseURL != "" {
		u, err := absURL(r.BaseURL, "base URL")
		if err != nil {
			return nil, err
		}
		if u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("build: base URL %q has a query or fragment; give the directory the sitemaps are served from", r.BaseURL)
		}
		if err := baseNamesFile(u, r.BaseURL); err != nil {
			return nil, err
		}
		r.base = r.BaseURL
		if !strings.HasSuffix(r.base, "/") {
			r.base += "/"
		}
		r.iscope, _ = url.Parse(r.base)
		// Fail now, not after every sitemap is written, when the index
		// locs would be refused (L-01..L-07 on BaseURL + file name).
		probe := sitemap.IndexEntry{Loc: r.base + r.childName(1)}
		if err := (sitemap.EncoderOptions{Index: true, Scope: r.iscope}).CheckIndexEntry(&probe); err != nil {
			return nil, fmt.Errorf("build: base URL %q cannot prefix index locs: %w", r.BaseURL, err)
		}
	}
	if r.Index == IndexAlways && r.base == "" {
		return nil, errors.New("build: an index needs the base URL the sitemaps are served from (index locs are absolute, I-02)")
	}
	site := r.SiteURL
	if site == "" {
		site = r.base
	}
	if site != "" {
		u, err := absURL(site, "site URL")
		if err != nil {
			return nil, err
		}
		r.scope = u
	}
	return r, nil
}

func absURL(s, what string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("build: %s %q is not an absolute http(s) URL; use https://www.example.com/", what, s)
	}
	return u, nil
}

// File names (docs/CONVENTIONS.md "Files the project writes").

func (r *resolved) singleName() string {
	if r.Gzip {
		return r.Name + ".xml.gz"
	}
	return r.Name + ".xml"
}

func (r *resolved) childName(n int) string {
	s := r.Name + "-" + strconv.Itoa(n) + ".xml"
	if r.Gzip {
		s += ".gz"
	}
	return s
}

func (r *resolved) indexName() string {
	if r.GzipIndex {
		return r.Name + ".xml.gz"
	}
	return r.Name + ".xml"
}

// contentHashLen is how many hex digits of a child's SHA-256 its name
// carries: 48 bits, so that two different children of one position in
// consecutive runs get the same name with a chance of one in 2^48.
const contentHashLen = 12

// contentName is the name of the n-th child of an index whose bytes as
// stored have the hex SHA-256 sum: NAME-N-HASH.xml[.gz].
func (r *resolved) contentName(n int, sum string) string {
	s := r.Name + "-" + strconv.Itoa(n) + "-" + sum[:contentHashLen] + ".xml"
	if r.Gzip {
		s += ".gz"
	}
	return s
}

// manifestSuffix names the manifest earlier versions wrote
// (NAME.manifest.json).
const manifestSuffix = ".manifest.json"

// journalName is the journal earlier versions kept while publishing; New
// has the store finish one such a version's killed run left behind.
func (r *resolved) journalName() string { return r.Name + ".publish-journal" }

// nameKind sorts the file names of a set.
type nameKind uint8

const (
	kindNone        nameKind = iota // not a name of this set
	kindTop                         // NAME.xml, NAME.xml.gz: the single sitemap or the index
	kindChild                       // NAME-N-HASH.xml[.gz]: a child named by its content
	kindLegacyChild                 // NAME-N.xml[.gz]: a child as earlier versions named it
	kindManifest                    // NAME.manifest.json, of earlier versions
)

// kind says what name is to a set of this Name. N has at most five
// digits and no leading zero (an index lists at most 50,000 children).
func (r *resolved) kind(name string) nameKind {
	rest, ok := strings.CutPrefix(name, r.Name)
	if !ok {
		return kindNone
	}
	if rest == manifestSuffix {
		return kindManifest
	}
	rest = strings.TrimSuffix(rest, ".gz")
	rest, ok = strings.CutSuffix(rest, ".xml")
	if !ok {
		return kindNone
	}
	if rest == "" {
		return kindTop
	}
	rest, ok = strings.CutPrefix(rest, "-")
	if !ok {
		return kindNone
	}
	digits, hash, hashed := strings.Cut(rest, "-")
	if digits == "" || len(digits) > 5 || digits[0] == '0' || strings.Trim(digits, "0123456789") != "" {
		return kindNone
	}
	if !hashed {
		return kindLegacyChild
	}
	if len(hash) != contentHashLen || strings.Trim(hash, "0123456789abcdef") != "" {
		return kindNone
	}
	return kindChild
}

// owns reports whether name is one of the names a run with this Name
// writes or earlier versions wrote: NAME.xml[.gz], NAME-N-HASH.xml[.gz],
// NAME-N.xml[.gz], NAME.manifest.json.
func (r *resolved) owns(name string) bool { return r.kind(name) != kindNone }

// plainName reports whether s is safe as the base of file names and as a
// URL path segment without escaping: [A-Za-z0-9._-], not starting with '.'.
// baseNamesFile refuses a base URL u (raw as given) whose last segment is
// a sitemap file: taken as a directory, it put every entry out of scope
// (L-09) and the index's children below a file.
func baseNamesFile(u *url.URL, raw string) error {
	i := strings.LastIndexByte(u.Path, '/')
	if i < 0 {
		return nil
	}
	if _, ext := splitSitemapExt(u.Path[i+1:]); ext == "" {
		return nil
	}
	d := *u
	d.Path, d.RawPath = u.Path[:i+1], ""
	return fmt.Errorf("build: base URL %q names a file; give the directory the sitemaps are served from, %s", raw, d.String())
}

// splitSitemapExt splits a file name ending in .xml or .xml.gz (any case)
// into its base and that extension; ext is "" for any other name.
func splitSitemapExt(name string) (base, ext string) {
	l := strings.ToLower(name)
	for _, e := range []string{".xml.gz", ".xml"} {
		if strings.HasSuffix(l, e) && len(l) > len(e) {
			return name[:len(name)-len(e)], name[len(name)-len(e):]
		}
	}
	return name, ""
}

func plainName(s string) bool {
	if s == "" || s[0] == '.' {
		return false
	}
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}
