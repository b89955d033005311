package store_test

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/sitemapkit/sitemap/internal/s3test"
	"github.com/sitemapkit/sitemap/store"
)

func TestMain(m *testing.M) { s3test.Main(m) }

func s3Store(t *testing.T, prefix string) (*store.S3Store, string) {
	t.Helper()
	loc, o := s3test.Bucket(t)
	st, err := store.S3(loc+"/"+prefix, o)
	if err != nil {
		t.Fatal(err)
	}
	return st, loc[len("s3://"):]
}

func put(t *testing.T, s store.Store, name, body string) store.File {
	t.Helper()
	f, err := s.Create(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(f, body); err != nil {
		t.Fatal(err)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	return f
}

func names(t *testing.T, s store.Store) []string {
	t.Helper()
	n, err := s.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Files are invisible until published; publication uploads, sets the
// headers a CDN serves, then removes; List sees only the prefix's own names.
func TestS3Publish(t *testing.T) {
	ctx := context.Background()
	st, bucket := s3Store(t, "site/maps")
	c := s3test.Client(t)
	// An object outside the prefix and one below it are not the store's.
	for _, k := range []string{"other.xml", "site/maps/deeper/x.xml"} {
		if _, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(k)}); err != nil {
			t.Fatal(err)
		}
	}
	a := put(t, st, "sitemap-1-aaaaaaaaaaaa.xml.gz", "child")
	b := put(t, st, "sitemap.xml", "index")
	if got := names(t, st); len(got) != 0 {
		t.Fatalf("visible before Publish: %v", got)
	}
	if _, err := st.Open(ctx, "sitemap.xml"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open before Publish: %v, want ErrNotExist", err)
	}
	if err := st.Publish(ctx, store.Publication{Files: []store.File{a, b}}); err != nil {
		t.Fatal(err)
	}
	if got, want := names(t, st), []string{"sitemap-1-aaaaaaaaaaaa.xml.gz", "sitemap.xml"}; !slices.Equal(got, want) {
		t.Fatalf("List = %v, want %v", got, want)
	}
	for name, ct := range map[string]string{"sitemap.xml": "application/xml", "sitemap-1-aaaaaaaaaaaa.xml.gz": "application/gzip"} {
		h, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String("site/maps/" + name)})
		if err != nil {
			t.Fatal(err)
		}
		if got := aws.ToString(h.ContentType); got != ct {
			t.Errorf("%s: Content-Type %q, want %q", name, got, ct)
		}
		if got := aws.ToString(h.ContentEncoding); got != "" {
			t.Errorf("%s: Content-Encoding %q, want none", name, got)
		}
		if got := aws.ToString(h.CacheControl); got != store.DefaultCacheControl {
			t.Errorf("%s: Cache-Control %q, want %q", name, got, store.DefaultCacheControl)
		}
	}
	r, err := st.Open(ctx, "sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r)
	r.Close()
	if string(body) != "index" {
		t.Fatalf("sitemap.xml = %q", body)
	}
	// Second run: replaces sitemap.xml, removes the child.
	n := put(t, st, "sitemap.xml", "single")
	if err := st.Publish(ctx, store.Publication{Files: []store.File{n}, Remove: []string{"sitemap-1-aaaaaaaaaaaa.xml.gz", "sitemap.xml"}}); err != nil {
		t.Fatal(err)
	}
	if got, want := names(t, st), []string{"sitemap.xml"}; !slices.Equal(got, want) {
		t.Fatalf("List = %v, want %v", got, want)
	}
	if err := st.Remove(ctx, "absent.xml"); err != nil {
		t.Fatalf("Remove absent: %v", err)
	}
	// Aborted files are never uploaded.
	f, _ := st.Create(ctx, "x.xml")
	io.WriteString(f, "junk")
	f.Abort()
	if err := st.Publish(ctx, store.Publication{Files: []store.File{f}}); !errors.Is(err, store.ErrNotCommitted) {
		t.Fatalf("Publish aborted file: %v", err)
	}
	if err := st.Publish(ctx, store.Publication{Journal: "j", Files: []store.File{n}}); err == nil {
		t.Fatal("Publish with a journal succeeded on S3")
	}
	out, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, o := range out.Contents {
		all = append(all, aws.ToString(o.Key))
	}
	if want := []string{"other.xml", "site/maps/deeper/x.xml", "site/maps/sitemap.xml"}; !slices.Equal(all, want) {
		t.Fatalf("bucket holds %v, want %v", all, want)
	}
}

// A publication whose upload fails never uploads the last file: the
// index of a set goes up only when every child is complete.
func TestS3PublishFailureKeepsIndex(t *testing.T) {
	ctx := context.Background()
	st, _ := s3Store(t, "")
	old := put(t, st, "sitemap.xml", "old index")
	if err := st.Publish(ctx, store.Publication{Files: []store.File{old}}); err != nil {
		t.Fatal(err)
	}
	child := put(t, st, "sitemap-1-bbbbbbbbbbbb.xml", "child")
	idx := put(t, st, "sitemap.xml", "new index")
	cctx, cancel := context.WithCancel(ctx)
	cancel() // every upload fails
	if err := st.Publish(cctx, store.Publication{Files: []store.File{child, idx}}); err == nil {
		t.Fatal("Publish with a cancelled context succeeded")
	}
	r, err := st.Open(ctx, "sitemap.xml")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	r.Close()
	if string(b) != "old index" {
		t.Fatalf("sitemap.xml = %q after a failed publication, want the old index", b)
	}
}

func TestParseS3(t *testing.T) {
	for in, want := range map[string][2]string{
		"s3://b":      {"b", ""},
		"s3://b/":     {"b", ""},
		"s3://b/p":    {"b", "p/"},
		"s3://b/p/q/": {"b", "p/q/"},
		"s3:///p":     {"", "error"},
		"s3://b//p":   {"", "error"},
		"https://b/p": {"", "error"},
		"s3://b?x/p":  {"", "error"},
	} {
		b, p, err := store.ParseS3(in)
		if want[1] == "error" {
			if err == nil {
				t.Errorf("ParseS3(%q) = %q, %q; want an error", in, b, p)
			}
			continue
		}
		if err != nil || b != want[0] || p != want[1] {
			t.Errorf("ParseS3(%q) = %q, %q, %v; want %q, %q", in, b, p, err, want[0], want[1])
		}
	}
}

// Check reads an S3 location's probe: absent is fine, a bucket that does
// not exist is an error; a local directory that cannot be written is an
// error unless in a dry run; "-" always passes.
func TestCheck(t *testing.T) {
	ctx := context.Background()
	loc, o := s3test.Bucket(t)
	if err := store.Check(ctx, loc+"/maps", "sitemap.xml", store.OpenOptions{S3: o}); err != nil {
		t.Errorf("empty bucket: %v", err)
	}
	if err := store.Check(ctx, "s3://no-such-bucket-for-check/maps", "sitemap.xml", store.OpenOptions{S3: o}); err == nil {
		t.Error("a bucket that does not exist passed")
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if err := store.Check(ctx, filepath.Join(file, "out"), "sitemap.xml", store.OpenOptions{}); err == nil || !strings.Contains(err.Error(), "give a directory you can write to") {
		t.Errorf("a directory under a file: %v", err)
	}
	if err := store.Check(ctx, filepath.Join(file, "out"), "sitemap.xml", store.OpenOptions{DryRun: true}); err != nil {
		t.Errorf("dry run: %v", err)
	}
	if err := store.Check(ctx, "-", "sitemap.xml", store.OpenOptions{}); err != nil {
		t.Errorf(`"-": %v`, err)
	}
}
