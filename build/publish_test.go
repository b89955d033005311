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
	// A dry run over a published set reports what would be removed: the
	// index of another name; its children stay for one more run.
	dry = run(t, st, Options{Gzip: true, DryRun: true}, pages(3))
	if !slices.Equal(dry.Removed, []string{"sitemap.xml"}) {
		t.Fatalf("dry run would remove %v", dry.Removed)
	}
	if len(listed(t, st)) != 4 {
		t.Fatalf("dry run changed the store: %v", listed(t, st))
	}
	if _, err := New(nil, Options{DryRun: true}); err != nil {
		t.Fatalf("dry run without a store: %v", err)
	}
}

// The children of the index a run replaces stay until the next run (for
// readers that fetched that index); the run after removes them. Files
// that are not the set's are never touched.
func TestGracePeriod(t *testing.T) {
	st := store.Memory()
	f, _ := st.Create(context.Background(), "sitemap-extra.xml") // not ours: kept
	f.Commit()
	st.Publish(context.Background(), store.Publication{Files: []store.File{f}})

	one := run(t, st, Options{MaxURLs: 2, Gzip: true}, pages(7))
	want := append(fileNames(one), "sitemap-extra.xml")
	if got := listed(t, st); !sameSet(got, want) {
		t.Fatalf("after run 1: %v, want %v", got, want)
	}
	two := run(t, st, Options{MaxURLs: 2, Gzip: true}, pages(3))
	if len(two.Removed) != 0 {
		t.Fatalf("run 2 removed %v; the children of run 1's index stay until the next run", two.Removed)
	}
	// Run 2's first child holds the same URLs as run 1's: the same name.
	if two.Files[0].Name != one.Files[0].Name || two.Files[1].Name == one.Files[1].Name {
		t.Fatalf("children %v then %v: a child's name changes when, and only when, its content does", names(one), names(two))
	}
	want = append(fileNames(one), fileNames(two)...)
	want = append(want, "sitemap-extra.xml")
	if got := listed(t, st); !sameSet(got, want) {
		t.Fatalf("after run 2: %v, want %v", got, want)
	}
	three := run(t, st, Options{}, pages(3))
	gone := fileNames(one)[1:4] // run 1's children that run 2 did not write again
	slices.Sort(gone)
	if !slices.Equal(three.Removed, gone) {
		t.Fatalf("run 3 removed %v, want %v", three.Removed, gone)
	}
	want = append(fileNames(two)[:2], "sitemap-extra.xml", "sitemap.xml")
	if got := listed(t, st); !sameSet(got, want) {
		t.Fatalf("after run 3: %v, want %v", got, want)
	}
	four := run(t, st, Options{}, pages(3))
	if got := listed(t, st); !sameSet(got, []string{"sitemap-extra.xml", "sitemap.xml"}) || len(four.Removed) != 2 {
		t.Fatalf("after run 4: %v, removed %v", got, four.Removed)
	}
}

// fileNames lists every file of sum, children and index.
func fileNames(sum Summary) []string {
	var n []string
	for _, f := range sum.Files {
		n = append(n, f.Name)
	}
	if sum.Index != nil {
		n = append(n, sum.Index.Name)
	}
	return n
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// The NAME.manifest.json and plain NAME-N.xml children earlier versions
// wrote: the first run keeps the children its new index replaces (and the
// manifest that says they are ours), the next one removes both; a plain
// name the manifest does not list (another set's top file) is never
// removed.
func TestLegacyManifest(t *testing.T) {
	ctx := context.Background()
	st := store.Memory()
	var files []store.File
	put := func(name, body string) {
		f, _ := st.Create(ctx, name)
		f.Write([]byte(body))
		f.Commit()
		files = append(files, f)
	}
	put("sitemap-1.xml", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/old</loc></url></urlset>`)
	put("sitemap-2.xml", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/old2</loc></url></urlset>`)
	put("sitemap-2024.xml", `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/y</loc></url></urlset>`)
	put("sitemap.xml", `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://www.example.com/sitemap-1.xml</loc></sitemap><sitemap><loc>https://www.example.com/sitemap-2.xml</loc></sitemap></sitemapindex>`)
	m, _ := json.Marshal(Manifest{Name: "sitemap", Files: []FileSummary{{Name: "sitemap-1.xml"}, {Name: "sitemap-2.xml"}}, Index: &FileSummary{Name: "sitemap.xml"}})
	put("sitemap.manifest.json", string(m))
	if err := st.Publish(ctx, store.Publication{Files: files}); err != nil {
		t.Fatal(err)
	}
	one := run(t, st, Options{MaxURLs: 2}, pages(3))
	if len(one.Removed) != 0 {
		t.Fatalf("first run removed %v", one.Removed)
	}
	two := run(t, st, Options{MaxURLs: 2}, pages(3))
	if want := []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap.manifest.json"}; !slices.Equal(two.Removed, want) {
		t.Fatalf("second run removed %v, want %v", two.Removed, want)
	}
	if want := append(fileNames(two), "sitemap-2024.xml"); !sameSet(listed(t, st), want) {
		t.Fatalf("after the second run: %v, want %v", listed(t, st), want)
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
	for n := 1; n <= 4; n++ {
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

// Two runs in one directory: the second fails at once (store.ErrLocked),
// whatever its names, instead of taking the first one's files for stale
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
	if _, err := New(ds, Options{BaseURL: base, Name: "other"}); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("run on other names: %v, want store.ErrLocked", err)
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

// One publication per run, without a journal: children in order, then the
// index (the one rename that changes the set, after every file it
// names); files no longer needed are removed after that.
func TestPublishOrder(t *testing.T) {
	rs := &recordStore{Store: store.Memory()}
	one := run(t, rs, Options{MaxURLs: 2}, pages(5))
	run(t, rs, Options{}, pages(3))
	run(t, rs, Options{}, pages(3))
	if len(rs.pubs) != 3 {
		t.Fatalf("%d publications", len(rs.pubs))
	}
	var got []string
	for _, f := range rs.pubs[0].Files {
		got = append(got, unhash(f.Name()))
	}
	if want := []string{"sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml"}; !slices.Equal(got, want) {
		t.Fatalf("publication order %v, want %v", got, want)
	}
	if p := rs.pubs[2]; p.Journal != "" || !slices.Equal(p.Remove, fileNames(one)[:3]) {
		t.Fatalf("third publication: journal %q, remove %v", p.Journal, p.Remove)
	}
}
