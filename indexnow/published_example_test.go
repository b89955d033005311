package indexnow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
	"github.com/sitemapkit/sitemap/input"
	"github.com/sitemapkit/sitemap/state"
)

// After publishing, a program tells IndexNow what changed: the published
// sitemap is read back and each URL sent once per version, recorded in
// the state's ledger; the same publication again sends nothing.
func ExampleSubmitPublished() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var sub struct{ URLList []string }
		json.Unmarshal(b, &sub)
		fmt.Println("received", sub.URLList)
	}))
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "indexnow-published")
	defer os.RemoveAll(dir)
	top := filepath.Join(dir, "sitemap.xml")
	os.WriteFile(top, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>`), 0o644)
	ctx := context.Background()
	ledger, err := state.OpenSQLite(ctx, filepath.Join(dir, "state.db"), state.SQLiteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ledger.Close()
	client, _ := fetch.NewClient(fetch.ClientOptions{})
	o := indexnow.Options{Key: "9f3c2a7e41b84d0c", Host: "www.example.com", Endpoint: srv.URL, Client: client, Ledger: ledger}
	for range 2 {
		sum, readErrors, err := indexnow.SubmitPublished(ctx, top, o, indexnow.PublishedOptions{})
		fmt.Println(sum.OK(), readErrors, err)
	}
	// Output:
	// received [https://www.example.com/a]
	// true 0 <nil>
	// true 0 <nil>
}

// Inputs reads what `sitemap submit` takes: change lists from `sitemap
// diff`, sitemaps, URL lists and standard input, in the order given.
func ExampleInputs() {
	dir, _ := os.MkdirTemp("", "indexnow-inputs")
	defer os.RemoveAll(dir)
	changes := filepath.Join(dir, "changes.jsonl")
	os.WriteFile(changes, []byte(`{"change":"modified","loc":"https://www.example.com/a","new":{"loc":"https://www.example.com/a","lastmod":"2026-11-02"}}`+"\n"), 0o644)
	entries, err := indexnow.Inputs(context.Background(), []string{changes, "-"}, "9f3c2a7e41b84d0c", input.Options{
		Stdin: strings.NewReader("https://www.example.com/b\n"), Follow: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	entries(context.Background(), func(u *sitemap.URL) error {
		fmt.Println(u.Loc)
		return nil
	})
	// Output:
	// https://www.example.com/a
	// https://www.example.com/b
}
