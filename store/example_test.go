package store_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

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

// A report written aside: a reader of report.html sees the old one until
// Commit, and a run that fails before leaves it, and no temporary file.
func ExampleCreateAside() {
	dir, _ := os.MkdirTemp("", "aside")
	defer os.RemoveAll(dir)
	a, err := store.CreateAside(filepath.Join(dir, "report.html"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer a.Abort() // on every path that does not reach Commit
	fmt.Fprintln(a, "<!doctype html><title>Report</title>")
	if err := a.Commit(0o644); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	fmt.Print(string(b))
	// Output:
	// <!doctype html><title>Report</title>
}

// CheckWritable says, before long work, why its output could not be
// written: here a path under a file.
func ExampleCheckWritable() {
	dir, _ := os.MkdirTemp("", "out")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o644)
	fmt.Println(store.CheckWritable(filepath.Join(dir, "public")))
	err := store.CheckWritable(filepath.Join(dir, "file"))
	fmt.Println(strings.TrimPrefix(err.Error(), dir))
	// Output:
	// <nil>
	// /file is a file, not a directory
}

// A report file is checked before the long run that writes it.
func ExampleCheckOutputFile() {
	dir, _ := os.MkdirTemp("", "out")
	defer os.RemoveAll(dir)
	fmt.Println(store.CheckOutputFile(filepath.Join(dir, "report.jsonl")))
	fmt.Println(store.CheckOutputFile(dir))
	err := store.CheckOutputFile(filepath.Join(dir, "no-such-dir", "report.jsonl"))
	fmt.Println(strings.HasSuffix(err.Error(), "no such file or directory (the directory is not created)"))
	// Output:
	// <nil>
	// is a directory; give the name of a file to write
	// true
}

// WriteOutput writes a file whole or not at all: "-" is standard output,
// any other name is written aside and renamed into place.
func ExampleWriteOutput() {
	dir, _ := os.MkdirTemp("", "output-example")
	defer os.RemoveAll(dir)
	name := filepath.Join(dir, "site.dot")
	err := store.WriteOutput(name, os.Stdout, func(w io.Writer) error {
		_, err := io.WriteString(w, "digraph site {}\n")
		return err
	})
	b, _ := os.ReadFile(name)
	fmt.Print(string(b))
	fmt.Println(err)
	err = store.WriteOutput(filepath.Join(dir, "missing", "site.dot"), os.Stdout, func(w io.Writer) error { return nil })
	fmt.Println(strings.ReplaceAll(err.Error(), dir, "DIR"))
	// Output:
	// digraph site {}
	// <nil>
	// writing DIR/missing/site.dot: directory DIR/missing does not exist; create it first
}

// Check before a long run: a crawl finds out that --out cannot be written
// before its first request, not after the last.
func ExampleCheck() {
	dir, _ := os.MkdirTemp("", "out")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "file"), []byte("x"), 0o644)
	ctx := context.Background()
	fmt.Println(store.Check(ctx, filepath.Join(dir, "public"), "sitemap.xml", store.OpenOptions{}))
	err := store.Check(ctx, filepath.Join(dir, "file"), "sitemap.xml", store.OpenOptions{})
	fmt.Println(strings.TrimPrefix(err.Error(), dir))
	// Output:
	// <nil>
	// /file is a file, not a directory; give a directory you can write to
}

// Settings.Open opens the store of --out as a command line gives it; its
// errors name the flag.
func ExampleSettings_Open() {
	dir, _ := os.MkdirTemp("", "store")
	defer os.RemoveAll(dir)
	st, undo, err := store.Settings{Out: filepath.Join(dir, "public")}.Open(false, nil)
	fmt.Printf("%T %v\n", st, err)
	undo() // nothing was published: the directory goes again
	_, _, err = store.Settings{}.Open(false, nil)
	fmt.Println(err)
	// Output:
	// *store.DirStore <nil>
	// --out is empty; give a directory (. for the current one)
}

// Settings.Check refuses, before a long run, an --out it could not
// publish into.
func ExampleSettings_Check() {
	dir, _ := os.MkdirTemp("", "store")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	err := store.Settings{Out: filepath.Join(dir, "public")}.Check(context.Background(), "sitemap.xml", false)
	fmt.Println(err)
	err = store.Settings{Out: filepath.Join(dir, "file", "public")}.Check(context.Background(), "sitemap.xml", false)
	fmt.Println(strings.HasPrefix(err.Error(), "--out "+filepath.Join(dir, "file", "public")+": "))
	// Output:
	// <nil>
	// true
}

// OpenOptions are those of store.Open for the settings.
func ExampleSettings_OpenOptions() {
	o := store.Settings{Out: "-", S3: store.S3Options{Region: "eu-west-1"}}.OpenOptions(true, os.Stdout)
	fmt.Println(o.DryRun, o.S3.Region)
	// Output: true eu-west-1
}
