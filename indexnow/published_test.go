package indexnow

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// SubmitPublished reads an index and its children back from where they
// were published and sends each URL once per version: a second
// publication of the same set sends nothing, a changed lastmod sends that
// URL again; a child that cannot be read is counted, its URLs not sent.
func TestSubmitPublished(t *testing.T) {
	dir := t.TempDir()
	child := func(name string, body string) {
		os.WriteFile(filepath.Join(dir, name), []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+body+`</urlset>`), 0o644)
	}
	child("s-1.xml", `<url><loc>https://www.example.com/a</loc><lastmod>2026-01-01</lastmod></url><url><loc>https://www.example.com/b</loc></url>`)
	child("s-2.xml", `<url><loc>https://www.example.com/c</loc></url>`)
	top := filepath.Join(dir, "s.xml")
	os.WriteFile(top, []byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
		`<sitemap><loc>https://www.example.com/s-1.xml</loc></sitemap><sitemap><loc>https://www.example.com/s-2.xml</loc></sitemap></sitemapindex>`), 0o644)
	e := newEndpoint(t, nil)
	o := opts(t, e)
	o.Ledger = openLedger(t, filepath.Join(t.TempDir(), "state.db"))
	ctx := context.Background()

	sum, readErrors, err := SubmitPublished(ctx, top, o, PublishedOptions{})
	if err != nil || readErrors != 0 || !sum.OK() {
		t.Fatalf("first: %v, %d read errors, %v", sum, readErrors, err)
	}
	if got := e.urls(); !slices.Equal(got, []string{"https://www.example.com/a", "https://www.example.com/b", "https://www.example.com/c"}) {
		t.Fatalf("sent %v", got)
	}
	if _, _, err := SubmitPublished(ctx, top, o, PublishedOptions{}); err != nil || len(e.urls()) != 3 {
		t.Fatalf("the same set again sent %v (%v)", e.urls()[3:], err)
	}
	child("s-1.xml", `<url><loc>https://www.example.com/a</loc><lastmod>2026-02-01</lastmod></url><url><loc>https://www.example.com/b</loc></url>`)
	os.Remove(filepath.Join(dir, "s-2.xml"))
	var told []sitemap.Diagnostic
	_, readErrors, err = SubmitPublished(ctx, top, o, PublishedOptions{OnReadError: func(d sitemap.Diagnostic) { told = append(told, d) }})
	if err != nil || readErrors == 0 || len(told) != readErrors {
		t.Fatalf("a missing child: %d read errors, %d told, %v", readErrors, len(told), err)
	}
	if got := e.urls()[3:]; !slices.Equal(got, []string{"https://www.example.com/a"}) {
		t.Errorf("after a change sent %v, want only /a", got)
	}
}

// A key file that does not hold the key stops SubmitPublished before any
// read or POST; one that does is told.
func TestSubmitPublishedVerifyKey(t *testing.T) {
	keyFile := testKey
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(keyFile)) }))
	defer srv.Close()
	site := srv.URL
	e := newEndpoint(t, nil)
	o := opts(t, e)
	o.KeyLocation = site + "/" + testKey + ".txt"
	o.Ledger = openLedger(t, filepath.Join(t.TempDir(), "state.db"))
	top := filepath.Join(t.TempDir(), "s.xml")
	os.WriteFile(top, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+site+`/a</loc></url></urlset>`), 0o644)
	o.Host = HostOf(site)
	var verified string
	if _, _, err := SubmitPublished(context.Background(), top, o, PublishedOptions{VerifyKey: true, OnVerified: func(u string) { verified = u }}); err != nil || verified == "" {
		t.Fatalf("a good key file: %v, told %q", err, verified)
	}
	keyFile = "another-key-0000"
	_, _, err := SubmitPublished(context.Background(), top, o, PublishedOptions{VerifyKey: true})
	var ve *VerifyError
	if !errors.As(err, &ve) || ve.URL != o.KeyLocation {
		t.Errorf("a wrong key file: %v", err)
	}
	if n := len(e.requests()); n != 1 {
		t.Errorf("%d POSTs, want the first run's one", n)
	}
}
