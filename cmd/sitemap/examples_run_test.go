package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exampleHost is the site every example names; the examples that fetch
// it reach a server on 127.0.0.1 instead (the one rewrite made).
const exampleHost = "https://www.example.com"

// exampleSite serves a small site on 127.0.0.1 for the examples that
// fetch www.example.com: a homepage linking two pages, robots.txt naming
// the index, the index of two sitemaps (one gzipped), and the sitemaps
// the examples name.
func exampleSite(t *testing.T) *httptest.Server {
	var srv *httptest.Server
	urlset := func(paths ...string) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
		for _, p := range paths {
			fmt.Fprintf(&b, "<url><loc>%s%s</loc><lastmod>2026-11-01</lastmod></url>\n", srv.URL, p)
		}
		b.WriteString("</urlset>\n")
		return b.String()
	}
	gz := func(s string) string {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.String()
	}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := func(links ...string) string {
			var b strings.Builder
			b.WriteString(`<!doctype html><html lang="en"><head><title>t</title></head><body>`)
			for _, l := range links {
				fmt.Fprintf(&b, `<a href="%s">x</a>`, l)
			}
			b.WriteString("</body></html>")
			return b.String()
		}
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "User-agent: *\nAllow: /\n\nSitemap: %s/sitemap_index.xml\n", srv.URL)
		case "/sitemap_index.xml":
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/sitemap.xml</loc></sitemap><sitemap><loc>%[1]s/sitemap.xml.gz</loc></sitemap></sitemapindex>`, srv.URL)
		case "/sitemap.xml":
			w.Header().Set("Content-Type", "application/xml")
			io := urlset("/", "/about/", "/shop/")
			w.Write([]byte(io))
		case "/sitemap.xml.gz":
			w.Header().Set("Content-Type", "application/gzip")
			w.Write([]byte(gz(urlset("/blog/", "/shop/item?page=2"))))
		case "/", "/about/", "/blog/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(page("/about/", "/blog/", "/shop/")))
		case "/shop/", "/shop/item":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(page("/shop/item?page=2", "/shop/cart", "/")))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// exampleDir is a copy of what the examples name from the repository
// root (examples/, testdata/samples/) and, with userFiles, robots.txt,
// for the help examples that name it as a user's own.
// The README's commands get none: a new user runs them in a fresh clone.
func exampleDir(t *testing.T, userFiles bool) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, sub := range []string{"examples", "testdata/samples"} {
		files, _ := filepath.Glob(filepath.Join(root, sub, "*"))
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if fi, err := os.Stat(f); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, sub, filepath.Base(f)), string(b))
		}
	}
	if !userFiles {
		return dir
	}
	writeFile(t, filepath.Join(dir, "robots.txt"), "User-agent: *\nDisallow:\n\nSitemap: "+exampleHost+"/old-sitemap.xml\n")
	return dir
}

// shellWords splits an example line into its pipeline stages and, for
// each, its words and the file its standard output goes to (> FILE):
// words are split at spaces outside single or double quotes, '|' and '>'
// outside quotes end a stage or name its output.
func shellWords(line string) (stages [][]string, outFile string) {
	var cur []string
	var w strings.Builder
	inWord, redirect := false, false
	var quote byte
	flush := func() {
		if !inWord {
			return
		}
		if redirect {
			outFile, redirect = w.String(), false
		} else {
			cur = append(cur, w.String())
		}
		w.Reset()
		inWord = false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			flush()
		case c == '|':
			flush()
			stages = append(stages, cur)
			cur = nil
		case c == '>':
			flush()
			redirect = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return append(stages, cur), outFile
}

// runExample runs one example line in dir, as a shell would: "cat FILE"
// as the first stage feeds FILE to the next, printf FORMAT writes FORMAT
// (\n and \t the only escapes examples use); every other stage is a
// sitemap command run in-process, its standard output the next stage's
// input. URLs of www.example.com that a command fetches go to srv; the
// values of --base-url, --base and --site-url, and the sitemap URL robots
// add and remove write, stay as written.
func runExample(t *testing.T, srv *httptest.Server, line string) (int, string) {
	t.Helper()
	stages, outFile := shellWords(line)
	var stdin, stderr string
	code := 0
	for i, words := range stages {
		if i == 0 && len(words) == 2 && words[0] == "cat" {
			b, err := os.ReadFile(words[1])
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			stdin = string(b)
			continue
		}
		if len(words) == 2 && words[0] == "printf" {
			stdin = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(words[1])
			continue
		}
		if len(words) == 0 || words[0] != "sitemap" {
			t.Fatalf("%s: stage %q is not a sitemap command", line, words)
		}
		args := append([]string(nil), words[1:]...)
		edits := len(args) > 1 && args[0] == "robots" && (args[1] == "add" || args[1] == "remove")
		for j, a := range args {
			if j > 0 && (args[j-1] == "--base-url" || args[j-1] == "--base" || args[j-1] == "--site-url") {
				continue
			}
			if strings.HasPrefix(a, exampleHost) && !edits {
				args[j] = srv.URL + strings.TrimPrefix(a, exampleHost)
			}
		}
		if args[0] == "serve" {
			code, stderr = runServeExample(t, args)
			continue
		}
		if args[0] == "audit" {
			// An audit of a user's own files requests the URLs they list:
			// those of www.example.com go to srv too.
			for _, a := range args[1:] {
				if b, err := os.ReadFile(a); err == nil && strings.HasSuffix(a, ".xml") {
					writeFile(t, a, strings.ReplaceAll(string(b), exampleHost, srv.URL))
				}
			}
		}
		// A stage that cannot run fails the pipeline, as under the
		// shell's pipefail: its empty output would hide it.
		c, out, serr := runCLI(t, stdin, args...)
		if code != exitUsage {
			code, stderr = c, serr
		}
		stdin = out
	}
	if outFile != "" {
		writeFile(t, outFile, stdin)
	}
	return code, stderr
}

// exampleLines are the Example lines of every command's --help.
func exampleLines(t *testing.T) []string {
	var lines []string
	for _, sc := range subcommands {
		root := newRootCmd(&streams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}, []string{sc.name})
		for _, c := range root.Commands() {
			cmds := append(c.Commands(), c)
			for _, cc := range cmds {
				for _, l := range strings.Split(cc.Example, "\n") {
					if l = strings.TrimSpace(l); l != "" {
						lines = append(lines, l)
					}
				}
			}
		}
	}
	if len(lines) < 20 {
		t.Fatalf("found only %d example lines", len(lines))
	}
	return lines
}

// readmeLines are the commands of README.md: its indented lines that
// start with "sitemap " or "cat ".
func readmeLines(t *testing.T) []string {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^    ((?:sitemap|cat) .*)$`)
	var lines []string
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		lines = append(lines, m[1])
	}
	if len(lines) == 0 {
		t.Fatal("no command in README.md")
	}
	return lines
}

// TestEveryExampleRuns: every Example line of every command's --help,
// and every command of the README, runs as written from the repository
// root: the files they name are there (copied into a temporary
// directory), the site they fetch is a server on 127.0.0.1. Each must
// run (exit 0, or 1 for problems found, as for a sitemap with errors or
// two sitemaps that differ), never 2 (could not run).
func TestEveryExampleRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example")
	}
	srv := exampleSite(t)
	for _, set := range []struct {
		name  string
		lines []string
	}{{"help", exampleLines(t)}, {"README", readmeLines(t)}} {
		t.Run(set.name, func(t *testing.T) {
			t.Chdir(exampleDir(t, set.name == "help"))
			for _, line := range set.lines {
				code, stderr := runExample(t, srv, line)
				if code != exitOK && code != exitProblems {
					t.Errorf("%s\nexit %d:\n%s", line, code, stderr)
				}
				// A URL in both inputs is published once, the first valid
				// copy whole: the example that merges a list with a CSV
				// names the CSV, which has the lastmods, first.
				if strings.Contains(line, "examples/urls.csv") && strings.Contains(line, "--out public/") {
					doc := genRead(t, "public/sitemap.xml")
					if !strings.Contains(doc, "<loc>https://www.example.com/</loc><lastmod>2026-11-02T10:00:00Z</lastmod>") {
						t.Errorf("%s\nlost the CSV's lastmod:\n%s", line, doc)
					}
				}
			}
		})
	}
}

// runServeExample runs a `sitemap serve` example until it listens (on a
// free port of 127.0.0.1 instead of its --addr), fetches what it printed
// it serves (the index, or robots.txt of a directory), and stops it.
func runServeExample(t *testing.T, args []string) (int, string) {
	t.Helper()
	var rest []string
	for i := 1; i < len(args); i++ {
		if args[i] == "--addr" {
			i++
			continue
		}
		rest = append(rest, args[i])
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	u, errb, code := startServe(t, ctx, rest...)
	if strings.HasSuffix(u, "/") {
		u += "sitemap.xml"
	}
	if res, body := httpGet(t, u); res.StatusCode != 200 || !strings.Contains(body, "<loc>") {
		t.Errorf("%v: GET %s: %s\n%.300s", args, u, res.Status, body)
	}
	cancel()
	return <-code, errb.String()
}
