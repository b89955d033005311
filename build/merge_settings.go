package build

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/sitemapkit/sitemap/store"
)

// MergeSettings are the options of [MergeShards] as a person gives them
// (the flags of `sitemap index`, named alike): Out is where the shards
// were written (a directory, or an s3://bucket/prefix the caller opens),
// where the index is written too: never "-", standard output.
type MergeSettings struct {
	Out, Name, BaseURL string
	// Shards is the N of the `generate --shard K/N` runs, 1 or more.
	Shards    int
	GzipIndex bool
}

// Check refuses settings MergeShards cannot take, an error naming the
// flag and what to give instead, and puts BaseURL in its normal form
// ([NormalURLSetting]: a rewrite said on w).
func (s *MergeSettings) Check(w io.Writer) error {
	switch {
	case s.Shards == 0:
		return errors.New("--shards is required: the N of the `generate --shard K/N` runs")
	case s.Out == "":
		return store.ErrEmptyOut
	case s.Out == "-":
		return fmt.Errorf("--out -: index reads the shards in --out and writes %s.xml beside them, so --out takes the directory (or s3://bucket/prefix) the `generate --shard K/%d` runs wrote into, not standard output", cmp.Or(s.Name, "sitemap"), max(s.Shards, 1))
	case s.Shards < 0:
		return fmt.Errorf("--shards %d: give N, 1 or more: the N of the `generate --shard K/N` runs", s.Shards)
	case s.BaseURL == "":
		return errors.New("--base-url is required: the URL of the directory the sitemaps are served from, e.g. --base-url https://www.example.com/")
	}
	s.BaseURL = NormalURLSetting("--base-url", s.BaseURL, w)
	if err := CheckURLSetting("--base-url", s.BaseURL); err != nil {
		return err
	}
	return CheckName(s.Name)
}

// Merge is `sitemap index` as one call: [MergeShards] over st, or, when
// st is nil, over the directory Out (which must exist: the shards are
// read there), locked against a shard run writing there meanwhile; then
// one line on w says what was written. The errors name the flag, and
// say that nothing was published when a shard is missing or incomplete.
func (s MergeSettings) Merge(ctx context.Context, st store.Store, w io.Writer) (FileSummary, error) {
	if st == nil {
		if _, err := os.Stat(s.Out); errors.Is(err, fs.ErrNotExist) {
			return FileSummary{}, fmt.Errorf("--out %s: no such directory; give the directory the `generate --shard K/%d` runs wrote into", s.Out, s.Shards)
		}
		d, err := store.Dir(s.Out)
		if err != nil {
			return FileSummary{}, fmt.Errorf("--out %s: %v", s.Out, err)
		}
		unlock, err := d.Lock(ctx, s.Name)
		if err != nil {
			return FileSummary{}, fmt.Errorf("--out %s: %v (a shard run is writing there; run index after it)", s.Out, err)
		}
		defer unlock()
		st = d
	}
	sum, err := MergeShards(ctx, st, MergeOptions{Name: s.Name, Shards: s.Shards, BaseURL: s.BaseURL, GzipIndex: s.GzipIndex})
	var se *ShardError
	switch {
	case errors.As(err, &se):
		return sum, fmt.Errorf("%v; nothing was published", err)
	case err != nil:
		return sum, err
	}
	lm := "no lastmod"
	if !sum.LastMod.IsZero() {
		lm = "newest lastmod " + sum.LastMod.String()
	}
	fmt.Fprintf(w, "sitemap: wrote %s: %d sitemaps from %d shards, %s\n", sum.Name, sum.URLs, s.Shards, lm)
	return sum, nil
}
