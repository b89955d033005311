package input

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/internal/ctxio"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Doc is one document to read.
type Doc struct {
	// Name names the document in diagnostics and as the Source of its
	// entries: the path, "-" or the URL.
	Name string
	// URL is where the document is served: the base of the scope rules
	// and of its children's mapping ("" when unknown).
	URL string
	// Path is the local file ("" for standard input and URLs).
	Path string
	// Stdin is set for standard input.
	Stdin bool
	// Index is the URL (or, when unknown, the Name) of the index that
	// listed this document; "" for a named input.
	Index string
	// Loc is the loc the index listed ("" for a named input).
	Loc string
	// Depth is 0 for a named input, 1 for a child of an index, and so on.
	Depth int

	// indexURL is the index's URL when known: a redirect of this child
	// to another site is refused (I-05).
	indexURL string
	// firstChild, for a local index whose URL is unknown, is the first
	// child loc Child saw: its site stands for the index's (I-05).
	firstChild string
	// final is the URL that answered an HTTP document after redirects,
	// once it is open ("" when it answered at URL).
	final string
	// s3 is the s3://bucket/key URL of an object input ("" otherwise).
	s3 string
	// dir, for the files of a directory input, is the set of its files:
	// an index among them does not read those again as children.
	dir map[string]bool
}

// FinalURL is the URL that answered for an HTTP document after redirects,
// once [Open] has opened it: "" when it answered at its URL, or when it
// is not open or not read over HTTP.
func (d *Doc) FinalURL() string { return d.final }

// IsHTTP reports whether d is fetched over HTTP.
func (d *Doc) IsHTTP() bool { return d.Path == "" && !d.Stdin && d.s3 == "" }

// Sibling reports whether d and child are files of the same directory
// input: an index's child that is a file of the directory is read in its
// own turn, not again as a child.
func (d *Doc) Sibling(child *Doc) bool { return d.dir != nil && child.Path != "" && d.dir[child.Path] }

// Options configure how names are resolved and documents opened and
// read. The zero value reads files and standard input (if Stdin is set)
// and follows no children.
type Options struct {
	// Base is where local inputs are served: a directory URL ending in "/"
	// (each file's URL is Base plus its name), or the URL of the one file.
	// A site's root may be written without its "/" (https://www.example.com
	// is https://www.example.com/, a directory). It must be an http(s) URL.
	// Empty: unknown.
	Base string
	// Stdin is read for the name "-" (nil: "-" is refused). A read of it
	// that waits (a terminal, a silent pipe) returns when the context is
	// done: the Reader's Next then returns an error.
	Stdin io.Reader
	// Client fetches http(s) documents: its User-Agent, timeouts, size
	// cap and retries apply (nil: http(s) names cannot be opened).
	Client *fetch.Client

	// Follow makes [Entries] and [DocEntries] read the children of an
	// index instead of its entries, through [Walk]. A [Reader] does not
	// follow: it returns an index's entries.
	Follow bool
	// MaxDepth is how many levels of children a walk follows below a
	// named input (0: the walk's default, fetch.Options.MaxDepth; 1: an
	// index and its children). A child that is an index too is followed
	// with an I-07 warning; past the depth, one FETCH-CAP warning.
	MaxDepth int
	// MaxChildren is the most children of one index followed (0: 1000,
	// DefaultMaxChildren; negative: none); past it one VAL-02 warning says
	// how many were skipped.
	MaxChildren int
	// AllowOffSite follows the children of an index on another scheme,
	// host or port than the index, and their redirects there; each is
	// still reported (I-05, a warning).
	AllowOffSite bool
	// Concurrency is how many sitemaps a walk reads at once (0: one, so
	// the entries come in a stable order, each named input followed by its
	// tree; more: faster over HTTP, in the order they arrive).
	Concurrency int
	// Siblings makes a walk read a file of a directory input that an
	// index of the same directory lists as the index's child, before the
	// files after the index (read once: its own turn is then skipped), as
	// validate.Tree checks it with its index. Without it, such a file
	// is read in its own turn only.
	Siblings bool
	// FilesOnly makes [Resolve] take a directory for a file like any other
	// name (Open then refuses it): for inputs that are entry lists, not
	// sitemaps.
	FilesOnly bool
	// JSONL reads a document as entry records (package source), with
	// their titles, rather than as a sitemap: JSONL when its name ends in
	// .jsonl or .ndjson (optionally .gz) or its first character is '{',
	// CSV with a header row when its name ends in .csv (optionally .gz);
	// a crawler export's rows that are no page to list (SRC-07, SRC-08,
	// SRC-09) are left out at info level ([Reader]).
	JSONL bool
	// Progress, when set, is told of each local file's size when it is
	// opened (read 0) and of the bytes read from it as they are read
	// (size 0), from the goroutine reading: a progress line's bytes read
	// of the files' size. The file is then read through a counting
	// reader rather than as the *os.File it is.
	Progress func(read, size int64)
	// Complete makes a [Reader] stop with an error at the first document
	// it cannot read to its end (a child missing or unreadable, truncated,
	// not a sitemap), instead of reporting it and going on: for a
	// comparison, where a partial side would show false removals.
	Complete bool

	// SkipDuplicates makes a [Reader] return each URL loc once: a loc it
	// returned before, in any spelling of it (locs compare in their
	// normal form, urlnorm.Key), is skipped and counted
	// ([Reader.Duplicates]); the first spelling read is returned. The
	// locs seen are kept as 128-bit hashes in DedupMemory bytes (0: 64 MiB),
	// then in a temporary file, so memory has a ceiling whatever the
	// number of URLs.
	SkipDuplicates bool
	DedupMemory    int64

	// Decoder holds the decoder's caps; Name, BaseURL and OnDiagnostic
	// are set per document. With its ReuseValues, the strings of an
	// entry [Reader.Next] returns are valid until the next call (a
	// reader that looks at each entry once reads any document in a few
	// kilobytes); the Reader copies what it keeps, the locs of the
	// children to follow.
	Decoder sitemap.DecoderOptions
	// OnDiagnostic receives every problem found while reading, in order
	// (may be nil).
	OnDiagnostic func(sitemap.Diagnostic)
}

func (o *Options) diag(d sitemap.Diagnostic) {
	if o.OnDiagnostic != nil {
		o.OnDiagnostic(d)
	}
}

// DefaultMaxChildren is [Options.MaxChildren] when zero.
const DefaultMaxChildren = 1000

// StdinName is the name of standard input ("-" on a command line) in
// positions, diagnostics and the source of entries read from it.
const StdinName = "<stdin>"

// CheckBase refuses a Base (--base) given with names that are all http(s)
// URLs: it says where local files are served, and a URL is served at
// itself (its own scope), so it would be ignored without a word. The
// error says to leave it out; nil for an empty base or no names.
func CheckBase(base string, names []string) error {
	if base == "" || len(names) == 0 {
		return nil
	}
	for _, name := range names {
		if !urlnorm.IsHTTP(name) {
			return nil
		}
	}
	return fmt.Errorf("--base is for local files (where they are served); %s is a URL, served at itself: leave --base out", names[0])
}

// EmptyError is the error of a run whose inputs were read and listed no
// URL (no sitemap found at a homepage, an empty sitemap, a document that
// is not a sitemap): a problem found, as fetch and validate say, not a
// failure to run. Its message names the inputs and what could not be
// done ("no URL read from a.xml: nothing to draw").
type EmptyError struct {
	// Names are the inputs read; What says what the run could not do.
	Names []string
	What  string
}

func (e *EmptyError) Error() string {
	return fmt.Sprintf("no URL read from %s: %s", strings.Join(e.Names, ", "), e.What)
}

// Resolve turns names into the documents to read, in order: a directory
// becomes its sitemap files (see the package comment), "-" standard input
// (at most once), an http(s) URL itself, anything else a local file
// (whether it exists is found when it is opened). It fails on a second
// "-", on a Base that is not an http(s) URL, on a directory that cannot
// be listed or holds no sitemap file.
func Resolve(names []string, o Options) ([]Doc, error) {
	if o.Base != "" && !urlnorm.IsHTTP(o.Base) {
		eg := "https://www.example.com/"
		if !strings.Contains(o.Base, "://") && !strings.HasPrefix(o.Base, "/") && strings.Contains(o.Base, ".") {
			eg = "https://" + strings.TrimSuffix(o.Base, "/") + "/" // a bare host or host/dir
		}
		return nil, fmt.Errorf("--base %q is not an http(s) URL; give the URL the files are served at, such as %s", o.Base, eg)
	}
	o.Base = rootDir(o.Base)
	var docs []Doc
	stdin := false
	for _, name := range names {
		switch {
		case name == "":
			// Taken for an http(s) URL without a client, or requested.
			return nil, errors.New(`an empty input name; give a file, a directory, "-" for standard input, or an http(s) URL`)
		case name == "-":
			if stdin {
				return nil, errors.New("standard input (-) given more than once")
			}
			stdin = true
			// Named <stdin> in every message and record, in every
			// command (generate and robots too).
			docs = append(docs, Doc{Name: StdinName, URL: o.Base, Stdin: true})
			continue
		case urlnorm.IsHTTP(name):
			// Refused here, not requested (and retried) to fail.
			if u, err := url.Parse(name); err != nil || u.Hostname() == "" {
				why := "no host"
				if err != nil {
					why = strings.TrimPrefix(err.Error(), "parse "+strconv.Quote(name)+": ")
				}
				return nil, fmt.Errorf("%s: not a valid http(s) URL (%s); give a full URL such as https://www.example.com/sitemap.xml", name, why)
			}
			docs = append(docs, Doc{Name: name, URL: name})
			continue
		case store.IsS3(name):
			if _, key, err := store.ParseS3(name); err != nil || key == "" {
				return nil, fmt.Errorf("%s: name an object, s3://bucket/key", name)
			}
			docs = append(docs, Doc{Name: name, s3: name, URL: fileURL(o.Base, path.Base(name))})
			continue
		}
		if fi, err := os.Stat(name); err == nil && fi.IsDir() && !o.FilesOnly {
			ds, err := dirDocs(name, dirBase(o.Base))
			if err != nil {
				return nil, err
			}
			docs = append(docs, ds...)
			continue
		}
		docs = append(docs, Doc{Name: name, Path: name, URL: fileURL(o.Base, filepath.Base(name))})
	}
	return docs, nil
}

// rootDir is base with the "/" of an empty path added: a URL with no path
// names the site's root directory (RFC 3986, 6.2.3), not a file.
func rootDir(base string) string {
	if u, err := url.Parse(base); base != "" && err == nil && u.Path == "" && u.RawPath == "" && u.Opaque == "" && !u.ForceQuery && u.RawQuery == "" && u.Fragment == "" {
		return base + "/"
	}
	return base
}

// dirBase is the Base of a directory input, a directory URL: base as
// given when it ends in "/"; the directory of a sitemap file's URL
// (https://www.example.com/maps/sitemap.xml serves the directory
// https://www.example.com/maps/); else base with a "/" added
// (https://www.example.com/maps is the directory maps/), since the files
// of a directory cannot all be served at one URL.
func dirBase(base string) string {
	if base == "" || strings.HasSuffix(base, "/") {
		return base
	}
	u, err := url.Parse(base)
	if err != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return base
	}
	if i := strings.LastIndexByte(u.Path, '/'); i >= 0 && IsSitemapFileName(u.Path[i+1:]) {
		u.Path, u.RawPath = u.Path[:i+1], ""
		return u.String()
	}
	u.Path, u.RawPath = u.Path+"/", ""
	return u.String()
}

// fileURL is where the file rel (slash-separated, below the directory
// Base serves) is served; "" when base is.
func fileURL(base, rel string) string {
	switch {
	case base == "":
		return ""
	case strings.HasSuffix(base, "/"):
		segs := strings.Split(filepath.ToSlash(rel), "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		return base + strings.Join(segs, "/")
	}
	return base
}

// dirDocs lists the sitemap files of the directory dir (see the package
// comment).
func dirDocs(dir, base string) ([]Doc, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, pathErr(err))
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if !IsSitemapFileName(n) {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			// A link to a file is the file, as a web server serves it.
			if st, err := os.Stat(filepath.Join(dir, n)); err != nil || !st.Mode().IsRegular() {
				continue
			}
		} else if !e.Type().IsRegular() {
			continue
		}
		if isKeyFile(dir, n) {
			continue
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: a directory with no sitemap file (*.xml, *.xml.gz, *.txt); give a directory of sitemaps or a sitemap file", dir)
	}
	sort.Strings(names)
	set := make(map[string]bool, len(names))
	docs := make([]Doc, len(names))
	for i, n := range names {
		p := filepath.Join(dir, n)
		set[p] = true
		docs[i] = Doc{Name: p, Path: p, URL: fileURL(base, n), dir: set}
	}
	return docs, nil
}

// isKeyFile reports whether the file name of dir is an IndexNow key
// file, KEY.txt holding its key and nothing else (IN-04), which a site
// publishes beside its sitemaps (sitemap indexnow key --out public/): a
// directory input does not read it as a text sitemap. Only a name that
// is a key (IN-03) is opened, and at most a few bytes past the key read.
func isKeyFile(dir, name string) bool {
	key, ok := strings.CutSuffix(name, ".txt")
	if !ok || check.IndexNowKey(key) != "" {
		return false
	}
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(len(key))+16))
	if err != nil {
		return false
	}
	return strings.TrimSpace(strings.TrimPrefix(string(b), "\ufeff")) == key
}

// IsSitemapFileName reports whether a directory input reads the file
// name: it ends in .xml, .xml.gz or .txt (any case) and is not
// robots.txt.
func IsSitemapFileName(name string) bool {
	l := strings.ToLower(name)
	if l == "robots.txt" {
		return false
	}
	return strings.HasSuffix(l, ".xml") || strings.HasSuffix(l, ".xml.gz") || strings.HasSuffix(l, ".txt")
}

// OpenError is a document that could not be opened: a missing or
// unreadable file, a directory given as a file, an HTTP failure.
type OpenError struct {
	Doc *Doc
	Err error
}

func (e *OpenError) Error() string { return e.Doc.Name + ": " + e.Err.Error() }
func (e *OpenError) Unwrap() error { return e.Err }

// ChildError is the error a [Reader] with [Options.Complete] returns when
// a child sitemap of an index cannot be read (missing, unreadable, an HTTP
// error, off the index's site): the inputs were opened, and what they list
// is incomplete, a problem found rather than an input that cannot be read.
type ChildError struct {
	Err error
}

func (e *ChildError) Error() string { return e.Err.Error() }
func (e *ChildError) Unwrap() error { return e.Err }

// Open returns the bytes of d (compressed or not, as stored: the decoder
// and package source sniff gzip). A local file must be a regular file or
// a pipe, not a directory; an HTTP document needs a 200 response through
// o.Client, and the redirects of an index's child stay on the index's
// site unless o.AllowOffSite. Errors are an [*OpenError], wrapping
// fs.ErrNotExist for a missing file and the client's *fetch.Error for
// HTTP (fetch.KindNotFound for a 404).
func Open(ctx context.Context, d *Doc, o Options) (io.ReadCloser, error) {
	rc, err := open(ctx, d, o)
	if err != nil {
		return nil, &OpenError{Doc: d, Err: err}
	}
	return rc, nil
}

func open(ctx context.Context, d *Doc, o Options) (io.ReadCloser, error) {
	switch {
	case d.Stdin:
		if o.Stdin == nil {
			return nil, errors.New("standard input is not available")
		}
		// A terminal or a silent pipe: its read returns when ctx is done
		// (the run was interrupted), not at the next line.
		return io.NopCloser(ctxio.New(ctx, o.Stdin)), nil
	case d.s3 != "":
		return openS3(ctx, d.s3, o.Client)
	case d.Path != "":
		f, err := os.Open(d.Path)
		if err != nil {
			return nil, pathErr(err)
		}
		st, err := f.Stat()
		if err == nil && st.IsDir() {
			f.Close()
			return nil, errors.New("is a directory; give a file")
		}
		if o.Progress != nil {
			if err == nil && st.Mode().IsRegular() {
				o.Progress(0, st.Size())
			}
			return &countingFile{f, o.Progress}, nil
		}
		return f, nil
	}
	if o.Client == nil {
		return nil, errors.New("http(s) input needs an HTTP client (input.Options.Client)")
	}
	return get(ctx, o.Client, d, o.AllowOffSite)
}

// countingFile is a local file read with Options.Progress told of every
// read. It has Read and Close only: the file's WriteTo would read past
// the count.
type countingFile struct {
	f        *os.File
	progress func(read, size int64)
}

func (c *countingFile) Close() error { return c.f.Close() }

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	if n > 0 {
		c.progress(int64(n), 0)
	}
	return n, err
}

// errNoFile is a missing file, said briefly (the caller names it).
type errNoFile struct{}

func (errNoFile) Error() string { return "no such file" }
func (errNoFile) Is(t error) bool {
	return t == fs.ErrNotExist
}

// pathErr drops the "open NAME: " of a *fs.PathError, since the caller
// names the file; a missing file is "no such file" (errors.Is
// fs.ErrNotExist holds).
func pathErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errNoFile{}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// openS3 reads the object of an s3://bucket/key URL, with the endpoint,
// region and credentials of the AWS environment variables
// (store.S3Options), through client when there is one (its User-Agent,
// timeouts and Scope: the name is an input like a URL).
func openS3(ctx context.Context, name string, client *fetch.Client) (io.ReadCloser, error) {
	bucket, key, _ := store.ParseS3(name)
	key = strings.TrimSuffix(key, "/") // ParseS3 reads a key as a prefix
	var o store.S3Options
	if client != nil {
		o.HTTPClient = client
	}
	st, err := store.S3("s3://"+bucket, o)
	if err != nil {
		return nil, err
	}
	rc, err := st.OpenKey(ctx, key)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoFile{}
	}
	return rc, err
}
