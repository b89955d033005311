package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/store"
)

// Writer publishes the one sitemap of a run to an io.Writer (what
// `--out -` does). Entries that need more than one sitemap are a
// *build.NeedIndexError before a byte is written: an index and its
// children need a directory (store.Dir) or a bucket (store.S3).
func ExampleWriter() {
	ctx := context.Background()
	write := func(n int) error {
		b, err := build.New(store.Writer(os.Stdout), build.Options{MaxURLs: 2})
		if err != nil {
			return err
		}
		for i := 1; i <= n; i++ {
			if err := b.Add(ctx, &sitemap.URL{Loc: fmt.Sprintf("https://www.example.com/%d", i)}); err != nil {
				return err
			}
		}
		_, err = b.Commit(ctx)
		return err
	}
	if err := write(2); err != nil {
		fmt.Println(err)
	}
	var need *build.NeedIndexError
	if err := write(3); errors.As(err, &need) {
		fmt.Printf("%d entries need %d sitemaps\n", need.URLs, need.Sitemaps)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <url><loc>https://www.example.com/1</loc></url>
	// <url><loc>https://www.example.com/2</loc></url>
	// </urlset>
	// 3 entries need 2 sitemaps
}

// Open turns a command line's --out into a store: a directory (created
// when missing), s3://bucket/prefix, or "-" for standard output. A run
// that publishes nothing calls undo, which removes the directories Open
// created.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "store-open")
	defer os.RemoveAll(dir)
	st, undo, err := store.Open(dir+"/public/sitemaps", store.OpenOptions{Stdout: os.Stdout})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%T\n", st)
	undo() // nothing was published: leave no trace
	_, err = os.Stat(dir + "/public")
	fmt.Println(errors.Is(err, os.ErrNotExist))

	st, _, _ = store.Open("-", store.OpenOptions{Stdout: os.Stdout})
	fmt.Printf("%T\n", st)
	// Output:
	// *store.DirStore
	// true
	// *store.WriterStore
}
