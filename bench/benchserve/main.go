// Command benchserve generates and serves the local site of the fetch
// benchmark (bench/fetch.sh) on 127.0.0.1.
//
//	go run ./bench/benchserve -gen bench/out/fetch-site -sitemaps 100 -urls 50000
//	go run ./bench/benchserve -dir bench/out/fetch-site -portfile port.txt
//
// Generation writes sitemap-1.xml.gz … sitemap-N.xml.gz, each a urlset of
// -urls entries (loc and lastmod, as WordPress and most CMSs write them).
// Serving answers the files as they are (.gz as application/gzip, no
// Content-Encoding) and the indexes on the fly, so their locs carry the
// port: /sitemap_index.xml lists every sitemap, /index-K.xml the first K.
// With -variant old or new (the diff benchmark, bench/bigsets.sh) the
// URLs are those of a site before and after a change of 3 %: of each 100
// ids, id%100 == 1 is only in new (added), id%100 == 2 only in old
// (removed) and id%100 == 3 has another lastmod in new (modified). With
// -repeat K (the fetch dedup benchmark) every Kth URL is followed by a
// repeat of an earlier one, picked at random from every sitemap before
// it and itself, so about 1/K of the entries are duplicates across
// sitemaps. Both write gzip at its fastest level, the sitemaps in
// parallel.
// The listening address is written to -portfile once the server is up; the
// server runs until killed. With -validators (the incremental fetch
// benchmark, bench/changes.sh) each sitemap is served with an ETag (its
// size and modification time) and the indexes give each one its
// modification time as <lastmod>; /__bytes answers the body bytes served
// since the last time it was asked, and starts counting again.
package main

import (
	"bufio"
	"compress/gzip"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
)

func main() {
	gen := flag.String("gen", "", "generate the site into `DIR` and exit")
	sitemaps := flag.Int("sitemaps", 100, "sitemaps to generate")
	urls := flag.Int("urls", 50000, "URLs per sitemap")
	dir := flag.String("dir", "", "serve the site in `DIR`")
	portfile := flag.String("portfile", "", "write the listening port to this file")
	validators := flag.Bool("validators", false, "serve ETags, index lastmods and /__bytes")
	variant := flag.String("variant", "", "with -gen: old or new, the two sides of a diff")
	repeat := flag.Int("repeat", 0, "with -gen: every `K`th URL is followed by a repeat of an earlier one")
	flag.Parse()
	switch {
	case *gen != "" && (*variant != "" || *repeat > 0):
		if err := generateBig(*gen, *sitemaps, *urls, *variant, *repeat); err != nil {
			fmt.Fprintln(os.Stderr, "benchserve:", err)
			os.Exit(1)
		}
	case *gen != "":
		if err := generate(*gen, *sitemaps, *urls); err != nil {
			fmt.Fprintln(os.Stderr, "benchserve:", err)
			os.Exit(1)
		}
	case *dir != "":
		if err := serve(*dir, *portfile, *validators); err != nil {
			fmt.Fprintln(os.Stderr, "benchserve:", err)
			os.Exit(1)
		}
	default:
		flag.Usage()
		os.Exit(2)
	}
}

func generate(dir string, n, per int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i := 1; i <= n; i++ {
		name := filepath.Join(dir, "sitemap-"+strconv.Itoa(i)+".xml.gz")
		if _, err := os.Stat(name); err == nil {
			continue
		}
		f, err := os.Create(name + ".tmp")
		if err != nil {
			return err
		}
		zw, _ := gzip.NewWriterLevel(f, gzip.DefaultCompression)
		w := bufio.NewWriterSize(zw, 64<<10)
		w.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for k := 0; k < per; k++ {
			id := (i-1)*per + k
			fmt.Fprintf(w, "<url><loc>https://www.example.com/products/category-%d/item-%d.html</loc><lastmod>2026-%02d-%02dT10:00:00+00:00</lastmod></url>\n", id%97, id, 1+id%12, 1+id%28)
		}
		if err := finishSitemap(w, zw, f, name); err != nil {
			return err
		}
	}
	return nil
}

// finishSitemap ends the urlset written through w, flushes and closes
// the gzip stream zw and its file f (name+".tmp"), and renames it to
// name.
func finishSitemap(w *bufio.Writer, zw *gzip.Writer, f *os.File, name string) error {
	w.WriteString("</urlset>\n")
	if err := w.Flush(); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(name+".tmp", name)
}

// generateBig writes n sitemaps of per ids each, as -variant and
// -repeat say, GOMAXPROCS at a time.
func generateBig(dir string, n, per int, variant string, repeat int) error {
	if variant != "" && variant != "old" && variant != "new" {
		return fmt.Errorf("-variant %q: want old or new", variant)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	next := make(chan int)
	errs := make(chan error, runtime.GOMAXPROCS(0))
	for range cap(errs) {
		go func() {
			var err error
			for i := range next {
				if err == nil {
					err = writeBig(dir, i, per, variant, repeat)
				}
			}
			errs <- err
		}()
	}
	for i := 1; i <= n; i++ {
		next <- i
	}
	close(next)
	var err error
	for range cap(errs) {
		if e := <-errs; err == nil {
			err = e
		}
	}
	return err
}

// writeBig writes sitemap i of generateBig.
func writeBig(dir string, i, per int, variant string, repeat int) error {
	name := filepath.Join(dir, "sitemap-"+strconv.Itoa(i)+".xml.gz")
	if _, err := os.Stat(name); err == nil {
		return nil
	}
	f, err := os.Create(name + ".tmp")
	if err != nil {
		return err
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	w := bufio.NewWriterSize(zw, 64<<10)
	w.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	rng := rand.New(rand.NewPCG(26, uint64(i)))
	var b []byte
	put := func(id, month int) {
		b = append(b[:0], "<url><loc>https://www.example.com/products/category-"...)
		b = strconv.AppendInt(b, int64(id%97), 10)
		b = append(b, "/item-"...)
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, ".html</loc><lastmod>2026-"...)
		b = append(b, byte('0'+month/10), byte('0'+month%10), '-')
		day := 1 + id%28
		b = append(b, byte('0'+day/10), byte('0'+day%10))
		b = append(b, "T10:00:00+00:00</lastmod></url>\n"...)
		w.Write(b)
	}
	for k := 0; k < per; k++ {
		id := (i-1)*per + k
		month := 1 + id%12
		switch {
		case variant == "old" && id%100 == 1, variant == "new" && id%100 == 2:
			continue
		case variant == "new" && id%100 == 3:
			month = 1 + (id+1)%12
		}
		put(id, month)
		if repeat > 0 && (id+1)%repeat == 0 {
			j := rng.IntN(id + 1)
			put(j, 1+j%12)
		}
	}
	return finishSitemap(w, zw, f, name)
}

var indexK = regexp.MustCompile(`^/index-(\d+)\.xml$`)

// counter counts the body bytes a response writes.
type counter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c counter) Write(p []byte) (int, error) {
	n, err := c.ResponseWriter.Write(p)
	c.n.Add(int64(n))
	return n, err
}

func serve(dir, portfile string, validators bool) error {
	var served atomic.Int64
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "sitemap-") && strings.HasSuffix(e.Name(), ".xml.gz") {
			n++
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	files := http.FileServer(http.Dir(dir))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if validators && r.URL.Path == "/__bytes" {
			fmt.Fprintln(w, served.Swap(0))
			return
		}
		w = counter{w, &served}
		k := -1
		if r.URL.Path == "/sitemap_index.xml" {
			k = n
		} else if m := indexK.FindStringSubmatch(r.URL.Path); m != nil {
			k, _ = strconv.Atoi(m[1])
			k = min(k, n)
		}
		if k < 0 {
			if strings.HasSuffix(r.URL.Path, ".gz") {
				w.Header().Set("Content-Type", "application/gzip")
			}
			if fi, err := os.Stat(filepath.Join(dir, filepath.Clean("/"+r.URL.Path))); validators && err == nil {
				w.Header().Set("ETag", fmt.Sprintf(`"%x-%x"`, fi.Size(), fi.ModTime().UnixNano()))
			}
			files.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/xml")
		bw := bufio.NewWriter(w)
		bw.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for i := 1; i <= k; i++ {
			lastmod := ""
			if fi, err := os.Stat(filepath.Join(dir, "sitemap-"+strconv.Itoa(i)+".xml.gz")); validators && err == nil {
				lastmod = "<lastmod>" + fi.ModTime().UTC().Format("2006-01-02T15:04:05.000000000Z") + "</lastmod>"
			}
			fmt.Fprintf(bw, "<sitemap><loc>%s/sitemap-%d.xml.gz</loc>%s</sitemap>\n", base, i, lastmod)
		}
		bw.WriteString("</sitemapindex>\n")
		bw.Flush()
	})
	if portfile != "" {
		if err := os.WriteFile(portfile+".tmp", []byte(strconv.Itoa(port)+"\n"), 0o644); err != nil {
			return err
		}
		if err := os.Rename(portfile+".tmp", portfile); err != nil {
			return err
		}
	}
	return http.Serve(ln, h)
}
