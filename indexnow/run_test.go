package indexnow

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/fetch"
	"github.com/sitemapkit/sitemap/state"
)

// runSettings are Settings sending to e with the test key and host.
func runSettings(t *testing.T, e *endpoint, inputs ...string) Settings {
	return Settings{Credentials: Credentials{Key: testKey, Host: "www.example.com"}, Inputs: inputs, Endpoint: e.srv.URL + "/indexnow",
		BatchSize: MaxBatch, LockWait: time.Minute, Timeout: time.Minute, Client: testClient(t, fetch.ClientOptions{})}
}

// writeList writes a URL list file.
func writeList(t *testing.T, locs ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "urls.txt")
	if err := os.WriteFile(p, []byte(strings.Join(locs, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Run sends what its inputs list (a file and standard input), says the
// summary on diag, and with a state sends nothing the second time.
func TestRun(t *testing.T) {
	e := newEndpoint(t, nil)
	s := runSettings(t, e, writeList(t, "https://www.example.com/a", "https://www.example.com/b"), "-")
	s.State = filepath.Join(t.TempDir(), "state.db")
	var diag bytes.Buffer
	sum, err := Run(context.Background(), s, strings.NewReader("https://www.example.com/c\n"), nil, &diag)
	if err != nil || !sum.OK() || sum.Sent != 3 {
		t.Fatalf("Run: %+v, %v\n%s", sum, err, &diag)
	}
	if got := e.urls(); !slices.Equal(got, []string{"https://www.example.com/a", "https://www.example.com/b", "https://www.example.com/c"}) {
		t.Errorf("sent %v", got)
	}
	if !strings.Contains(diag.String(), "submit: 3 URLs sent in 1 batch") {
		t.Errorf("diag lacks the summary:\n%s", &diag)
	}
	sum, err = Run(context.Background(), s, strings.NewReader("https://www.example.com/c\n"), nil, &diag)
	if err != nil || sum.Sent != 0 || sum.Already != 3 || len(e.urls()) != 3 {
		t.Errorf("again: %+v, %v, sent %v", sum, err, e.urls())
	}
}

// A dry run writes each batch's body to out and sends nothing; a quota
// leaves URLs for later, which without a state is a warning; a URL off
// the host is refused and the run not OK.
func TestRunDryRunQuotaRefused(t *testing.T) {
	e := newEndpoint(t, nil)
	s := runSettings(t, e, writeList(t, "https://www.example.com/a", "https://www.example.com/b", "https://other.example.org/c"))
	s.DryRun, s.MaxPerDay = true, 1
	var out, diag bytes.Buffer
	sum, err := Run(context.Background(), s, nil, &out, &diag)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.requests()) != 0 || !strings.Contains(out.String(), `"urlList":["https://www.example.com/a"]`) {
		t.Errorf("dry run sent %d, wrote %q", len(e.requests()), &out)
	}
	if sum.OK() || sum.Refused != 1 || sum.Deferred != 1 {
		t.Errorf("summary %+v", sum)
	}
	if !strings.Contains(diag.String(), "sitemap: warning: 1 URL was not sent; without --state, give it again in a later run") {
		t.Errorf("no warning of the URL left:\n%s", &diag)
	}
}

// What Run refuses, named by its flag, before anything is sent.
func TestRunRefuses(t *testing.T) {
	e := newEndpoint(t, nil)
	missing := filepath.Join(t.TempDir(), "nope.txt")
	cases := []struct {
		name string
		edit func(s *Settings)
		want string
	}{
		{"batch size", func(s *Settings) { s.BatchSize = MaxBatch + 1 }, "--batch-size 10001: use 1 to 10000 (IN-08)"},
		{"quota", func(s *Settings) { s.MaxPerDay = -1 }, "--max-per-day -1: use 0 (no limit) or more"},
		{"timeout", func(s *Settings) { s.Timeout = 0 }, "--timeout 0s: use a positive duration"},
		{"lock wait", func(s *Settings) { s.LockWait = -time.Second }, "--lock-wait -1s: use a positive duration"},
		{"missing input", func(s *Settings) { s.Inputs = []string{"-", missing} }, missing + ": no such file"},
		{"no key", func(s *Settings) { s.Key = "" }, "no key: give --key KEY or --key-file FILE"},
		{"state", func(s *Settings) { s.State = filepath.Join(missing, "state.db") }, "--state "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := runSettings(t, e, "-")
			c.edit(&s)
			_, err := Run(context.Background(), s, strings.NewReader("https://www.example.com/a\n"), nil, &bytes.Buffer{})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("Run = %v, want %q", err, c.want)
			}
		})
	}
	if n := len(e.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// A run interrupted is an *InterruptedError saying whether the batches
// sent were recorded; a lock held past LockWait names --lock-wait.
func TestRunStops(t *testing.T) {
	e := newEndpoint(t, nil)
	s := runSettings(t, e, "-")
	ctx, cancel := context.WithCancel(context.Background())
	e.answer = func(n int, w http.ResponseWriter, r *http.Request) { cancel(); w.WriteHeader(http.StatusOK) }
	s.BatchSize = 1
	_, err := Run(ctx, s, strings.NewReader("https://www.example.com/a\nhttps://www.example.com/b\n"), nil, &bytes.Buffer{})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.State || !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted: %v", err)
	}

	e.answer = nil
	s.State = filepath.Join(t.TempDir(), "state.db")
	st, err := state.OpenSQLite(context.Background(), s.State, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	unlock, err := st.LockSubmissions(context.Background(), "another submitter", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	s.LockWait = 50 * time.Millisecond
	_, err = Run(context.Background(), s, strings.NewReader("https://www.example.com/a\n"), nil, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "(--lock-wait 50ms); run again when it is done") {
		t.Fatalf("lock held: %v", err)
	}
}

// PublishSettings.Check refuses the options without a key file, a key
// file without a state, and returns the key of a good one.
func TestPublishSettingsCheck(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, KeyFileName(testKey))
	os.WriteFile(keyFile, []byte(testKey+"\n"), 0o644)
	cases := []struct {
		s        PublishSettings
		hasState bool
		want     string
	}{
		{PublishSettings{}, false, ""},
		{PublishSettings{DryRun: true}, true, "--indexnow-dry-run is an option of the IndexNow submission, which --indexnow-key-file turns on"},
		{PublishSettings{KeyFile: keyFile, MaxPerDay: -2}, true, "--indexnow-max-per-day -2: want 0 (no limit) or more"},
		{PublishSettings{KeyFile: keyFile}, false, "--indexnow-key-file submits what changed since the last submission, which --state records"},
		{PublishSettings{KeyFile: filepath.Join(dir, "nope.txt")}, true, "--indexnow-key-file"},
	}
	for _, c := range cases {
		key, err := c.s.Check(c.hasState)
		if c.want == "" {
			if err != nil || key != "" {
				t.Errorf("%+v: %q, %v", c.s, key, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: Check = %v, want %q", c.s, err, c.want)
		}
	}
	if key, err := (PublishSettings{KeyFile: keyFile}).Check(true); err != nil || key != testKey {
		t.Errorf("good key file: %q, %v", key, err)
	}
}

// PublishSettings.SubmitState sends what was published once, says the
// summary, and a batch refused is ErrPublishedFailures.
func TestPublishSettingsSubmit(t *testing.T) {
	dir := t.TempDir()
	top := filepath.Join(dir, "sitemap.xml")
	os.WriteFile(top, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/a</loc></url></urlset>`), 0o644)
	fail := false
	e := newEndpoint(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if fail {
			w.WriteHeader(http.StatusUnprocessableEntity)
		}
	})
	s := PublishSettings{Endpoint: e.srv.URL + "/indexnow", Client: testClient(t, fetch.ClientOptions{})}
	statePath := filepath.Join(dir, "state.db")
	var diag bytes.Buffer
	if err := s.SubmitState(context.Background(), testKey, top, "www.example.com", statePath, &diag); err != nil {
		t.Fatalf("%v\n%s", err, &diag)
	}
	if !slices.Equal(e.urls(), []string{"https://www.example.com/a"}) || !strings.Contains(diag.String(), "indexnow: 1 URL sent in 1 batch") {
		t.Fatalf("sent %v, said\n%s", e.urls(), &diag)
	}
	fail = true
	os.WriteFile(top, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/b</loc></url></urlset>`), 0o644)
	if err := s.SubmitState(context.Background(), testKey, top, "www.example.com", statePath, &diag); !errors.Is(err, ErrPublishedFailures) {
		t.Fatalf("a batch refused: %v", err)
	}
	err := s.SubmitState(context.Background(), testKey, top, "www.example.com", filepath.Join(top, "state.db"), &diag)
	if err == nil || !strings.Contains(err.Error(), "the sitemaps were published but nothing was submitted to IndexNow") {
		t.Fatalf("no state: %v", err)
	}
}
