package diff_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/diff"
	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/state"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// changeSite is a site on 127.0.0.1: an index of gzip children, each
// served with an ETag (the hash of its body) and a Last-Modified,
// answering 304 to a matching If-None-Match. The index gives each child
// the <lastmod> in indexMod, which a test may leave unmoved (a lying
// index). It counts the requests and the 200s of each path.
type changeSite struct {
	srv *httptest.Server

	mu       sync.Mutex
	children []map[string]string // child i: loc path → lastmod
	indexMod []string
	full     map[string]int // path → 200s
	notMod   map[string]int // path → 304s
	block    chan struct{}  // when set, children wait on it
	only     string         // when set, only this path waits
}

func newChangeSite(t *testing.T, children, perChild int) *changeSite {
	s := &changeSite{full: map[string]int{}, notMod: map[string]int{}}
	for i := range children {
		m := map[string]string{}
		for j := range perChild {
			m[fmt.Sprintf("/c%d/p%d", i, j)] = "2026-11-01"
		}
		s.children = append(s.children, m)
		s.indexMod = append(s.indexMod, "2026-11-01")
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *changeSite) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	block := s.block
	var body []byte
	if r.URL.Path == "/sitemap_index.xml" {
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i, m := range s.indexMod {
			fmt.Fprintf(&b, "<sitemap><loc>%s/s%d.xml.gz</loc><lastmod>%s</lastmod></sitemap>", s.srv.URL, i, m)
		}
		b.WriteString("</sitemapindex>")
		body = b.Bytes()
	} else {
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/s%d.xml.gz", &i); err != nil || i >= len(s.children) {
			s.mu.Unlock()
			http.NotFound(w, r)
			return
		}
		locs := make([]string, 0, len(s.children[i]))
		for l := range s.children[i] {
			locs = append(locs, l)
		}
		slices.Sort(locs)
		var x bytes.Buffer
		x.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for _, l := range locs {
			fmt.Fprintf(&x, "<url><loc>%s%s</loc><lastmod>%s</lastmod></url>", s.srv.URL, l, s.children[i][l])
		}
		x.WriteString("</urlset>")
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(x.Bytes())
		zw.Close()
		body = z.Bytes()
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	if r.Header.Get("If-None-Match") == etag {
		s.notMod[r.URL.Path]++
		s.mu.Unlock()
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.full[r.URL.Path]++
	only := s.only
	s.mu.Unlock()
	if block != nil && r.URL.Path != "/sitemap_index.xml" && (only == "" || only == r.URL.Path) {
		select {
		case <-block:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Last-Modified", "Sun, 01 Nov 2026 10:00:00 GMT")
	w.Write(body)
}

// counts returns and resets the 200s and 304s of the children.
func (s *changeSite) counts() (full, notMod int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p, n := range s.full {
		if p != "/sitemap_index.xml" {
			full += n
		}
	}
	for _, n := range s.notMod {
		notMod += n
	}
	clear(s.full)
	clear(s.notMod)
	return full, notMod
}

func (s *changeSite) edit(f func(s *changeSite)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// changes runs Changes once and returns its changes as "kind loc-path".
func (s *changeSite) changes(t *testing.T, log state.ChangeLog, o diff.ChangesOptions) ([]string, diff.ChangesSummary) {
	t.Helper()
	var got []string
	sum, err := diff.Changes(context.Background(), s.srv.URL+"/sitemap_index.xml", log, o, func(c diff.Change) error {
		got = append(got, string(c.Change)+" "+strings.TrimPrefix(c.Loc, s.srv.URL))
		return nil
	})
	if err != nil {
		t.Fatalf("Changes: %v", err)
	}
	return got, sum
}

// openers are the state backends the change log is tested on.
var changeLogs = []struct {
	name string
	open func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "state.db") }},
	{"postgres", func(t *testing.T) string { return pgtest.DB(t) }},
}

func openChangeLog(t *testing.T, name string) state.ChangeLog {
	t.Helper()
	st, err := state.Open(context.Background(), name, state.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st.Changes()
}

// TestChanges follows one site through five runs: the first lists every
// entry as added; with nothing changed only the index is read; a child
// changed (and its index lastmod moved) gives exactly its changes; a
// child changed behind an index that lies is found at the full pass.
func TestChanges(t *testing.T) {
	for _, b := range changeLogs {
		t.Run(b.name, func(t *testing.T) {
			site := newChangeSite(t, 4, 5)
			log := openChangeLog(t, b.open(t))
			o := diff.ChangesOptions{FullEvery: 4}

			got, sum := site.changes(t, log, o)
			if len(got) != 20 || !sum.First || !sum.Full || sum.Read != 4 {
				t.Fatalf("first run: %d changes, summary %+v; want 20 added, a full first pass reading 4 sitemaps", len(got), sum)
			}
			for _, g := range got {
				if !strings.HasPrefix(g, "added ") {
					t.Fatalf("first run: %q, want only added", g)
				}
			}
			site.counts()

			got, sum = site.changes(t, log, o)
			full, notMod := site.counts()
			if len(got) != 0 || full != 0 || notMod != 0 || sum.Skipped != 4 {
				t.Fatalf("unchanged run: changes %v, %d children read, %d 304s, summary %+v; want none, none, none, 4 skipped", got, full, notMod, sum)
			}

			site.edit(func(s *changeSite) {
				c := s.children[1]
				delete(c, "/c1/p0")
				c["/c1/new"] = "2026-11-20"
				c["/c1/p3"] = "2026-11-21"
				s.indexMod[1] = "2026-11-21"
			})
			got, _ = site.changes(t, log, o)
			want := []string{"added /c1/new", "modified /c1/p3", "removed /c1/p0"}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("a child changed: %v, want %v", got, want)
			}
			if full, _ := site.counts(); full != 1 {
				t.Fatalf("a child changed: %d children read in full, want 1", full)
			}

			// The index lies: child 2 changes, its <lastmod> does not.
			site.edit(func(s *changeSite) { s.children[2]["/c2/p1"] = "2026-11-22" })
			got, sum = site.changes(t, log, o) // run 4: incremental, misses it
			if len(got) != 0 || sum.Full {
				t.Fatalf("run 4: %v (summary %+v), want nothing: an incremental pass trusts the index", got, sum)
			}
			site.counts()
			got, sum = site.changes(t, log, o) // run 5: the full pass
			full, notMod = site.counts()
			if !sum.Full || !slices.Equal(got, []string{"modified /c2/p1"}) || full != 1 || notMod != 3 {
				t.Fatalf("run 5 (full pass): %v, %d read, %d 304s, summary %+v; want modified /c2/p1, 1 read, 3 not modified", got, full, notMod, sum)
			}

			// A child gone from the index: its entries are removed.
			site.edit(func(s *changeSite) {
				s.children = s.children[:3]
				s.indexMod = s.indexMod[:3]
			})
			got, sum = site.changes(t, log, o)
			if len(got) != 5 || sum.Gone != 1 {
				t.Fatalf("a child gone: %v (summary %+v), want its 5 entries removed", got, sum)
			}
		})
	}
}

// TestChangesInterrupted stops runs half-way, by the emit callback and by
// a cancelled context while a child is being read: the log stays as the
// last finished run left it, so the next run reports the same changes.
func TestChangesInterrupted(t *testing.T) {
	for _, b := range changeLogs {
		t.Run(b.name, func(t *testing.T) {
			site := newChangeSite(t, 3, 4)
			log := openChangeLog(t, b.open(t))
			o := diff.ChangesOptions{FullEvery: -1}
			site.changes(t, log, o)

			site.edit(func(s *changeSite) {
				s.children[0]["/c0/new"] = "2026-11-20"
				delete(s.children[2], "/c2/p2")
				s.indexMod[0], s.indexMod[2] = "2026-11-20", "2026-11-20"
			})
			stop := errors.New("stop")
			_, err := diff.Changes(context.Background(), site.srv.URL+"/sitemap_index.xml", log, o, func(diff.Change) error { return stop })
			if !errors.Is(err, stop) {
				t.Fatalf("emit's error: got %v", err)
			}

			// Killed while a child is read: the server holds the body.
			ctx, cancel := context.WithCancel(context.Background())
			site.edit(func(s *changeSite) { s.block = make(chan struct{}) })
			done := make(chan error, 1)
			go func() {
				_, err := diff.Changes(ctx, site.srv.URL+"/sitemap_index.xml", log, o, func(diff.Change) error { return nil })
				done <- err
			}()
			for {
				if full, _ := site.counts(); full > 0 {
					break // a child's request has arrived and waits
				}
				time.Sleep(10 * time.Millisecond)
			}
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled run: got %v, want context.Canceled", err)
			}
			site.edit(func(s *changeSite) { s.block = nil })

			got, _ := site.changes(t, log, o)
			slices.Sort(got)
			if want := []string{"added /c0/new", "removed /c2/p2"}; !slices.Equal(got, want) {
				t.Fatalf("after two stopped runs: %v, want %v", got, want)
			}
			if got, _ := site.changes(t, log, o); len(got) != 0 {
				t.Fatalf("once recorded: %v, want nothing", got)
			}
		})
	}
}

// TestChangesSince keeps the added and modified entries whose lastmod is
// after Since.
func TestChangesSince(t *testing.T) {
	site := newChangeSite(t, 2, 3)
	site.edit(func(s *changeSite) { s.children[1]["/c1/p1"] = "2026-11-25" })
	log := openChangeLog(t, filepath.Join(t.TempDir(), "state.db"))
	got, sum := site.changes(t, log, diff.ChangesOptions{Since: time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)})
	if !slices.Equal(got, []string{"added /c1/p1"}) || sum.Filtered != 5 {
		t.Fatalf("since: %v (filtered %d), want added /c1/p1 (5 filtered)", got, sum.Filtered)
	}
}

// TestChangesKilled kills a process (SIGKILL) while its run waits for a
// child sitemap that changed, once it staged the index and the other
// changed child (seen in the state file): the file stays as the last
// finished run left it, and the next run reports the changes once.
func TestChangesKilled(t *testing.T) {
	if u := os.Getenv("SITEMAP_TEST_CHANGES_KILLED"); u != "" {
		st, err := state.Open(context.Background(), os.Getenv("SITEMAP_TEST_CHANGES_STATE"), state.Options{})
		if err != nil {
			os.Exit(3)
		}
		diff.Changes(context.Background(), u, st.Changes(), diff.ChangesOptions{FullEvery: -1}, func(diff.Change) error { return nil })
		os.Exit(4) // never reached: the server holds the child until the kill
	}
	site := newChangeSite(t, 3, 4)
	name := filepath.Join(t.TempDir(), "state.db")
	log := openChangeLog(t, name)
	o := diff.ChangesOptions{FullEvery: -1}
	site.changes(t, log, o)
	site.edit(func(s *changeSite) {
		s.children[0]["/c0/new"] = "2026-11-20"
		delete(s.children[2], "/c2/p2")
		s.indexMod[0], s.indexMod[2] = "2026-11-20", "2026-11-20"
		s.block, s.only = make(chan struct{}), "/s2.xml.gz"
	})
	site.counts()
	db, err := sql.Open("sqlite", name)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChangesKilled$")
	cmd.Env = append(os.Environ(), "SITEMAP_TEST_CHANGES_KILLED="+site.srv.URL+"/sitemap_index.xml", "SITEMAP_TEST_CHANGES_STATE="+name)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var staged int
		if db.QueryRow(`SELECT count(*) FROM changes_sitemaps WHERE run <> 0`).Scan(&staged) == nil && staged >= 2 {
			break // the index and child 0 staged; child 2 waits in the server
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child process staged nothing")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	site.edit(func(s *changeSite) { s.block = nil })
	got, _ := site.changes(t, log, o)
	slices.Sort(got)
	if want := []string{"added /c0/new", "removed /c2/p2"}; !slices.Equal(got, want) {
		t.Fatalf("after a killed run: %v, want %v", got, want)
	}
	if got, _ := site.changes(t, log, o); len(got) != 0 {
		t.Fatalf("once recorded: %v, want nothing", got)
	}
}
