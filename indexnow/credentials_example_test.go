package indexnow_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/indexnow"
)

// The host of a submission comes from --host, or else from where the key
// file is served.
func ExampleCredentials_Resolve() {
	c, warning, err := indexnow.Credentials{Key: "9f3c2a7e41b84d0c", KeyLocation: "https://www.example.com/keys/9f3c2a7e41b84d0c.txt"}.Resolve()
	fmt.Println(c.Host, warning == "", err)
	_, _, err = indexnow.Credentials{Key: "9f3c2a7e41b84d0c"}.Resolve()
	fmt.Println(err)
	// Output:
	// www.example.com true <nil>
	// no host: give --host www.example.com, the host of the URLs to submit
}

func ExampleLoadKeyFile() {
	_, err := indexnow.LoadKeyFile("--key-file", "testdata/no-such-key.txt")
	fmt.Println(err)
	// Output:
	// --key-file: open testdata/no-such-key.txt: no such file or directory
}

// Verify reads the live key file before anything is submitted.
func ExampleCredentials_Verify() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "9f3c2a7e41b84d0c")
	}))
	defer srv.Close()
	c, _, err := indexnow.Credentials{Key: "9f3c2a7e41b84d0c", KeyLocation: srv.URL + "/9f3c2a7e41b84d0c.txt"}.Resolve()
	if err != nil {
		fmt.Println(err)
		return
	}
	hc, _ := fetch.NewClient(fetch.ClientOptions{})
	_, err = c.Verify(context.Background(), hc)
	fmt.Println(err)
	// Output:
	// <nil>
}
