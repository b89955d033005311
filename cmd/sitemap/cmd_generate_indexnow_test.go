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
