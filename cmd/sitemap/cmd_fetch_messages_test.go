package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestFetchStartNotFoundOneLine: a start sitemap that answers 404 is one
// line on standard error and exit 2; it was four (the diagnostic, the
// summary, the problem count and the error).
func TestFetchStartNotFoundOneLine(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	code, out, errOut := runCLI(t, "", "fetch", "--attempts", "1", srv.URL+"/sitemap.xml")
	if code != exitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "404") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
}

// TestFetchLocalWarnsHTTPFlags: fetch of a local file says that the
// HTTP-only flags given do nothing, instead of ignoring them silently.
func TestFetchLocalWarnsHTTPFlags(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.xml")
	writeFile(t, p, urlset("https://www.example.com/a"))
	code, out, errOut := runCLI(t, "", "fetch", "--attempts", "2", "--known-paths", "never", p)
	if code != exitOK || out != "https://www.example.com/a\n" || !strings.Contains(errOut, "warning: --known-paths, --attempts have no effect on a local "+p) {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	_, _, errOut = runCLI(t, "", "fetch", p)
	if strings.Contains(errOut, "no effect") {
		t.Errorf("warned without HTTP flags:\n%s", errOut)
	}
}
