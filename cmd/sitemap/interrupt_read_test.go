package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestReadInterruptMessage: Ctrl-C in a command that reads and prints
// (validate, parse, diff) says the output above is incomplete, exit 2;
// "nothing partial was published" (what generate says) meant nothing
// there, and parse had printed entries already.
func TestReadInterruptMessage(t *testing.T) {
	for _, cmd := range []string{"validate", "parse", "diff"} {
		ctx, cancel := context.WithCancel(context.Background())
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/a</loc></url>`))
			w.(http.Flusher).Flush()
			cancel() // Ctrl-C while the rest of the body is awaited
			<-r.Context().Done()
		}))
		args := []string{cmd, srv.URL + "/sitemap.xml"}
		if cmd == "diff" {
			args = append(args, srv.URL+"/sitemap.xml")
		}
		var out, errb bytes.Buffer
		code := execute(ctx, &streams{In: strings.NewReader(""), Out: &out, Err: &errb}, args)
		srv.Close()
		cancel()
		stderr := errb.String()
		if code != exitUsage || strings.Contains(stderr, "published") || !strings.Contains(stderr, "sitemap: interrupted; the output above is incomplete") {
			t.Errorf("%s: exit %d, stderr:\n%s", cmd, code, stderr)
		}
	}
}

// TestParseReadFailureSaidOnce: a named input whose body is cut short is
// said once, at its line (READ-01), exit 2; the same cause was printed
// again as the command's error.
func TestParseReadFailureSaidOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://e.com/a</loc></url>`))
	}))
	defer srv.Close()
	code, out, stderr := runCLI(t, "", "parse", "--format", "txt", srv.URL+"/sitemap.xml")
	if code != exitUsage || out != "https://e.com/a\n" || strings.Count(stderr, "the connection closed") != 1 || !strings.Contains(stderr, "error READ-01") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, stderr)
	}
}
