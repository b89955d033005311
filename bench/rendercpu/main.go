// Command rendercpu renders pages of internal/spatest's application (or,
// with -empty, a page holding one paragraph and no script) through package
// render, and prints the CPU seconds each kind of Chromium process (browser,
// renderer, GPU, network service) and the Go process (render, and the test
// server) spent a page: where the CPU of a rendered page goes, read from
// /proc (Linux), so a loaded machine does not distort it as it does wall
// time. bench/render.sh measures the whole command instead.
//
// Usage: go run ./bench/rendercpu [-pages 200] [-tabs 4] [-browser PATH] [-empty]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/sitemapkit/sitemap/internal/spatest"
	"github.com/sitemapkit/sitemap/render"
)

func procs() map[int][2]string { // pid -> ppid, type
	out := map[int][2]string{}
	ds, _ := os.ReadDir("/proc")
	for _, d := range ds {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		cmd, _ := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		typ := "browser"
		for _, a := range strings.FieldsFunc(string(cmd), func(r rune) bool { return r == 0 || r == ' ' }) {
			if t, ok := strings.CutPrefix(a, "--type="); ok {
				typ = t
				if t == "utility" {
					for _, a2 := range strings.FieldsFunc(string(cmd), func(r rune) bool { return r == 0 || r == ' ' }) {
						if u, ok := strings.CutPrefix(a2, "--utility-sub-type="); ok {
							typ = "utility:" + u
						}
					}
				}
			}
		}
		out[pid] = [2]string{f[1], typ}
	}
	return out
}

func cpu(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	u, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	cu, _ := strconv.ParseFloat(f[13], 64)
	cs, _ := strconv.ParseFloat(f[14], 64)
	return (u + st + cu + cs) / 100
}

func treeCPU() (map[string]float64, int) {
	ps := procs()
	self := os.Getpid()
	by := map[string]float64{}
	n := 0
	for pid, v := range ps {
		j, k := pid, 0
		for j != self && k < 64 {
			pp, ok := ps[j]
			if !ok {
				break
			}
			j, _ = strconv.Atoi(pp[0])
			k++
		}
		if j == self && pid != self {
			by[v[1]] += cpu(pid)
			n++
		}
	}
	return by, n
}

func selfCPU() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// report prints the CPU each kind of process spent a page since start,
// and the Go process's (self).
func report(pages int, start map[string]float64, self float64) {
	by, _ := treeCPU()
	keys := []string{}
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var tot float64
	for _, k := range keys {
		d := by[k] - start[k]
		tot += d
		fmt.Printf("  %-28s %6.2f s  %5.1f ms/page\n", k, d, 1000*d/float64(pages))
	}
	fmt.Printf("  %-28s %6.2f s  %5.1f ms/page\n", "go (sitemap+server)", self, 1000*self/float64(pages))
	tot += self
	fmt.Printf("  TOTAL %.2f s  %.1f ms/page  => %.1f p/s on 2 idle cores\n", tot, 1000*tot/float64(pages), 2/(tot/float64(pages)))
	b, _ := os.ReadFile("/proc/loadavg")
	fmt.Println("load", string(b))
}

func main() {
	pages := flag.Int("pages", 200, "")
	tabs := flag.Int("tabs", 4, "")
	browser := flag.String("browser", "", "")
	empty := flag.Bool("empty", false, "render an empty page each time")
	flag.Parse()
	site := spatest.New(spatest.Options{Pages: *pages})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/empty" {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<!doctype html><title>e</title><p>x</p>")
			return
		}
		site.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx := context.Background()
	t0 := time.Now()
	c, err := render.New(ctx, render.Options{Concurrency: *tabs, Browser: *browser})
	if err != nil {
		log.Fatal(err)
	}
	startBy, _ := treeCPU()
	startSelf := selfCPU()
	var st float64
	for _, v := range startBy {
		st += v
	}
	fmt.Printf("start: %.0f ms wall, %.3f CPU-s tree %v\n", float64(time.Since(t0).Milliseconds()), st, startBy)
	t1 := time.Now()
	work := make(chan string)
	var wg sync.WaitGroup
	var mu sync.Mutex
	errs, tos, bytes := 0, 0, 0
	for range *tabs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range work {
				r, err := c.Render(ctx, u)
				mu.Lock()
				if err != nil {
					errs++
					if errs < 3 {
						fmt.Println("err", err)
					}
				}
				if r.TimedOut {
					tos++
				}
				bytes += len(r.HTML)
				mu.Unlock()
			}
		}()
	}
	for i := range *pages {
		if *empty {
			work <- srv.URL + "/empty"
		} else {
			work <- srv.URL + "/p/" + strconv.Itoa(i)
		}
	}
	close(work)
	wg.Wait()
	wall := time.Since(t1).Seconds()
	fmt.Println("app.js hits", site.Hits("/app.js"))
	fmt.Printf("pages %d tabs %d wall %.2fs %.1f p/s errs %d timeouts %d avgbytes %d\n", *pages, *tabs, wall, float64(*pages)/wall, errs, tos, bytes / *pages)
	report(*pages, startBy, selfCPU()-startSelf)
	c.Close()
}
