package build

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/store"
)

var errStopped = errors.New("stopped (a kill at this step)")

// stepStore publishes a publication one step at a time through the store
// it wraps (each file on its own, in order, then each removal), as a
// store without a journal does, and stops after stop steps, as a kill
// between two renames would: what was done stays done, the rest is not.
// With pause set it blocks there instead, to be killed for real.
type stepStore struct {
	store.Store
	stop  int // steps to do before stopping; < 0: all
	steps int
	pause bool
}

func (s *stepStore) Publish(ctx context.Context, p store.Publication) error {
	step := func() error {
		if s.steps == s.stop {
			if s.pause {
				fmt.Printf("step %d\n", s.steps)
				time.Sleep(time.Minute) // wait to be killed
			}
			return errStopped
		}
		s.steps++
		return nil
	}
	for _, f := range p.Files {
		if err := step(); err != nil {
			return err
		}
		if err := s.Store.Publish(ctx, store.Publication{Files: []store.File{f}}); err != nil {
			return err
		}
	}
	for _, r := range p.Remove {
		if err := step(); err != nil {
			return err
		}
		if err := s.Store.Remove(ctx, r); err != nil {
			return err
		}
	}
	if s.pause && s.steps == s.stop {
		step() // after the last step: killed before returning
	}
	return nil
}

// version is the output of one run, file name to bytes.
type version map[string][]byte

func output(t *testing.T, o Options, urls []*sitemap.URL) version {
	t.Helper()
	st := store.Memory()
	sum := run(t, st, o, urls)
	v := version{}
	for _, n := range fileNames(sum) {
		v[n] = st.Bytes(n)
	}
	return v
}

func readAll(st store.Store, name string) ([]byte, error) {
	r, err := st.Open(context.Background(), name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// oneRun checks what a reader of st sees: each top file present (NAME.xml,
// NAME.xml.gz) is that of one of the runs, and every child it lists is
// there, byte for byte that run's. It returns the indexes of the runs
// seen.
func oneRun(t *testing.T, st store.Store, what string, runs ...version) []int {
	t.Helper()
	var seen []int
	for _, top := range []string{"sitemap.xml", "sitemap.xml.gz"} {
		data, err := readAll(st, top)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %s: %v", what, top, err)
		}
		which := -1
		for i, v := range runs {
			if b, ok := v[top]; ok && bytes.Equal(b, data) {
				which = i
			}
		}
		if which < 0 {
			t.Fatalf("%s: %s is the top file of no run:\n%s", what, top, data)
		}
		seen = append(seen, which)
		dec := sitemap.NewDecoder(bytes.NewReader(data), sitemap.DecoderOptions{})
		for {
			it, err := dec.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %s: %v", what, top, err)
			}
			if it.Kind != sitemap.ItemIndex {
				break
			}
			name := strings.TrimPrefix(it.Index.Loc, base)
			got, err := readAll(st, name)
			if err != nil {
				t.Fatalf("%s: %s (run %d) lists %s: %v", what, top, which, name, err)
			}
			if !bytes.Equal(got, runs[which][name]) {
				t.Fatalf("%s: %s (run %d) lists %s, which is not that run's", what, top, which, name)
			}
		}
	}
	if len(seen) == 0 {
		t.Fatalf("%s: no top file", what)
	}
	return seen
}

// The index rename is the one moment the set changes: a run stopped
// after any number of steps of its publication (each rename, each
// removal), as by a kill -9 there, leaves top files that list complete
// children of one run, old or new; the next run finishes the job and
// the one after leaves only its own files. Over a memory store and a
// directory, from an index to a larger index (the shape of 2,000,000 URLs
// then 3,000,000), from a single sitemap to an index and back, and with
// the top file changing its name (gzip-index).
func TestStopAtEveryStep(t *testing.T) {
	older := pages(20)
	newer := pages(30)
	for i := 3; i < 30; i++ { // keep the first child's content: the same name
		newer[i] = &sitemap.URL{Loc: newer[i].Loc, LastMod: sitemap.DayOf(time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC))}
	}
	for _, tc := range []struct {
		name       string
		old, new   Options
		oldN, newN int
	}{
		{"index to larger index", Options{MaxURLs: 3, Gzip: true}, Options{MaxURLs: 3, Gzip: true}, 20, 30},
		{"single to index", Options{}, Options{MaxURLs: 4}, 20, 30},
		{"index to single", Options{MaxURLs: 4}, Options{}, 20, 30},
		{"index to gzip index", Options{MaxURLs: 5}, Options{MaxURLs: 5, GzipIndex: true}, 20, 30},
	} {
		oldV := output(t, tc.old, older[:tc.oldN])
		newV := output(t, tc.new, newer[:tc.newN])
		for _, kind := range []string{"mem", "dir"} {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				sawNew := false
				for k := 0; ; k++ {
					var st store.Store = store.Memory()
					if kind == "dir" {
						d, err := store.Dir(t.TempDir())
						if err != nil {
							t.Fatal(err)
						}
						st = d
					}
					run(t, st, tc.old, older[:tc.oldN])
					ss := &stepStore{Store: st, stop: k}
					_, err := tryRun(ss, tc.new, newer[:tc.newN])
					what := fmt.Sprintf("stopped after %d steps", k)
					seen := oneRun(t, st, what, oldV, newV)
					for _, s := range seen {
						sawNew = sawNew || s == 1
					}
					if sawNew && len(seen) == 1 && seen[0] == 0 {
						t.Fatalf("%s: the old set is visible again after the new one was", what)
					}
					// The next run recovers and publishes; the one after it
					// leaves only its own files.
					run(t, st, tc.new, newer[:tc.newN])
					if seen := oneRun(t, st, what+", then the next run", oldV, newV); len(seen) != 1 || seen[0] != 1 {
						t.Fatalf("%s, then the next run: runs %v visible", what, seen)
					}
					run(t, st, tc.new, newer[:tc.newN])
					if got := listed(t, st); !sameSet(got, keysOf(newV)) {
						t.Fatalf("%s, then two runs: %v, want %v", what, got, keysOf(newV))
					}
					if d, ok := st.(*store.DirStore); ok {
						if ents, _ := os.ReadDir(d.Path()); len(ents) != len(newV) {
							t.Fatalf("%s, then two runs: the directory holds %v", what, ents)
						}
					}
					if err == nil {
						if !sawNew {
							t.Fatal("the new set never became visible")
						}
						break // k is past the last step
					}
					if !errors.Is(err, errStopped) {
						t.Fatalf("%s: %v", what, err)
					}
				}
			})
		}
	}
}

func keysOf(v version) []string {
	var k []string
	for n := range v {
		k = append(k, n)
	}
	return k
}

const switchEnv = "BUILD_TEST_SWITCH_DIR"

// TestSwitchHelper is not a test: TestKillAtRename runs the test binary
// with it to publish a new set into a directory and be killed with
// SIGKILL after a given step of the publication.
func TestSwitchHelper(t *testing.T) {
	dir := os.Getenv(switchEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	stop, _ := strconv.Atoi(os.Getenv(switchEnv + "_STEP"))
	ds, err := store.Dir(dir)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	_, err = tryRun(&stepStore{Store: ds, stop: stop, pause: true}, Options{BaseURL: base, MaxURLs: 3, Gzip: true}, pages(30))
	fmt.Println("published", err)
	os.Exit(0)
}

// A real kill -9 of a run publishing into a directory, before the index
// rename and after it: the directory always shows an index that lists
// complete children of one run, and the next run cleans up.
func TestKillAtRename(t *testing.T) {
	if testing.Short() {
		t.Skip("subprocess test")
	}
	oldO := Options{MaxURLs: 3, Gzip: true}
	oldV := output(t, oldO, pages(20))
	newV := output(t, oldO, pages(30))
	children := len(newV) - 1
	for _, stop := range []int{children / 2, children + 1} {
		t.Run("after "+strconv.Itoa(stop)+" steps", func(t *testing.T) {
			dir := t.TempDir()
			ds, err := store.Dir(dir)
			if err != nil {
				t.Fatal(err)
			}
			run(t, ds, oldO, pages(20))
			cmd := exec.Command(os.Args[0], "-test.run=^TestSwitchHelper$")
			cmd.Env = append(os.Environ(), switchEnv+"="+dir, switchEnv+"_STEP="+strconv.Itoa(stop))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			killed := false
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				if sc.Text() == "step "+strconv.Itoa(stop) {
					cmd.Process.Signal(syscall.SIGKILL)
					killed = true
					break
				}
				t.Logf("helper: %s", sc.Text())
			}
			cmd.Wait()
			if !killed {
				t.Fatal("the helper never reached the step")
			}
			seen := oneRun(t, ds, "killed", oldV, newV)
			if want := 0; stop > children {
				want = 1
				if seen[0] != want {
					t.Fatalf("killed after the index rename: run %d visible", seen[0])
				}
			} else if seen[0] != want {
				t.Fatalf("killed before the index rename: run %d visible", seen[0])
			}
			run(t, ds, oldO, pages(30))
			run(t, ds, oldO, pages(30))
			if ents, _ := os.ReadDir(dir); len(ents) != len(newV) {
				t.Fatalf("after two more runs the directory holds %v", ents)
			}
			oneRun(t, ds, "after two more runs", newV)
		})
	}
}
