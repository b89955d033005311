package input_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/input"
)

// TestParseErrors: what Parse returns when an input cannot be read: a
// missing file is an error to say; a URL that answers 404 with Follow is
// said by its FETCH-HTTP diagnostic, and the error is a ReportedError;
// a format Parse does not write is refused before anything is read.
func TestParseErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	client, _ := fetch.NewClient(fetch.ClientOptions{})
	for _, tc := range []struct {
		name     string
		in       string
		o        input.ParseOptions
		reported bool
		want     string
	}{
		{"missing file", "testdata/no-such.xml", input.ParseOptions{Format: "txt"}, false, "no-such.xml"},
		{"404 followed", srv.URL + "/sitemap.xml", input.ParseOptions{Options: input.Options{Follow: true, Client: client}, Format: "txt"}, true, "404"},
		{"bad format", "testdata/site/sitemap_index.xml", input.ParseOptions{Format: "xml"}, false, "xml"},
	} {
		var out, diag strings.Builder
		_, err := input.Parse(context.Background(), []string{tc.in}, tc.o, &out, &diag)
		var re *input.ReportedError
		if err == nil || errors.As(err, &re) != tc.reported || !strings.Contains(err.Error(), tc.want) || out.Len() > 0 {
			t.Errorf("%s: %v (reported %v), out %q, diag %q", tc.name, err, errors.As(err, &re), out.String(), diag.String())
		}
		if tc.reported && !strings.Contains(diag.String(), "FETCH-HTTP") {
			t.Errorf("%s: diag %q, want its FETCH-HTTP line", tc.name, diag.String())
		}
	}
}
