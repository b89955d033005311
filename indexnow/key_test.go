package indexnow

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/fetch"
)

func TestValidKey(t *testing.T) {
	for key, ok := range map[string]bool{
		"12345678": true, "abcdefgh-ABCDEFGH-0123": true, strings.Repeat("a", 128): true,
		"1234567": false, strings.Repeat("a", 129): false, "abcd efgh": false, "abcdefg_": false,
		"abcdéfgh": false, "": false, "abcdefg.": false,
	} {
		if err := ValidKey(key); (err == nil) != ok {
			t.Errorf("ValidKey(%q) = %v", key, err)
		}
	}
}

func TestNewKeyAndKeyFile(t *testing.T) {
	k1, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	k2, _ := NewKey()
	if ValidKey(k1) != nil || k1 == k2 || len(k1) != 32 {
		t.Fatalf("keys %q %q", k1, k2)
	}
	dir := filepath.Join(t.TempDir(), "public")
	p, err := WriteKeyFile(dir, k1)
	if err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join(dir, k1+".txt") {
		t.Fatalf("path %s", p)
	}
	f, _ := os.Open(p)
	defer f.Close()
	if got, err := ReadKeyFile(f); err != nil || got != k1 {
		t.Fatalf("read back %q %v", got, err)
	}
	if _, err := WriteKeyFile(dir, "bad key"); err == nil {
		t.Fatal("a bad key was written")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files in %s, want the key file only", len(ents), dir)
	}
}

// TestWriteKeyFileWhere: a directory that is a file is refused saying
// so and what to do (it was "key file directory: mkdir …: not a
// directory").
func TestWriteKeyFileWhere(t *testing.T) {
	file := filepath.Join(t.TempDir(), "public")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := WriteKeyFile(file, "9f3c2a7e41b84d0c")
	if err == nil || !strings.Contains(err.Error(), file+" is a file, not a directory; give a directory you can write to") {
		t.Errorf("a file as the directory: %v", err)
	}
}

func TestReadKeyFile(t *testing.T) {
	for in, want := range map[string]string{"\ufeffabcdefgh\r\n": "abcdefgh", "  abcdefgh  \nrest": "abcdefgh"} {
		if got, err := ReadKeyFile(strings.NewReader(in)); err != nil || got != want {
			t.Errorf("%q: %q %v", in, got, err)
		}
	}
	for _, in := range []string{"", "\n\n", "ab cd efgh"} {
		if _, err := ReadKeyFile(strings.NewReader(in)); err == nil {
			t.Errorf("%q read", in)
		}
	}
}

func TestVerifyKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/" + testKey + ".txt":
			w.Write([]byte(testKey + "\n"))
		case "/other.txt":
			w.Write([]byte("another-key-1234"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c := testClient(t, fetch.ClientOptions{})
	ctx := context.Background()
	if err := VerifyKey(ctx, c, srv.URL+"/"+testKey+".txt", testKey); err != nil {
		t.Fatal(err)
	}
	if err := VerifyKey(ctx, c, srv.URL+"/missing.txt", testKey); err == nil || !strings.Contains(err.Error(), "is missing") {
		t.Fatalf("missing: %v", err)
	}
	if err := VerifyKey(ctx, c, srv.URL+"/other.txt", testKey); err == nil || !strings.Contains(err.Error(), `holds "another-key-1234"`) {
		t.Fatalf("other: %v", err)
	}
	if got := KeyURL("www.example.com", testKey, ""); got != "https://www.example.com/"+testKey+".txt" {
		t.Fatal(got)
	}
}

// FuzzKeyFile: any bytes read as a key file give a key that IN-03 accepts
// or an error, never a panic; an accepted key is the file's first line
// trimmed, and it reads back the same from the file WriteKeyFile would
// write.
func FuzzKeyFile(f *testing.F) {
	f.Add([]byte("9f3c2a7b5d1e4f60a8b9c0d1e2f3a4b5"))
	f.Add([]byte("\ufeff9f3c2a7b5d1e4f60\r\nsecond line"))
	f.Add([]byte("  short \n"))
	f.Add([]byte("key with spaces inside"))
	f.Fuzz(func(t *testing.T, b []byte) {
		key, err := ReadKeyFile(bytes.NewReader(b))
		if err != nil {
			return
		}
		if ValidKey(key) != nil || key != strings.TrimSpace(key) || strings.ContainsAny(key, "\r\n") {
			t.Fatalf("ReadKeyFile(%q) = %q, accepted", b, key)
		}
		if again, err := ReadKeyFile(strings.NewReader(key)); err != nil || again != key {
			t.Fatalf("key %q reads back as %q, %v", key, again, err)
		}
	})
}
