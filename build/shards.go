package build

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// Sharded generation: N runs, on any machines, each publish one shard of a
// set into the same store, and [MergeShards] then writes the set's index
// over all of them.
//
// Shard K of a set NAME is an ordinary run whose Options.Name is
// [ShardName](NAME, K) = "NAME-K", with an index: its children are
// NAME-K-1-HASH.xml, NAME-K-2-HASH.xml, … and its index NAME-K.xml. That
// index is the shard's completion record: a run publishes it last, after
// every child it lists, so a shard whose NAME-K.xml is in the store is
// complete (a killed run leaves the previous run's NAME-K.xml and children
// in place), and no bookkeeping file joins the sitemaps. It is a valid
// sitemap index a site may serve as it is (robots.txt may list the N shard
// indexes instead of the merged one); search engines are told about
// NAME.xml, the index MergeShards writes over every shard's children.
//
// A child a shard run no longer lists stays in the store for one more run
// of that shard (package build's grace for readers of an older index), so
// run MergeShards after every round of shard runs.

// ShardName is the Options.Name of shard k (1-based) of the set name.
func ShardName(name string, k int) string { return name + "-" + strconv.Itoa(k) }

// MergeOptions configure [MergeShards].
type MergeOptions struct {
	// Name is the set's name (default "sitemap"): the shards are
	// NAME-1 … NAME-N and the index NAME.xml (NAME.xml.gz with GzipIndex).
	Name string
	// Shards is N, the number of shards; every one must be present.
	Shards int
	// BaseURL is where the files are served: the index's locs are BaseURL
	// plus the child's name. Required.
	BaseURL string
	// GzipIndex compresses the index (NAME.xml.gz).
	GzipIndex bool
	// GzipLevel is the gzip level of GzipIndex (default DefaultGzipLevel).
	GzipLevel int
	// Stylesheet is the href of an xml-stylesheet processing instruction
	// in the index (none when empty).
	Stylesheet string
}

// ShardError is the error of MergeShards when a shard is missing or
// incomplete: nothing was published.
type ShardError struct {
	Shard, Shards int
	Msg           string
}

func (e *ShardError) Error() string {
	return fmt.Sprintf("shard %d of %d: %s", e.Shard, e.Shards, e.Msg)
}

// MergeShards writes NAME.xml, the index over the children of every shard
// of the set in st, and publishes it. Each child's lastmod is the one its
// shard's index gives (the newest lastmod of its URLs, I-09), so the
// merged index is as truthful as one run's. It refuses, with a
// *ShardError and nothing published, when a shard's index is missing,
// when it lists a child that is not in st, when it lists a file of
// another set, or when it lists its children under another directory URL
// than o.BaseURL (the shard ran with another base URL); and with an error when the children are more than one index
// may list (I-02) or the index would pass 50 MiB (S-03).
func MergeShards(ctx context.Context, st store.Store, o MergeOptions) (FileSummary, error) {
	if st == nil {
		return FileSummary{}, errors.New("build: no store")
	}
	baseURL, err := o.prepare()
	if err != nil {
		return FileSummary{}, err
	}
	names, err := st.List(ctx)
	if err != nil {
		return FileSummary{}, err
	}
	present := map[string]bool{}
	for _, n := range names {
		present[n] = true
	}
	children, err := readShards(ctx, st, present, o, baseURL)
	if err != nil {
		return FileSummary{}, err
	}
	name := o.Name + ".xml"
	if o.GzipIndex {
		name += ".gz"
	}
	eo := sitemap.EncoderOptions{Index: true, Stylesheet: o.Stylesheet}
	sum, f, err := writeIndexFile(ctx, st, name, eo, o.GzipIndex, o.GzipLevel, children)
	if err != nil {
		return FileSummary{}, err
	}
	if err := ctx.Err(); err != nil {
		f.Abort()
		return FileSummary{}, fmt.Errorf("build: writing index %s: %w", name, err)
	}
	// The other spelling of the top name (NAME.xml.gz beside NAME.xml)
	// would be a second, stale index.
	other := o.Name + ".xml.gz"
	if o.GzipIndex {
		other = o.Name + ".xml"
	}
	var remove []string
	if present[other] {
		remove = append(remove, other)
	}
	if err := st.Publish(ctx, store.Publication{Files: []store.File{f}, Remove: remove}); err != nil {
		return FileSummary{}, err
	}
	return sum, nil
}

// prepare checks o and fills in its defaults (Name "sitemap", GzipLevel
// DefaultGzipLevel), and returns the base URL with a trailing '/'. A
// name with a sitemap extension or other characters than letters,
// digits, '-', '_' and '.', fewer than one shard, or a base URL that is
// not absolute or names a file, is an error that says what to give.
func (o *MergeOptions) prepare() (string, error) {
	if o.Name == "" {
		o.Name = "sitemap"
	}
	if base, ext := splitSitemapExt(o.Name); ext != "" {
		return "", fmt.Errorf("build: name %q: give it without %s, such as %q (the index is NAME.xml)", o.Name, ext, base)
	}
	if !plainName(o.Name) {
		return "", fmt.Errorf("build: name %q: use letters, digits, '-', '_' and '.'", o.Name)
	}
	if o.Shards < 1 {
		return "", errors.New("build: the number of shards must be at least 1")
	}
	base, err := absURL(o.BaseURL, "base URL")
	if err != nil {
		return "", err
	}
	if err := baseNamesFile(base, o.BaseURL); err != nil {
		return "", err
	}
	baseURL := base.String()
	if !strings.HasSuffix(baseURL, "/") {
		baseURL += "/"
	}
	if o.GzipLevel == 0 {
		o.GzipLevel = DefaultGzipLevel
	}
	return baseURL, nil
}

// readShards reads the index of every shard 1 … o.Shards (present holds
// the store's names) and returns their children, shard by shard, in the
// order each index lists them. It returns readShard's error (a
// *ShardError, or one of reading) for the first shard that fails, and an
// error when the children are more than one index may list (I-02).
func readShards(ctx context.Context, st store.Store, present map[string]bool, o MergeOptions, baseURL string) ([]sitemap.IndexEntry, error) {
	var children []sitemap.IndexEntry
	for k := 1; k <= o.Shards; k++ {
		got, err := readShard(ctx, st, present, o.Name, k, o.Shards, baseURL)
		if err != nil {
			return nil, err
		}
		children = append(children, got...)
	}
	if len(children) > sitemap.MaxURLs {
		return nil, fmt.Errorf("build: the %d shards have %d sitemaps, more than the %d one index may list (I-02); use fewer shards or larger sitemaps", o.Shards, len(children), sitemap.MaxURLs)
	}
	return children, nil
}

// readShard returns the children shard k's index lists, with the locs
// under baseURL, after checking that each is in the store.
func readShard(ctx context.Context, st store.Store, present map[string]bool, name string, k, n int, baseURL string) ([]sitemap.IndexEntry, error) {
	sn := ShardName(name, k)
	var top string
	for _, c := range []string{sn + ".xml", sn + ".xml.gz"} {
		if present[c] {
			if top != "" {
				return nil, &ShardError{k, n, fmt.Sprintf("both %s and %s are in the store; remove the one the shard's last run did not write", top, c)}
			}
			top = c
		}
	}
	if top == "" {
		return nil, &ShardError{k, n, fmt.Sprintf("no %s.xml: the shard has not been generated, or its run has not finished, or it had no entry; run `sitemap generate --shard %d/%d` into the same output first (for a shard with no entry, give fewer shards)", sn, k, n)}
	}
	rc, err := st.Open(ctx, top)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	dec := sitemap.NewDecoder(rc, sitemap.DecoderOptions{Name: top})
	r := &resolved{Options: Options{Name: sn}}
	var out []sitemap.IndexEntry
	for {
		it, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &ShardError{k, n, fmt.Sprintf("%s cannot be read: %v; run the shard again", top, err)}
		}
		if it.Kind != sitemap.ItemIndex {
			return nil, &ShardError{k, n, fmt.Sprintf("%s is not a sitemap index; it is not a shard's (run `sitemap generate --shard %d/%d`)", top, k, n)}
		}
		loc := it.Index.Loc
		child := loc[strings.LastIndexByte(loc, '/')+1:]
		if r.kind(child) != kindChild {
			return nil, &ShardError{k, n, fmt.Sprintf("%s lists %s, which is not a child of %s (%s-N-HASH.xml); it is not a shard's index", top, loc, sn, sn)}
		}
		if dir := loc[:len(loc)-len(child)]; urlnorm.Key(dir) != urlnorm.Key(baseURL) {
			// The merged index would list the children where they are
			// not served (and each child's URLs are checked against its
			// own URL's directory, L-09).
			return nil, &ShardError{k, n, fmt.Sprintf("%s lists its sitemaps at %s, but the base URL given here is %s; give the base URL the shard runs were given (--base-url %s), or run the shards again with this one", top, dir, baseURL, dir)}
		}
		if !present[child] {
			return nil, &ShardError{k, n, fmt.Sprintf("%s lists %s, which is not in the store: the shard is incomplete (its files were removed, or are still being copied); run `sitemap generate --shard %d/%d` again", top, child, k, n)}
		}
		out = append(out, sitemap.IndexEntry{Loc: baseURL + child, LastMod: it.Index.LastMod})
	}
	if len(out) == 0 {
		return nil, &ShardError{k, n, fmt.Sprintf("%s lists no sitemap; run the shard again", top)}
	}
	slices.SortStableFunc(out, func(a, b sitemap.IndexEntry) int { return childNum(a.Loc) - childNum(b.Loc) })
	return out, nil
}

// childNum is N of a child's name NAME-N-HASH.xml (0 when there is none).
func childNum(loc string) int {
	s := loc[strings.LastIndexByte(loc, '/')+1:]
	parts := strings.Split(s, "-")
	if len(parts) < 3 {
		return 0
	}
	n, _ := strconv.Atoi(parts[len(parts)-2])
	return n
}
