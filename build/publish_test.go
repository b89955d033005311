package build

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/store"
)

// A dry run writes nothing and reports what a real run writes.
func TestDryRun(t *testing.T) {
	urls := pages(25)
	st := store.Memory()
	dry := run(t, st, Options{MaxURLs: 10, Gzip: true, DryRun: true}, urls)
	if got := listed(t, st); len(got) != 0 {
		t.Fatalf("dry run wrote %v", got)
	}
	real := run(t, st, Options{MaxURLs: 10, Gzip: true}, urls)
	if !dry.DryRun || !slices.EqualFunc(dry.Files, real.Files, func(a, b FileSummary) bool { return a == b }) || *dry.Index != *real.Index {
		t.Fatalf("dry run %+v\nreal run %+v", dry, real)
	}
	// A dry run over a published set reports what would be removed.
	dry = run(t, st, Options{Gzip: true, DryRun: true}, pages(3))
	if !slices.Equal(dry.Removed, []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap-3.xml.gz", "sitemap.xml"}) {
		t.Fatalf("dry run would remove %v", dry.Removed)
	}
	if len(listed(t, st)) != 5 {
		t.Fatalf("dry run changed the store: %v", listed(t, st))
	}
	if _, err := New(nil, Options{DryRun: true}); err != nil {
		t.Fatalf("dry run without a store: %v", err)
	}
}

// Files of a previous run that this run no longer writes are removed after
// the new index is in place; nothing else is touched.
func TestOrphans(t *testing.T) {
	st := store.Memory()
	f, _ := st.Create(context.Background(), "sitemap-extra.xml") // not ours: kept
	f.Commit()
	st.Publish(context.Background(), store.Publication{Journal: "j", Files: []store.File{f}})

	run(t, st, Options{MaxURLs: 2, Gzip: true}, pages(7))
	want := []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap-3.xml.gz", "sitemap-4.xml.gz", "sitemap-extra.xml", "sitemap.manifest.json", "sitemap.xml"}
	if got := listed(t, st); !slices.Equal(got, want) {
		t.Fatalf("after run 1: %v", got)
	}
	sum := run(t, st, Options{MaxURLs: 2, Gzip: true}, pages(3))
	if !slices.Equal(sum.Removed, []string{"sitemap-3.xml.gz", "sitemap-4.xml.gz"}) {
		t.Fatalf("removed %v", sum.Removed)
	}
	want = []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz", "sitemap-extra.xml", "sitemap.manifest.json", "sitemap.xml"}
	if got := listed(t, st); !slices.Equal(got, want) {
		t.Fatalf("after run 2: %v", got)
	}
	sum = run(t, st, Options{}, pages(3))
	if !slices.Equal(sum.Removed, []string{"sitemap-1.xml.gz", "sitemap-2.xml.gz"}) {
		t.Fatalf("removed %v", sum.Removed)
	}
	if got := listed(t, st); !slices.Equal(got, []string{"sitemap-extra.xml", "sitemap.manifest.json", "sitemap.xml"}) {
		t.Fatalf("after run 3: %v", got)
	}
	// A manifest naming files that are not ours never removes them.
	mf, _ := st.Create(context.Background(), "sitemap.manifest.json")
	mf.Write([]byte(`{"name":"sitemap","files":[{"name":"sitemap-extra.xml"},{"name":"robots.txt"}]}`))
	mf.Commit()
	st.Publish(context.Background(), store.Publication{Journal: "j", Files: []store.File{mf}})
	if sum = run(t, st, Options{}, pages(3)); len(sum.Removed) != 0 {
		t.Fatalf("removed %v from a foreign manifest", sum.Removed)
	}
}

func TestManifest(t *testing.T) {
	st := store.Memory()
	sum := run(t, st, Options{MaxURLs: 2, Gzip: true}, pages(3))
	var m Manifest
	if err := json.Unmarshal(st.Bytes("sitemap.manifest.json"), &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Files) != 2 || m.Index == nil || m.Index.Name != "sitemap.xml" || m.Files[0].SHA256 != sum.Files[0].SHA256 || m.Files[0].SHA256 == "" {
		t.Fatalf("manifest %+v", m)
	}
}

// failStore fails Create of the nth file.
type failStore struct {
	store.Store
	n, calls int
}

func (f *failStore) Create(ctx context.Context, name string) (store.File, error) {
	if f.calls++; f.calls == f.n {
		return nil, errors.New("disk full")
	}
	return f.Store.Create(ctx, name)
}

// A run that fails part-way leaves the previous files as they were and no
// temporary files.
func TestFailureKeepsPrevious(t *testing.T) {
	dir := t.TempDir()
	ds, _ := store.Dir(dir)
	run(t, ds, Options{MaxURLs: 2, Gzip: true}, pages(5))
	before := snapshot(t, dir)
	for n := 1; n <= 5; n++ {
		fs := &failStore{Store: ds, n: n}
		if _, err := tryRun(fs, Options{MaxURLs: 3, Gzip: true}, pages(8)); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("failing Create %d: %v", n, err)
		}
		if after := snapshot(t, dir); !maps(before, after) {
			t.Fatalf("failing Create %d changed the directory: %v", n, keys(after))
		}
	}
}

// snapshot returns every entry of dir (hidden ones included) and its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func keys(m map[string]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
}

// Two runs on the same names in one directory: the second fails at once
// (store.ErrLocked) instead of taking the first one's files for stale
// ones; after Commit the lock is free again.
func TestConcurrentRunsLocked(t *testing.T) {
	ctx := context.Background()
	ds, _ := store.Dir(t.TempDir())
	first, err := New(ds, Options{BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(ds, Options{BaseURL: base}); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second run: %v, want store.ErrLocked", err)
	}
	if _, err := New(ds, Options{BaseURL: base, DryRun: true}); err != nil {
		t.Fatalf("dry run while locked: %v", err)
	}
	if _, err := New(ds, Options{BaseURL: base, Name: "other"}); err != nil {
		t.Fatalf("run on other names: %v", err)
	}
	first.Add(ctx, page(1))
	if _, err := first.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	b, err := New(ds, Options{BaseURL: base})
	if err != nil {
		t.Fatalf("after Commit: %v", err)
	}
	b.Abort()
	if b, err = New(ds, Options{BaseURL: base}); err != nil {
		t.Fatalf("after Abort: %v", err)
	}
	b.Abort()
}

// recordStore records the publications it is asked for.
type recordStore struct {
	store.Store
	pubs []store.Publication
}

func (r *recordStore) Publish(ctx context.Context, p store.Publication) error {
	r.pubs = append(r.pubs, p)
	return r.Store.Publish(ctx, p)
}

// One publication per run: children in order, then the index (I-09: the
// index last, after every file it names), then the manifest; orphans are
// removed after that, under the journal NAME.publish-journal.
func TestPublishOrder(t *testing.T) {
	rs := &recordStore{Store: store.Memory()}
	run(t, rs, Options{MaxURLs: 2}, pages(5))
	run(t, rs, Options{MaxURLs: 2}, pages(3))
	if len(rs.pubs) != 2 {
		t.Fatalf("%d publications", len(rs.pubs))
	}
	var got []string
	for _, f := range rs.pubs[0].Files {
		got = append(got, f.Name())
	}
	if want := []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml", "sitemap.manifest.json"}; !slices.Equal(got, want) {
		t.Fatalf("publication order %v, want %v", got, want)
	}
	if p := rs.pubs[1]; p.Journal != "sitemap.publish-journal" || !slices.Equal(p.Remove, []string{"sitemap-3.xml"}) {
		t.Fatalf("second publication: journal %q, remove %v", p.Journal, p.Remove)
	}
}

// writeFailStore fails every Write to files whose name has suffix.
type writeFailStore struct {
	store.Store
	suffix string
}

func (f *writeFailStore) Create(ctx context.Context, name string) (store.File, error) {
	sf, err := f.Store.Create(ctx, name)
	if err != nil || !strings.HasSuffix(name, f.suffix) {
		return sf, err
	}
	return writeFailFile{sf}, nil
}

type writeFailFile struct{ store.File }

func (writeFailFile) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// A manifest that cannot be written fails the run at once, naming the
// manifest, and publishes nothing (the write error used to be dropped and
// surfaced later as "file not committed").
func TestManifestWriteFailure(t *testing.T) {
	dir := t.TempDir()
	ds, _ := store.Dir(dir)
	run(t, ds, Options{MaxURLs: 2}, pages(5))
	before := snapshot(t, dir)
	_, err := tryRun(&writeFailStore{Store: ds, suffix: ".manifest.json"}, Options{MaxURLs: 3}, pages(8))
	if err == nil || !strings.Contains(err.Error(), "writing manifest: no space left on device") {
		t.Fatalf("got %v, want the manifest's write error", err)
	}
	if after := snapshot(t, dir); !maps(before, after) {
		t.Fatalf("a failed manifest write changed the directory: %v", keys(after))
	}
}
