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
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
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
	flag.Parse()
	switch {
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
		if err := os.Rename(name+".tmp", name); err != nil {
			return err
		}
	}
	return nil
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
