package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Post sends the whole body at every attempt, with its Content-Type,
// and retries a 503 as Get does.
func TestPostRetriesWithTheBody(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.Header.Get("Content-Type")+" "+string(b))
		n := len(got)
		mu.Unlock()
		if n == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	c, err := NewClient(ClientOptions{RetryBase: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Post(context.Background(), srv.URL, "application/json", []byte(`{"a":1}`), GetOptions{AnyStatus: true})
	if err != nil {
		t.Fatal(err)
	}
	resp.Close()
	if resp.Status != 202 || resp.Retries != 1 {
		t.Fatalf("status %d, retries %d", resp.Status, resp.Retries)
	}
	want := `POST application/json {"a":1}`
	if len(got) != 2 || got[0] != want || got[1] != want {
		t.Fatalf("requests %q", got)
	}
}

// Head makes a HEAD request with no body and returns the headers.
func TestHeadAsksForHeadersOnly(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, r.Method+" "+r.Header.Get("Content-Type")+" "+string(b))
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Last-Modified", "Mon, 02 Nov 2026 10:00:00 GMT")
		w.Write([]byte("%PDF-1.7"))
	}))
	defer srv.Close()
	c, err := NewClient(ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Head(context.Background(), srv.URL, GetOptions{AnyStatus: true})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp)
	resp.Close()
	if resp.Status != 200 || resp.ContentType != "application/pdf" || resp.LastModified == "" || len(b) != 0 {
		t.Fatalf("status %d, type %q, last-modified %q, body %q", resp.Status, resp.ContentType, resp.LastModified, b)
	}
	if len(got) != 1 || got[0] != "HEAD  " {
		t.Fatalf("requests %q", got)
	}
}
