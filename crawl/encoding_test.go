package crawl

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"

	sitemap "github.com/sitemapkit/sitemap"
)

// Pages are read through the client's decoding of Content-Encoding: a
// gzip body is undone, a body labelled gzip that is not gzip is read as
// it is, and a corrupt gzip body is an error, not a page.
func TestContentEncoding(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	page := func(links ...string) string {
		s := "<!doctype html><title>t</title>"
		for _, l := range links {
			s += `<a href="` + l + `">x</a>`
		}
		return s
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gz(page("/labelled", "/corrupt")))
		case "/labelled":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write([]byte(page("/plain")))
		case "/corrupt":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write([]byte{0x1f, 0x8b, 0, 0, 0})
		case "/plain":
			w.Write([]byte(page()))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	c, st, err := openCrawler(ctx, filepath.Join(t.TempDir(), "state.db"), srv.URL+"/", Options{Rate: -1, NoSitemaps: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	c.Outcomes(ctx, func(o Outcome) error { reasons[strings.TrimPrefix(o.URL, srv.URL)] = o.Reason; return nil })
	var listed []string
	c.Entries(ctx, func(u *sitemap.URL) error { listed = append(listed, strings.TrimPrefix(u.Loc, srv.URL)); return nil })
	if want := []string{"/", "/labelled", "/plain"}; !slices.Equal(listed, want) {
		t.Errorf("listed %v, want %v (reasons %v)", listed, want, reasons)
	}
	if reasons["/corrupt"] != ReasonError {
		t.Errorf("/corrupt: reason %q, want %q", reasons["/corrupt"], ReasonError)
	}
}
