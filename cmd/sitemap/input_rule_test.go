package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The one fixture of the index-children rule (package input): an index
// whose children are in sub/ (one of them gzip) and one child on another
// host, served at https://www.example.com/.
const ruleFixture = "../../input/testdata/site"

// serveRuleFixture serves ruleFixture on 127.0.0.1 with
// https://www.example.com/ replaced by the server's URL, gzip files
// recompressed; every path requested is logged.
func serveRuleFixture(t *testing.T) (*httptest.Server, *reqLog) {
	t.Helper()
	var log reqLog
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r.Host + r.URL.Path)
		b, err := os.ReadFile(filepath.Join(ruleFixture, filepath.FromSlash(strings.TrimPrefix(r.URL.Path, "/"))))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		gz := strings.HasSuffix(r.URL.Path, ".gz")
		if gz {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Error(err)
				return
			}
			b, _ = io.ReadAll(zr)
		}
		b = bytes.ReplaceAll(b, []byte("https://www.example.com/"), []byte(srv.URL+"/"))
		if gz {
			var z bytes.Buffer
			zw := gzip.NewWriter(&z)
			zw.Write(b)
			zw.Close()
			b = z.Bytes()
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv, &log
}

// TestOneRuleForIndexChildren: validate, parse --follow, diff and fetch
// read the same index the same way, as local files (children found below
// the index through --base) and over HTTP: the same URLs, the same I-05
// report about the child on another host (never requested), the same
// exit status.
func TestOneRuleForIndexChildren(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, log := serveRuleFixture(t)
	forms := []struct {
		name, index, site, base string
	}{
		{"files", filepath.Join(ruleFixture, "sitemap_index.xml"), "https://www.example.com", "https://www.example.com/"},
		{"http", srv.URL + "/sitemap_index.xml", srv.URL, ""},
	}
	for _, form := range forms {
		var base []string
		if form.base != "" {
			base = []string{"--base", form.base}
		}
		wantURLs := []string{form.site + "/sub/a", form.site + "/sub/b", form.site + "/sub/c"}
		origin := form.site // no default port (":443")
		// The I-05 report: at the child's <loc> (line 10), the
		// same words in every command.
		i05 := ":10:5: "
		i05msg := "I-05: child sitemap https://other.example.net/child-3.xml is on another site than the index (" + origin + "); "
		for _, cmd := range []struct {
			name string
			args []string
			urls func(out, errOut string) []string
		}{
			{"validate", append(append([]string{"validate"}, base...), form.index), func(out, errOut string) []string {
				// validate prints no URLs: its summaries count those of
				// the children it read.
				var got []string
				if strings.Contains(errOut, "sub/child-1.xml: urlset, 2 URLs,") {
					got = append(got, wantURLs[:2]...)
				}
				if strings.Contains(errOut, "sub/child-2.xml.gz: urlset, 1 URL, ") {
					got = append(got, wantURLs[2])
				}
				return got
			}},
			{"parse", append(append([]string{"parse", "--follow", "--format", "txt"}, base...), form.index), lines},
			{"diff", append(append([]string{"diff"}, base...), empty, form.index), func(out, _ string) []string {
				var got []string
				for _, l := range lines(out, "") {
					got = append(got, strings.TrimPrefix(l, "+ "))
				}
				return got
			}},
			{"fetch", append(append([]string{"fetch"}, base...), form.index), lines},
		} {
			t.Run(form.name+"/"+cmd.name, func(t *testing.T) {
				code, out, errOut := runCLI(t, "", cmd.args...)
				if code != exitProblems {
					t.Errorf("exit %d, want %d\n%s%s", code, exitProblems, out, errOut)
				}
				got := cmd.urls(out, errOut)
				slices.Sort(got)
				if !slices.Equal(got, wantURLs) {
					t.Errorf("URLs %q, want %q\n%s%s", got, wantURLs, out, errOut)
				}
				all := out + errOut
				var reports int
				for _, l := range strings.Split(all, "\n") {
					if strings.Contains(l, i05) && strings.Contains(l, i05msg) {
						reports++
					}
				}
				// One report of the child in every command: an error in
				// parse, diff and fetch; in validate an info note beside
				// the checker's I-05 error on the same entry.
				if reports != 1 || strings.Contains(all, "child-3.xml not found") {
					t.Errorf("%d I-05 reports at line 10, want 1\n%s", reports, all)
				}
				if cmd.name == "validate" && !strings.Contains(out, i05+"error I-05: <loc> \"https://other.example.net/child-3.xml\"") {
					t.Errorf("no I-05 error from the checker\n%s", out)
				}
			})
		}
	}
	for _, p := range log.got() {
		if !strings.HasPrefix(p, strings.TrimPrefix(srv.URL, "http://")+"/") {
			t.Errorf("another host was asked for %s", p)
		}
	}

	// A 404 (or a missing file) as the input could not be read: exit 2
	// in every command.
	for _, missing := range []string{srv.URL + "/gone.xml", filepath.Join(t.TempDir(), "gone.xml")} {
		for _, args := range [][]string{
			{"validate", missing}, {"parse", missing}, {"diff", empty, missing}, {"fetch", "--attempts", "1", missing},
		} {
			if code, out, errOut := runCLI(t, "", args...); code != exitUsage {
				t.Errorf("%v: exit %d, want %d\n%s%s", args, code, exitUsage, out, errOut)
			}
		}
	}
}

// lines splits out into its non-empty lines.
func lines(out, _ string) []string {
	var l []string
	for _, s := range strings.Split(out, "\n") {
		if s != "" {
			l = append(l, s)
		}
	}
	return l
}

// TestGenerateInputNames: generate resolves its INPUTs through package
// input too: standard input once, files (a directory or a URL is refused
// with a message that says what to do).
func TestGenerateInputNames(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-", "-"}, "sitemap: standard input (-) given more than once"},
		{[]string{"https://www.example.com/urls.txt"}, "INPUT https://www.example.com/urls.txt is a URL; generate reads files and -"},
		{[]string{t.TempDir()}, "is a directory; give a file"},
		{[]string{"no-such-file.txt"}, "cannot read input: no-such-file.txt: no such file"},
	} {
		args := append([]string{"generate", "--base-url", "https://www.example.com/", "--out", out}, tc.args...)
		if code, _, errOut := runCLI(t, "", args...); code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut)
		}
	}
}

// TestDirectoryInput: a directory is its sitemap files in name order; an
// index among them does not read its siblings again as children, and
// reads those below it (sub/) that are not files of the directory.
func TestDirectoryInput(t *testing.T) {
	dir := t.TempDir()
	site := "https://www.example.com/"
	writeFile(t, filepath.Join(dir, "a.xml"), urlset(site+"a"))
	writeFile(t, filepath.Join(dir, "index.xml"), sitemapIndex(site+"a.xml", site+"sub/b.xml"))
	writeFile(t, filepath.Join(dir, "notes.md"), "not a sitemap")
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	writeFile(t, filepath.Join(dir, "sub", "b.xml"), urlset(site+"sub/b"))

	code, out, errOut := runCLI(t, "", "validate", "--base", site, dir)
	if code != exitOK || strings.Count(errOut, "a.xml: urlset") != 1 || !strings.Contains(errOut, filepath.Join(dir, "sub", "b.xml")+": urlset, 1 URL") || !strings.Contains(errOut, "3 documents") {
		t.Errorf("validate: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "", "parse", "--follow", "--format", "txt", "--base", site, dir)
	if code != exitOK || out != site+"a\n"+site+"sub/b\n" {
		t.Errorf("parse: exit %d\n%s%s", code, out, errOut)
	}
}

// TestOneRuleWithoutBase: a local index read without --base (its URL
// unknown) takes its first child's site as its own, so the child on
// another host is the same I-05 error, at the same entry, in validate,
// parse --follow, diff and fetch, and is not read (it used to be read
// from the file of its name beside the index, with no word).
func TestOneRuleWithoutBase(t *testing.T) {
	dir := t.TempDir()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(filepath.Join(ruleFixture, "sitemap_index.xml"), "sitemap_index.xml")
	copyFile(filepath.Join(ruleFixture, "sub", "child-1.xml"), "child-1.xml")
	copyFile(filepath.Join(ruleFixture, "sub", "child-2.xml.gz"), "child-2.xml.gz")
	// The off-site child's file is there too: it must still not be read.
	if err := os.WriteFile(filepath.Join(dir, "child-3.xml"), []byte("https://other.example.net/x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, "sitemap_index.xml")
	i05 := index + ":10:5: error I-05: child sitemap https://other.example.net/child-3.xml is on another site than the index's first child (https://www.example.com), the index's site when --base does not say; "
	for _, args := range [][]string{
		{"validate", index},
		{"parse", "--follow", "--format", "txt", index},
		{"diff", empty, index},
		{"fetch", index},
	} {
		code, out, errOut := runCLI(t, "", args...)
		all := out + errOut
		if code != exitProblems {
			t.Errorf("%s: exit %d, want %d\n%s", args[0], code, exitProblems, all)
		}
		if n := strings.Count(all, i05); n != 1 {
			t.Errorf("%s: %d I-05 reports, want 1 starting %q\n%s", args[0], n, i05, all)
		}
		if strings.Contains(all, "other.example.net/x") {
			t.Errorf("%s: read the off-site child\n%s", args[0], all)
		}
	}
}
