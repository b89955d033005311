package state

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CrawlLocation: a database as named (shown without its password) but
// never in a dry run; a named file's directory created; a dry run's
// copy said; the default file of the output directory with its note.
func TestCrawlLocation(t *testing.T) {
	home := t.TempDir()
	t.Setenv(DirEnv, filepath.Join(home, "state"))
	const pg = "postgres://crawler:secret@db.example/site"
	if _, err := CrawlLocation(pg, "public", true); err == nil || !strings.HasPrefix(err.Error(), "--dry-run with --state ") || strings.Contains(err.Error(), "secret") {
		t.Errorf("dry run of a database: %v", err)
	}
	l, err := CrawlLocation(pg, "public", false)
	if err != nil || l.Path != pg || l.Shown != Redact(pg) || strings.Contains(l.Shown, "secret") || len(l.Notes) != 0 {
		t.Errorf("database: %+v, %v", l, err)
	}
	named := filepath.Join(home, "a", "b", "crawl.db")
	if l, err = CrawlLocation(named, "public", true); err != nil || l.Path != named || l.Shown != named+" (a copy: dry run)" {
		t.Errorf("dry run of a file: %+v, %v", l, err)
	}
	if _, err := os.Stat(filepath.Dir(named)); err == nil {
		t.Errorf("a dry run created the state's directory")
	}
	if l, err = CrawlLocation(named, "public", false); err != nil || l.Path != named || l.Shown != named {
		t.Errorf("file: %+v, %v", l, err)
	}
	if fi, err := os.Stat(filepath.Dir(named)); err != nil || !fi.IsDir() {
		t.Errorf("the state's directory was not created: %v", err)
	}
	out := filepath.Join(home, "public")
	want, _ := DefaultPath(out, "crawl")
	if l, err = CrawlLocation("", out, false); err != nil || l.Path != want || l.Shown != want || len(l.Notes) != 1 || !strings.HasPrefix(l.Notes[0], "crawl state: "+want) {
		t.Errorf("default: %+v, %v; want %s", l, err, want)
	}
	blocker := filepath.Join(home, "file")
	os.WriteFile(blocker, nil, 0o600)
	if _, err := CrawlLocation(filepath.Join(blocker, "crawl.db"), out, false); err == nil || !strings.HasPrefix(err.Error(), "--state "+filepath.Join(blocker, "crawl.db")+": ") {
		t.Errorf("a file in the way: %v", err)
	}
}

// OpenNamed refuses what cannot be a state file, naming --state, and
// opens the rest.
func TestOpenNamed(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	urls := filepath.Join(dir, "urls.txt")
	os.WriteFile(urls, []byte("https://www.example.com/\n"), 0o600)
	for name, want := range map[string]string{
		dir:                              "--state " + dir + " is a directory",
		urls:                             "--state " + urls + " is not a state file",
		filepath.Join(dir, "no", "s.db"): "--state " + filepath.Join(dir, "no", "s.db") + ": no directory",
	} {
		if st, err := OpenNamed(ctx, name, Options{}); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("OpenNamed(%s) = %v, %v; want an error starting %q", name, st, err, want)
		}
	}
	st, err := OpenNamed(ctx, filepath.Join(dir, "s.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
}

// TestCrawlLocationDryRunNotes: a dry run without --state names no state
// file it does not read (it said "crawl state: PATH" of a file it never
// created); it says it reads a copy of one that is there.
func TestCrawlLocationDryRunNotes(t *testing.T) {
	home := t.TempDir()
	t.Setenv(DirEnv, filepath.Join(home, "state"))
	out := filepath.Join(home, "public")
	path, _ := DefaultPath(out, "crawl")
	for _, c := range []struct {
		name  string
		exist bool
		want  string
	}{
		{"no state yet", false, "dry run: no crawl state is kept (a run without --dry-run keeps it in " + path + ")"},
		{"a state there", true, "dry run: reading a copy of the crawl state " + path + "; nothing is written to it"},
	} {
		if c.exist {
			os.MkdirAll(filepath.Dir(path), 0o755)
			os.WriteFile(path, nil, 0o600)
		}
		l, err := CrawlLocation("", out, true)
		if err != nil || len(l.Notes) != 1 || l.Notes[0] != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, l.Notes, err, c.want)
		}
		if _, err := os.Stat(path); (err == nil) != c.exist {
			t.Errorf("%s: the dry run changed whether %s is there", c.name, path)
		}
	}
}
