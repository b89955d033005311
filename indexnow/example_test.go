package indexnow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
)

func ExampleValidKey() {
	fmt.Println(indexnow.ValidKey("9f3c2a7e41b84d0c"))
	fmt.Println(indexnow.ValidKey("not a key"))
	// Output:
	// <nil>
	// key "not a key" has ' ' at byte 4; a key is 8 to 128 characters of a-z, A-Z, 0-9 and '-' (IN-03): make one with 'sitemap indexnow key'
}

func ExampleWriteKeyFile() {
	dir, _ := os.MkdirTemp("", "public")
	defer os.RemoveAll(dir)
	key, _ := indexnow.NewKey()
	path, err := indexnow.WriteKeyFile(dir, key)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(path)
	fmt.Println(string(b) == key, strings.HasSuffix(path, key+".txt"))
	// Output: true true
}

func ExampleSubmit() {
	// A stand-in for an IndexNow endpoint.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var sub struct{ URLList []string }
		json.Unmarshal(b, &sub)
		fmt.Println("received", sub.URLList)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	client, _ := fetch.NewClient(fetch.ClientOptions{})
	changed := func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for _, loc := range []string{"https://www.example.com/a", "https://cdn.example.net/b", "https://www.example.com/a"} {
			if err := yield(&sitemap.URL{Loc: loc}); err != nil {
				return err
			}
		}
		return nil
	}
	sum, err := indexnow.Submit(context.Background(), changed, indexnow.Options{
		Key: "9f3c2a7e41b84d0c", Host: "www.example.com", Endpoint: srv.URL, Client: client,
		OnDiagnostic: func(d sitemap.Diagnostic) { fmt.Println(d.Rule, d.URL) },
	})
	fmt.Println(sum, err)
	// Output:
	// IN-08 https://cdn.example.net/b
	// received [https://www.example.com/a]
	// 1 URL sent in 1 batch; 1 refused (host or key directory); 1 duplicate (3 read) <nil>
}

func ExampleChanges() {
	diffOutput := `{"change":"added","loc":"https://www.example.com/new"}
{"change":"removed","loc":"https://www.example.com/old"}
`
	changes := indexnow.Changes(strings.NewReader(diffOutput), "-", nil)
	changes(context.Background(), func(u *sitemap.URL) error {
		fmt.Println(u.Loc)
		return nil
	})
	// Output: https://www.example.com/new
}
