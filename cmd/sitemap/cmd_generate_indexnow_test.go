package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// generate --state --indexnow-key-file: after publishing, the URLs whose
// content changed since the last submission are sent, each once.
func TestGenerateSubmitsChangesOnce(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, submitKey+".txt")
	os.WriteFile(keyFile, []byte(submitKey), 0o644)
	in := filepath.Join(dir, "pages.jsonl")
	st := filepath.Join(dir, "st.db")
	out := filepath.Join(dir, "public")
	write := func(images map[string]bool) {
		var b strings.Builder
		for _, p := range []string{"a", "b", "c", "d"} {
			loc := "https://www.example.com/" + p
			if images[p] {
				b.WriteString(`{"loc":"` + loc + `","images":[{"loc":"https://www.example.com/` + p + `.jpg"}]}` + "\n")
			} else {
				b.WriteString(`{"loc":"` + loc + `"}` + "\n")
			}
		}
		os.WriteFile(in, []byte(b.String()), 0o644)
	}
	run := func() ([]string, string) {
		before := len(e.urls())
		code, _, errb := runCLI(t, "", "generate", "--base-url", "https://www.example.com/", "--out", out, "--state", st,
			"--indexnow-key-file", keyFile, "--indexnow-endpoint", e.srv.URL, in)
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, errb)
		}
		return e.urls()[before:], errb
	}
	write(nil)
	if got, errb := run(); len(got) != 4 {
		t.Fatalf("first run sent %q\n%s", got, errb)
	}
	write(map[string]bool{"b": true, "d": true})
	if got, errb := run(); !slices.Equal(got, []string{"https://www.example.com/b", "https://www.example.com/d"}) {
		t.Fatalf("second run sent %q, want b and d\n%s", got, errb)
	}
	if got, errb := run(); len(got) != 0 || !strings.Contains(errb, "4 already submitted") {
		t.Fatalf("third run sent %q\n%s", got, errb)
	}
}

func TestGenerateIndexNowNeedsState(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, submitKey+".txt")
	os.WriteFile(keyFile, []byte(submitKey), 0o644)
	code, _, errb := runCLI(t, "https://www.example.com/a\n", "generate", "--base-url", "https://www.example.com/", "--out", filepath.Join(dir, "out"),
		"--indexnow-key-file", keyFile, "-")
	if code != 2 || !strings.Contains(errb, "give --state FILE too") {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Fatal("the refused run wrote --out")
	}
}

// generate has submit's --key-location, --max-per-day, --dry-run and
// --verify-key as --indexnow-*, with the same meanings: the dry run
// prints the batch and sends and records nothing (the next run sends
// all); the quota sends 2 of 4 and the next run the other 2; the key
// location goes into the body and keeps URLs outside its directory out
// (IN-05); the key is verified on the host first. Without
// --indexnow-key-file each is refused.
func TestGenerateIndexNowOptions(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, submitKey+".txt")
	os.WriteFile(keyFile, []byte(submitKey), 0o644)
	in := filepath.Join(dir, "pages.txt")
	os.WriteFile(in, []byte("https://www.example.com/a\nhttps://www.example.com/b\nhttps://www.example.com/blog/c\nhttps://www.example.com/blog/d\n"), 0o644)
	st := filepath.Join(dir, "st.db")
	out := filepath.Join(dir, "public")
	run := func(extra ...string) ([]string, string, int) {
		before := len(e.urls())
		args := append([]string{"generate", "--base-url", "https://www.example.com/", "--out", out, "--state", st,
			"--indexnow-key-file", keyFile, "--indexnow-endpoint", e.srv.URL}, extra...)
		code, _, errb := runCLI(t, "", append(args, in)...)
		return e.urls()[before:], errb, code
	}
	if got, errb, code := run("--indexnow-dry-run"); code != 0 || len(got) != 0 || !strings.Contains(errb, `indexnow: dry run: {"batch":1,`) || !strings.Contains(errb, "https://www.example.com/blog/d") {
		t.Fatalf("dry run: exit %d, sent %q\n%s", code, got, errb)
	}
	if got, errb, code := run("--indexnow-max-per-day", "2"); code != 0 || len(got) != 2 {
		t.Fatalf("quota: exit %d, sent %q\n%s", code, got, errb)
	}
	if got, errb, code := run("--indexnow-max-per-day", "4"); code != 0 || len(got) != 2 {
		t.Fatalf("quota, next run: exit %d, sent %q\n%s", code, got, errb)
	}

	os.WriteFile(in, []byte("https://www.example.com/e\nhttps://www.example.com/blog/f\n"), 0o644)
	loc := "https://www.example.com/blog/" + submitKey + ".txt"
	got, errb, code := run("--indexnow-key-location", loc)
	if code != 1 || !slices.Equal(got, []string{"https://www.example.com/blog/f"}) || !strings.Contains(errb, "https://www.example.com/e") {
		t.Fatalf("key location: exit %d, sent %q\n%s", code, got, errb)
	}
	e.mu.Lock()
	b := e.bodies[len(e.bodies)-1]
	e.mu.Unlock()
	if b.KeyLocation != loc {
		t.Errorf("keyLocation %q in the body, want %q", b.KeyLocation, loc)
	}

	// The key file is fetched from --indexnow-key-location (the
	// endpoint's server serves it) before anything is sent.
	os.WriteFile(in, []byte(e.srv.URL+"/g\n"), 0o644)
	code, _, errb = runCLI(t, "", "generate", "--base-url", e.srv.URL+"/", "--out", out, "--state", st,
		"--indexnow-key-file", keyFile, "--indexnow-endpoint", e.srv.URL, "--indexnow-verify-key",
		"--indexnow-key-location", e.srv.URL+"/"+submitKey+".txt", in)
	if code != 0 || !strings.Contains(errb, "indexnow: key file "+e.srv.URL+"/"+submitKey+".txt holds the key") || !slices.Contains(e.urls(), e.srv.URL+"/g") {
		t.Fatalf("verify key: exit %d\n%s", code, errb)
	}

	for _, flag := range [][]string{{"--indexnow-dry-run"}, {"--indexnow-max-per-day", "3"}, {"--indexnow-key-location", loc}, {"--indexnow-verify-key"}} {
		args := append([]string{"generate", "--base-url", "https://www.example.com/", "--out", filepath.Join(dir, "no"), "--state", st}, flag...)
		if code, _, errb := runCLI(t, "", append(args, in)...); code != 2 || !strings.Contains(errb, "give --indexnow-key-file FILE too") {
			t.Errorf("%s without --indexnow-key-file: exit %d\n%s", flag[0], code, errb)
		}
	}
}

// A batch of one is "1 URL", as submit says it.
func TestGenerateIndexNowBatchOfOne(t *testing.T) {
	e := newIndexNowEndpoint(t, nil)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, submitKey+".txt")
	os.WriteFile(keyFile, []byte(submitKey), 0o644)
	code, _, errb := runCLI(t, "https://www.example.com/a\n", "generate", "--base-url", "https://www.example.com/", "--out", filepath.Join(dir, "out"),
		"--state", filepath.Join(dir, "st.db"), "--indexnow-key-file", keyFile, "--indexnow-endpoint", e.srv.URL, "-")
	if code != exitOK || !strings.Contains(errb, "indexnow: batch 1: 1 URL: sent") {
		t.Errorf("exit %d\n%s", code, errb)
	}
}
