package state_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sitemapkit/sitemap/state"
)

// A command that keeps a crawl's state for an output directory when no
// state file is named: the file lives in the per-user state directory,
// one per output directory.
func ExampleDefaultPath() {
	home, _ := os.MkdirTemp("", "state-home")
	defer os.RemoveAll(home)
	os.Setenv(state.DirEnv, home)
	defer os.Unsetenv(state.DirEnv)

	p, err := state.DefaultPath("public", "crawl")
	if err != nil {
		fmt.Println(err)
		return
	}
	rel, _ := filepath.Rel(home, p)
	fmt.Println(filepath.Dir(rel), strings.HasPrefix(filepath.Base(rel), "public-"), filepath.Ext(rel))
	// Output: crawl true .db
}

// UserDir says where state is kept when no state file is named.
func ExampleUserDir() {
	os.Setenv(state.DirEnv, "/var/lib/sitemap")
	defer os.Unsetenv(state.DirEnv)
	d, _ := state.UserDir()
	fmt.Println(d)
	// Output: /var/lib/sitemap
}

// CheckFile refuses, before anything is opened, a file that is not a
// state file; a dry run reads a copy made by DryRunCopy.
func ExampleCheckFile() {
	dir, _ := os.MkdirTemp("", "state-check")
	defer os.RemoveAll(dir)
	list := filepath.Join(dir, "urls.txt")
	os.WriteFile(list, []byte("https://www.example.com/\n"), 0o644)
	err := state.CheckFile(list)
	fmt.Println(strings.TrimPrefix(err.Error(), list))

	tmp, remove, err := state.DryRunCopy(filepath.Join(dir, "state.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer remove()
	fmt.Println(filepath.Base(tmp))
	// Output:
	//  is not a state file (not an SQLite database); give a new file name, or the file an earlier run wrote
	// state.db
}

// MoveFile moves a state file with its journals, for a program that
// changes where it keeps its state.
func ExampleMoveFile() {
	dir, _ := os.MkdirTemp("", "state-move")
	defer os.RemoveAll(dir)
	from := filepath.Join(dir, "old.db")
	os.WriteFile(from, []byte("SQLite format 3\x00"), 0o600)
	moved, err := state.MoveFile(from, filepath.Join(dir, "new", "state.db"))
	fmt.Println(moved, err)
	// Output: true <nil>
}

// A crawl's state when --state is not given: moved out of the published
// directory, where earlier versions kept it.
func ExampleCrawlPath() {
	home, _ := os.MkdirTemp("", "state-home")
	defer os.RemoveAll(home)
	os.Setenv(state.DirEnv, filepath.Join(home, "state"))
	defer os.Unsetenv(state.DirEnv)
	out := filepath.Join(home, "public")
	os.Mkdir(out, 0o755)
	os.WriteFile(filepath.Join(out, state.LegacyCrawlFile), nil, 0o600)

	dry, _ := state.CrawlPath(out, true)
	fmt.Println("dry run reads the old file:", dry.Path == dry.Legacy)
	f, err := state.CrawlPath(out, false)
	fmt.Println("moved:", f.Moved, err)
	_, err = os.Stat(filepath.Join(out, state.LegacyCrawlFile))
	fmt.Println("left in public/:", err == nil)
	fmt.Println("said:", len(f.Notes()), strings.HasPrefix(f.Notes()[0], "moved the crawl state from"))
	// Output:
	// dry run reads the old file: true
	// moved: true <nil>
	// left in public/: false
	// said: 2 true
}

// A file to give SQLite is told by its first bytes, not its name: a URL
// list named .db is not one.
func ExampleIsSQLite() {
	dir, _ := os.MkdirTemp("", "is-sqlite")
	defer os.RemoveAll(dir)
	list := filepath.Join(dir, "urls.db")
	os.WriteFile(list, []byte("https://www.example.com/\n"), 0o644)
	fmt.Println(state.IsSQLite(list), state.IsSQLite(dir))
	// Output:
	// false false
}
