package indexnow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
)

// A running program (a sitemap server told of its changed entries) hands
// the URLs to a Queue as they come; every interval what was added since
// goes out in one submission, a URL added twice once, at its latest
// version.
func ExampleNewQueue() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var sub struct{ URLList []string }
		json.Unmarshal(b, &sub)
		fmt.Println("received", sub.URLList)
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	client, _ := fetch.NewClient(fetch.ClientOptions{})
	q := indexnow.NewQueue(indexnow.Options{Key: "9f3c2a7e41b84d0c", Host: "www.example.com", Endpoint: srv.URL, Client: client}, 0)
	sent := make(chan string)
	q.Sent = func(sum indexnow.Summary, err error) { sent <- fmt.Sprint(sum, " ", err) }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	q.Add([]sitemap.URL{{Loc: "https://www.example.com/a"}, {Loc: "https://www.example.com/b"}})
	q.Add([]sitemap.URL{{Loc: "https://www.example.com/a"}})
	go q.Run(ctx)
	fmt.Println(<-sent)
	// Output:
	// received [https://www.example.com/a https://www.example.com/b]
	// 2 URLs sent in 1 batch (2 read) <nil>
}
