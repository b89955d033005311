package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func stores(t *testing.T) map[string]Store {
	d, err := Dir(filepath.Join(t.TempDir(), "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]Store{"dir": d, "mem": Memory()}
}

func write(t *testing.T, s Store, name, body string) File {
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

func read(t *testing.T, s Store, name string) string {
	t.Helper()
	r, err := s.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func list(t *testing.T, s Store) []string {
	t.Helper()
	names, err := s.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// Files are invisible until published; publication replaces, then removes.
func TestPublish(t *testing.T) {
	ctx := context.Background()
	for kind, s := range stores(t) {
		t.Run(kind, func(t *testing.T) {
			a := write(t, s, "sitemap-1.xml", "one")
			b := write(t, s, "sitemap.xml", "index")
			if got := list(t, s); len(got) != 0 {
				t.Fatalf("visible before Publish: %v", got)
			}
			if _, err := s.Open(ctx, "sitemap.xml"); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("Open before Publish: %v, want ErrNotExist", err)
			}
			if err := s.Publish(ctx, Publication{Journal: "sitemap.publish-journal", Files: []File{a, b}}); err != nil {
				t.Fatal(err)
			}
			if got, want := list(t, s), []string{"sitemap-1.xml", "sitemap.xml"}; !slices.Equal(got, want) {
				t.Fatalf("List = %v, want %v", got, want)
			}
			// Second run: replaces sitemap.xml, drops sitemap-1.xml.
			c := write(t, s, "sitemap.xml", "single")
			if err := s.Publish(ctx, Publication{Journal: "sitemap.publish-journal", Files: []File{c}, Remove: []string{"sitemap-1.xml", "sitemap.xml"}}); err != nil {
				t.Fatal(err)
			}
			if got, want := list(t, s), []string{"sitemap.xml"}; !slices.Equal(got, want) {
				t.Fatalf("List = %v, want %v", got, want)
			}
			if got := read(t, s, "sitemap.xml"); got != "single" {
				t.Fatalf("sitemap.xml = %q", got)
			}
			// Aborted files leave nothing.
			f, err := s.Create(ctx, "x.xml")
			if err != nil {
				t.Fatal(err)
			}
			io.WriteString(f, "junk")
			if err := f.Abort(); err != nil {
				t.Fatal(err)
			}
			if _, err := f.Write([]byte("x")); !errors.Is(err, ErrClosed) {
				t.Fatalf("Write after Abort: %v", err)
			}
			if err := s.Publish(ctx, Publication{Journal: "j", Files: []File{f}}); !errors.Is(err, ErrNotCommitted) {
				t.Fatalf("Publish aborted file: %v", err)
			}
			if err := s.Remove(ctx, "absent.xml"); err != nil {
				t.Fatalf("Remove absent: %v", err)
			}
			if got, want := list(t, s), []string{"sitemap.xml"}; !slices.Equal(got, want) {
				t.Fatalf("List = %v, want %v", got, want)
			}
			if d, ok := s.(*DirStore); ok {
				ents, _ := os.ReadDir(d.Path())
				if len(ents) != 1 {
					t.Fatalf("directory holds %d entries, want only sitemap.xml", len(ents))
				}
				st, _ := os.Stat(filepath.Join(d.Path(), "sitemap.xml"))
				if st.Mode().Perm() != 0o644 {
					t.Fatalf("mode %v, want 0644", st.Mode().Perm())
				}
			}
		})
	}
}

func TestBadNames(t *testing.T) {
	for kind, s := range stores(t) {
		for _, name := range []string{"", ".", "..", "../x.xml", "a/b.xml", ".hidden", "a\tb", "a\nb"} {
			if _, err := s.Create(context.Background(), name); err == nil {
				t.Errorf("%s: Create(%q) accepted", kind, name)
			}
		}
	}
}

func TestTempTarget(t *testing.T) {
	name := tempName("sitemap-12.xml.gz")
	if got, ok := tempTarget(name); !ok || got != "sitemap-12.xml.gz" {
		t.Fatalf("tempTarget(%q) = %q, %v", name, got, ok)
	}
	for _, s := range []string{".bashrc", ".x.tmp", ".x.0123.tmp", ".x.zz23456789abcdef.tmp", "x.0123456789abcdef.tmp"} {
		if _, ok := tempTarget(s); ok {
			t.Errorf("tempTarget(%q) accepted", s)
		}
	}
}

// Recover removes temporary files of owned names only.
func TestRecoverStaleTemps(t *testing.T) {
	ctx := context.Background()
	s, err := Dir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mine, _ := s.Create(ctx, "sitemap-1.xml")
	io.WriteString(mine, "x")
	mine.Commit()
	other, _ := s.Create(ctx, "news-1.xml")
	other.Commit()
	owns := func(n string) bool { return strings.HasPrefix(n, "sitemap") }
	if err := s.Recover(ctx, "sitemap.publish-journal", owns); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(s.Path())
	if len(ents) != 1 || !strings.HasPrefix(ents[0].Name(), ".news-1.xml.") {
		t.Fatalf("after Recover: %v, want only the news temp file", ents)
	}
}

func TestBadJournal(t *testing.T) {
	s, _ := Dir(t.TempDir())
	for _, j := range []string{"", journalMagic + "\n", journalMagic + "\nrename\t.a.0123456789abcdef.tmp\tb\nend\n", "x\nend\n"} {
		os.WriteFile(filepath.Join(s.Path(), "j"), []byte(j), 0o644)
		if err := s.Recover(context.Background(), "j", nil); err == nil {
			t.Errorf("journal %q accepted", j)
		}
	}
}

const helperEnv = "STORE_TEST_HELPER_DIR"

// TestHelperProcess is not a test: TestKillDuringPublish runs the test
// binary with it to publish into a directory and be killed mid-rename.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	ctx := context.Background()
	s, err := Dir(dir)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	s.afterRename = func(done int) {
		if done == 2 {
			fmt.Println("renamed 2")
			time.Sleep(time.Minute) // wait to be killed
		}
	}
	var files []File
	for i := 1; i <= 4; i++ {
		files = append(files, write(t, s, fmt.Sprintf("sitemap-%d.xml", i), fmt.Sprintf("new %d", i)))
	}
	files = append(files, write(t, s, "sitemap.xml", "new index"))
	err = s.Publish(ctx, Publication{Journal: "sitemap.publish-journal", Files: files, Remove: []string{"sitemap-5.xml"}})
	fmt.Println("published", err)
	os.Exit(0)
}

// A run killed in the middle of its renames is finished by Recover: the
// directory then holds exactly the new set, no journal and no temp files.
func TestKillDuringPublish(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _ := Dir(dir)
	var old []File
	for i := 1; i <= 5; i++ {
		old = append(old, write(t, s, fmt.Sprintf("sitemap-%d.xml", i), fmt.Sprintf("old %d", i)))
	}
	old = append(old, write(t, s, "sitemap.xml", "old index"))
	if err := s.Publish(ctx, Publication{Journal: "sitemap.publish-journal", Files: old}); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		if sc.Text() == "renamed 2" {
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
			break
		}
		t.Logf("helper: %s", sc.Text())
	}
	cmd.Wait()
	if !killed {
		t.Fatal("helper never reached the rename phase")
	}
	// Mid-publication: the journal is there, the first two are new.
	if _, err := os.Stat(filepath.Join(dir, "sitemap.publish-journal")); err != nil {
		t.Fatalf("journal missing after kill: %v", err)
	}
	if got := read(t, s, "sitemap-3.xml"); got != "old 3" {
		t.Fatalf("sitemap-3.xml = %q, want old 3 (kill came after 2 renames)", got)
	}
	if err := s.Recover(ctx, "sitemap.publish-journal", func(n string) bool { return strings.HasPrefix(n, "sitemap") }); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"sitemap-1.xml": "new 1", "sitemap-2.xml": "new 2", "sitemap-3.xml": "new 3", "sitemap-4.xml": "new 4", "sitemap.xml": "new index"}
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(want) {
		t.Fatalf("directory after Recover: %v", ents)
	}
	for n, body := range want {
		if got := read(t, s, n); got != body {
			t.Errorf("%s = %q, want %q", n, got, body)
		}
	}
}

// Without a journal, files are published in order and each rename is a
// visible step: after the k-th rename the first k files are new and the
// rest old; nothing is journaled, and removals come last.
func TestPublishInOrder(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, _ := Dir(dir)
	var old []File
	for _, n := range []string{"a.xml", "b.xml", "c.xml", "gone.xml"} {
		old = append(old, write(t, s, n, "old"))
	}
	if err := s.Publish(ctx, Publication{Files: old}); err != nil {
		t.Fatal(err)
	}
	var files []File
	for _, n := range []string{"a.xml", "b.xml", "c.xml"} {
		files = append(files, write(t, s, n, "new"))
	}
	steps := 0
	s.afterRename = func(done int) {
		steps++
		for i, n := range []string{"a.xml", "b.xml", "c.xml"} {
			want := "old"
			if i < done {
				want = "new"
			}
			if got := read(t, s, n); got != want {
				t.Errorf("after %d renames %s = %q, want %q", done, n, got, want)
			}
		}
		if got := read(t, s, "gone.xml"); got != "old" {
			t.Errorf("gone.xml removed before the last rename")
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.Contains(e.Name(), "journal") {
				t.Errorf("a journal %s without Publication.Journal", e.Name())
			}
		}
	}
	if err := s.Publish(ctx, Publication{Files: files, Remove: []string{"gone.xml"}}); err != nil {
		t.Fatal(err)
	}
	s.afterRename = nil
	if steps != 3 {
		t.Fatalf("%d renames seen, want 3", steps)
	}
	if got := list(t, s); !slices.Equal(got, []string{"a.xml", "b.xml", "c.xml"}) {
		t.Fatalf("after publishing: %v", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Fatalf("directory holds %v", ents)
	}
}

// A file renamed after it was written (a name made from its content) is
// published under its new name; a killed run's temporary file of a
// renamed file is still recognised by Recover.
func TestRename(t *testing.T) {
	ctx := context.Background()
	for kind, s := range stores(t) {
		t.Run(kind, func(t *testing.T) {
			f := write(t, s, "sitemap-1.xml", "body")
			r, ok := f.(Renamer)
			if !ok {
				t.Fatal("file is not a Renamer")
			}
			if err := r.Rename("../x"); err == nil {
				t.Fatal("Rename to a path accepted")
			}
			if err := r.Rename("sitemap-1-abc.xml"); err != nil {
				t.Fatal(err)
			}
			if f.Name() != "sitemap-1-abc.xml" {
				t.Fatalf("Name() = %q", f.Name())
			}
			if err := s.Publish(ctx, Publication{Files: []File{f}}); err != nil {
				t.Fatal(err)
			}
			if got := list(t, s); !slices.Equal(got, []string{"sitemap-1-abc.xml"}) {
				t.Fatalf("published %v", got)
			}
			if err := r.Rename("y.xml"); !errors.Is(err, ErrClosed) {
				t.Fatalf("Rename after Publish: %v, want ErrClosed", err)
			}
		})
	}
	s, _ := Dir(t.TempDir())
	f, _ := s.Create(ctx, "sitemap-1.xml")
	io.WriteString(f, "x")
	if err := f.(Renamer).Rename("sitemap-1-abc.xml"); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(s.Path())
	if len(ents) != 1 || !strings.HasPrefix(ents[0].Name(), ".sitemap-1-abc.xml.") {
		t.Fatalf("temporary file after Rename: %v", ents)
	}
	f.Commit()
	if err := s.Recover(ctx, "", func(n string) bool { return n == "sitemap-1-abc.xml" }); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(s.Path()); len(ents) != 0 {
		t.Fatalf("Recover left %v", ents)
	}
}
