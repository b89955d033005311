package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --base-url and --site-url are written in their normal form (L-18), as
// the entries are: 'generate --base-url https://bücher.example/' of
// entries on bücher.example (written in punycode) was refused with a
// message about "index locs" and "sitemap-1.xml"; index takes the same.
func TestBaseURLNormalForm(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte("https://bücher.example/a\n"), 0o644)
	code, out, errb := runCLI(t, "", "generate", "--base-url", "https://Bücher.example/", "--out", "-", in)
	if code != exitOK || !strings.Contains(out, "<loc>https://xn--bcher-kva.example/a</loc>") ||
		!strings.Contains(errb, `--base-url "https://Bücher.example/" written as "https://xn--bcher-kva.example/"`) {
		t.Errorf("generate: exit %d\n%s\n%s", code, out, errb)
	}
	code, _, errb = runCLI(t, "", "generate", "--base-url", "https://cdn.example.net/", "--site-url", "https://bücher.example/", "--out", "-", in)
	if code != exitOK || !strings.Contains(errb, `--site-url "https://bücher.example/" written as "https://xn--bcher-kva.example/"`) {
		t.Errorf("--site-url: exit %d\n%s", code, errb)
	}
	// --no-normalize refuses what is not in its normal form, the base URL too.
	if code, _, errb := runCLI(t, "", "generate", "--no-normalize", "--base-url", "https://Bücher.example/", "--out", "-", in); code != exitUsage {
		t.Errorf("--no-normalize: exit %d\n%s", code, errb)
	}
	// The everyday form without the slash is no news.
	_, _, errb = runCLI(t, "", "generate", "--base-url", "https://xn--bcher-kva.example", "--out", "-", in)
	if strings.Contains(errb, "written as \"https://xn--bcher-kva.example/\"") {
		t.Errorf("a note for the missing /:\n%s", errb)
	}
	out2 := filepath.Join(dir, "public")
	for k := 1; k <= 2; k++ {
		if code, _, errb := runCLI(t, "", "generate", "--shard", itoa(k)+"/2", "--shard-by", "input", "--base-url", "https://xn--bcher-kva.example/", "--out", out2, in); code != exitOK {
			t.Fatalf("shard %d: exit %d\n%s", k, code, errb)
		}
	}
	code, _, errb = runCLI(t, "", "index", "--shards", "2", "--base-url", "https://bücher.example/", "--out", out2)
	b, _ := os.ReadFile(filepath.Join(out2, "sitemap.xml"))
	if code != exitOK || !strings.Contains(string(b), "<loc>https://xn--bcher-kva.example/sitemap-") {
		t.Errorf("index: exit %d\n%s\n%s", code, b, errb)
	}
}

// --name is the base name: --name sitemap.xml wrote sitemap.xml.xml (and
// --gzip sitemap.xml.gz.xml.gz); it is refused with the name to give.
func TestNameWithExtensionRefused(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte("https://www.example.com/a\n"), 0o644)
	out := filepath.Join(dir, "public")
	for _, args := range [][]string{
		{"generate", "--base-url", "https://www.example.com/", "--out", out, "--name", "news.xml", in},
		{"generate", "--base-url", "https://www.example.com/", "--out", out, "--name", "news.xml.gz", "--gzip", in},
		{"index", "--shards", "1", "--base-url", "https://www.example.com/", "--out", dir, "--name", "news.xml"},
	} {
		code, _, errb := runCLI(t, "", args...)
		if code != exitUsage || !strings.Contains(errb, "give the base name without the extension: --name news") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s written: %v", out, err)
	}
}

// When --exclude (or --include) or --shard leaves no entry, generate says
// so: it said "the input holds no entries (empty, or only blank and #
// lines)" of an input of entries.
func TestGenerateNothingLeftSaysWhy(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte("https://www.example.com/a\nhttps://www.example.com/b\n"), 0o644)
	code, _, errb := runCLI(t, "", "generate", "--base-url", "https://www.example.com/", "--out", "-", "--exclude", ".", in)
	if code != exitProblems || !strings.Contains(errb, "no entry left to publish: 2 left out by --include/--exclude") || strings.Contains(errb, "holds no entries") {
		t.Errorf("--exclude: exit %d\n%s", code, errb)
	}
	code, _, errb = runCLI(t, "", "generate", "--base-url", "https://www.example.com/", "--out", dir, "--shard", "2/2", "--shard-by", "hash", "--include", "/a$", in)
	if code != exitProblems || !strings.Contains(errb, "no entry left to publish") || strings.Contains(errb, "holds no entries") {
		t.Errorf("--shard: exit %d\n%s", code, errb)
	}
}

// A shard that gets no entry says that index cannot be written over it
// and what to do: index then asked to run the same shard again, which
// again published nothing.
func TestGenerateEmptyShardSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte("https://www.example.com/a\n"), 0o644)
	var empty string
	for _, k := range []string{"1/2", "2/2"} {
		code, _, errb := runCLI(t, "", "generate", "--base-url", "https://www.example.com/", "--out", dir, "--shard", k, in)
		if code == exitProblems {
			empty = errb
		}
	}
	if !strings.Contains(empty, "has no entry: 'sitemap index --shards 2' cannot be written over it; give fewer shards, or --shard-by input") {
		t.Errorf("empty shard:\n%s", empty)
	}
}
