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
	"time"

	"github.com/sitemapkit/sitemap/indexnow"
)

// Run is `sitemap submit --key KEY --host HOST --state FILE -` as one
// call: the URLs read are sent once at each version, the summary said on
// the diagnostics writer.
func ExampleRun() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var sub struct{ URLList []string }
		json.Unmarshal(b, &sub)
		fmt.Println("received", sub.URLList)
	}))
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "indexnow-run")
	defer os.RemoveAll(dir)
	s := indexnow.Settings{
		Credentials: indexnow.Credentials{Key: "9f3c2a7e41b84d0c", Host: "www.example.com"},
		Inputs:      []string{"-"}, Endpoint: srv.URL, State: filepath.Join(dir, "state.db"),
		BatchSize: indexnow.MaxBatch, Timeout: 30 * time.Second, LockWait: time.Minute,
	}
	for range 2 {
		sum, err := indexnow.Run(context.Background(), s, strings.NewReader("https://www.example.com/a\n"), os.Stdout, os.Stdout)
		fmt.Println(sum.OK(), err)
	}
	// Output:
	// received [https://www.example.com/a]
	// batch 1: 1 URL: sent: HTTP 200: received
	// submit: 1 URL sent in 1 batch (1 read)
	// true <nil>
	// submit: 0 URLs sent in 0 batches; 1 already submitted (1 read)
	// true <nil>
}

// PublishSettings.Check refuses the --indexnow-* flags that need a key
// file or a state, and returns the key of the key file.
func ExamplePublishSettings_Check() {
	_, err := indexnow.PublishSettings{VerifyKey: true}.Check(true)
	fmt.Println(err)
	_, err = indexnow.PublishSettings{KeyFile: "public/KEY.txt"}.Check(false)
	fmt.Println(err)
	// Output:
	// --indexnow-verify-key is an option of the IndexNow submission, which --indexnow-key-file turns on; give --indexnow-key-file FILE too
	// --indexnow-key-file submits what changed since the last submission, which --state records; give --state FILE too
}

// After a publication, SubmitState sends what the published sitemap
// holds and the state has not seen sent, and says so.
func ExamplePublishSettings_SubmitState() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "indexnow-publish")
	defer os.RemoveAll(dir)
	top := filepath.Join(dir, "sitemap.xml")
	os.WriteFile(top, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>`), 0o644)
	s := indexnow.PublishSettings{Endpoint: srv.URL}
	err := s.SubmitState(context.Background(), "9f3c2a7e41b84d0c", top, "www.example.com", filepath.Join(dir, "state.db"), os.Stdout)
	fmt.Println(err)
	// Output:
	// indexnow: batch 1: 1 URL: sent: HTTP 200: received
	// indexnow: 1 URL sent in 1 batch (1 read)
	// <nil>
}
