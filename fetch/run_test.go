package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/fetch"
)

// TestRunOptionsCheck: the output formats and the flags that go together.
func TestRunOptionsCheck(t *testing.T) {
	for _, tc := range []struct {
		o    fetch.RunOptions
		want string // "" for no error, else part of it
	}{
		{fetch.RunOptions{}, ""},
		{fetch.RunOptions{Format: "csv"}, ""},
		{fetch.RunOptions{Format: "xml"}, "xml"},
		{fetch.RunOptions{Tree: true, Format: "txt"}, ""},
		{fetch.RunOptions{Tree: true, Format: "json"}, ""},
		{fetch.RunOptions{Tree: true, Format: "csv"}, "with --tree"},
		{fetch.RunOptions{TreeURLs: true}, "give --tree too"},
		{fetch.RunOptions{Tree: true, TreeURLs: true, Format: "json"}, "text tree"},
	} {
		err := tc.o.Check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.o, err, tc.want)
		}
	}
}

// TestRunStartError: a start sitemap that answers 404 is one StartError,
// its FETCH-HTTP line held back and no summary printed; a site whose
// index lists one missing child is a problem found, said once.
func TestRunStartError(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/index.xml" {
			fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/gone.xml</loc></sitemap></sitemapindex>`, srv.URL)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	o := fetch.RunOptions{Options: fetch.Options{Attempts: 1}}
	var out, diag strings.Builder
	_, err := fetch.Run(context.Background(), srv.URL+"/gone.xml", o, &out, &diag)
	var se *fetch.StartError
	if !errors.As(err, &se) || se.Start != srv.URL+"/gone.xml" || out.Len() > 0 || diag.Len() > 0 {
		t.Errorf("404 start: %v, out %q, diag %q", err, out.String(), diag.String())
	}
	out.Reset()
	sum, err := fetch.Run(context.Background(), srv.URL+"/index.xml", o, &out, &diag)
	if err != nil || sum.Failed != 1 || strings.Count(diag.String(), "FETCH-HTTP") != 2 || !strings.Contains(diag.String(), "fetch: 2 sitemaps read (1 failed), 0 URLs") {
		// The FETCH-HTTP line, and the summary's count of it.
		t.Errorf("missing child: %v, %+v\n%s", err, sum, diag.String())
	}
}
