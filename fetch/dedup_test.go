package fetch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// spillFiles lists the dedup spill files in dir: those seen there, and
// on Linux those the process holds open though they have no name
// (O_TMPFILE: their /proc/self/fd links read "dir/#inode (deleted)") or
// were unlinked at once (they end in " (deleted)").
func spillFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "sitemap-dedup-*"))
	if err != nil {
		t.Fatal(err)
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		l, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && (strings.HasPrefix(l, filepath.Join(dir, "sitemap-dedup-")) || strings.HasPrefix(l, filepath.Join(dir, "#"))) {
			m = append(m, l)
		}
	}
	return m
}

// A walk with a tiny budget prints each URL once, the same URLs as with
// the default budget, and leaves no spill file behind.
func TestWalkDedupSpill(t *testing.T) {
	s := newSite(t)
	var subs []string
	const per = 3000
	for k := range 4 {
		var locs []string
		for i := range per {
			// Sitemaps overlap by half: URL i of sitemap k is URL i+per/2
			// of sitemap k-1.
			locs = append(locs, "https://e.com/p/"+strconv.Itoa(k*per/2+i))
		}
		p := "/s" + strconv.Itoa(k) + ".xml"
		s.serve(p, "", urlset(locs...))
		subs = append(subs, s.URL+p)
	}
	s.serve("/i.xml", "", index(subs...))
	dir := t.TempDir()
	r := walk(t, s.URL+"/i.xml", Options{DedupMemory: 8 << 10, TempDir: dir})
	if r.err != nil {
		t.Fatal(r.err)
	}
	seen := map[string]bool{}
	for _, l := range r.locs() {
		if seen[l] {
			t.Fatalf("%s printed twice", l)
		}
		seen[l] = true
	}
	want := 3*per/2 + per // 4 sitemaps of per URLs, each sharing half with the previous
	if len(seen) != want || r.sum.Duplicates != int64(4*per-want) {
		t.Fatalf("%d URLs, %d duplicates; want %d and %d", len(seen), r.sum.Duplicates, want, 4*per-want)
	}
	if f := spillFiles(t, dir); len(f) != 0 {
		t.Fatalf("spill files left: %v", f)
	}
}

// The spill files exist during the walk (open, unlinked at once on Unix)
// and are closed and gone when the walk ends early: the callback fails, or the context is cancelled.
func TestDedupSpillRemovedOnStop(t *testing.T) {
	s := newSite(t)
	var locs []string
	for i := range 20000 {
		locs = append(locs, "https://e.com/"+strconv.Itoa(i))
	}
	s.serve("/s.xml", "", urlset(locs...))
	stop := errors.New("enough")
	for _, mode := range []string{"callback", "cancel"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			n, during := 0, 0
			_, err := Walk(ctx, s.URL+"/s.xml", Options{DedupMemory: 8 << 10, TempDir: dir}, func(ev Event) error {
				if ev.Kind != EventURL {
					return nil
				}
				if n++; n == 10000 {
					during = len(spillFiles(t, dir))
					if mode == "cancel" {
						cancel()
						return nil
					}
					return stop
				}
				return nil
			})
			if err == nil || n < 10000 {
				t.Fatalf("err %v after %d URLs", err, n)
			}
			if during == 0 && runtime.GOOS == "linux" {
				t.Fatal("no spill file during the walk")
			}
			if f := spillFiles(t, dir); len(f) != 0 {
				t.Fatalf("spill files left: %v", f)
			}
		})
	}
}

// A spill directory that cannot be written stops the walk with an error
// saying so, instead of printing repeats.
func TestDedupSpillUnwritable(t *testing.T) {
	s := newSite(t)
	var locs []string
	for i := range 5000 {
		locs = append(locs, "https://e.com/"+strconv.Itoa(i))
	}
	s.serve("/s.xml", "", urlset(locs...))
	dir := filepath.Join(t.TempDir(), "missing")
	r := walk(t, s.URL+"/s.xml", Options{DedupMemory: 8 << 10, TempDir: dir})
	if r.err == nil || !errors.Is(r.err, os.ErrNotExist) {
		t.Fatalf("err %v, want a missing-directory error", r.err)
	}
}
