// Command spasite serves the single-page application of bench/render.sh
// on 127.0.0.1 (internal/spatest): -pages generated routes /p/N beside
// the application's own, and with -twin its server-rendered twin (the same
// pages as plain HTML, no script).
//
// Usage: spasite -pages 500 [-twin] -portfile PORTFILE
package main

import (
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"

	"github.com/sitemapkit/sitemap/internal/spatest"
)

func main() {
	pages := flag.Int("pages", 500, "number of generated pages /p/N")
	twin := flag.Bool("twin", false, "serve the server-rendered twin")
	portfile := flag.String("portfile", "", "write the port to this file once listening")
	flag.Parse()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	if *portfile != "" {
		port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
		if err := os.WriteFile(*portfile, []byte(port), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	log.Fatal(http.Serve(ln, spatest.New(spatest.Options{Pages: *pages, Twin: *twin})))
}
