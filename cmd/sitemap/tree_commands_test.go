package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTreeCommands reads one tree through every command that reads
// sitemap trees: an index on 127.0.0.1 with two gzip children (one URL in
// both), one child on another site (I-05), one child that answers 404,
// and the index listing itself (a loop); then the same files from a
// local directory. Every command below reads it through the one walk
// (fetch.Walk: input.Walk for local names), except validate, whose tree
// (validate.Tree) checks each document as a whole. The rows say where a
// command's contract differs from fetch's, on purpose.
func TestTreeCommands(t *testing.T) {
	// The rule IDs of the diagnostics a command prints, in the compiler's
	// form ("error I-05:") or in generate's ("(I-05) (warning)").
	treeRule := regexp.MustCompile(`\b(?:error|warning|info|note) ([A-Z]+(?:-[A-Z0-9]+)+):|\(([A-Z]+-[A-Z0-9]+)\) \((?:error|warning|info)\)`)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	base := srv.URL
	files := map[string]string{
		"sitemap.xml": sitemapIndex(base+"/s1.xml.gz", base+"/s2.xml.gz", "https://other.example.net/s3.xml", base+"/gone.xml", base+"/sitemap.xml"),
		"s1.xml.gz":   gzipped(urlset(base+"/a", base+"/b")),
		"s2.xml.gz":   gzipped(urlset(base+"/c", base+"/a")),
	}
	dir := t.TempDir()
	for name, body := range files {
		mux.HandleFunc("/"+name, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) })
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	idx, local := base+"/sitemap.xml", filepath.Join(dir, "sitemap.xml")
	urls := []string{base + "/a", base + "/b", base + "/c"}
	// What the walk says of the tree: over HTTP, and from files, where the
	// missing child has no HTTP status (VAL-01, the file it looked for).
	walkHTTP := []string{"FETCH-HTTP", "FETCH-LOOP", "I-05"}
	walkLocal := []string{"FETCH-LOOP", "I-05", "VAL-01"}
	tests := []struct {
		name  string
		args  []string
		code  int
		urls  []string // printed, each once (nil: the command prints none)
		rules []string
		why   string // how the command's contract differs from fetch's
	}{
		{"fetch", []string{"fetch", idx}, exitProblems, urls, walkHTTP, ""},
		{"fetch --tree", []string{"fetch", "--tree", idx}, exitProblems, nil, walkHTTP, "prints documents, not URLs"},
		{"parse --follow", []string{"parse", "--follow", "--format", "txt", idx}, exitProblems, urls, walkHTTP,
			"prints every entry as listed: " + base + "/a twice"},
		{"audit", []string{"audit", "--format", "jsonl", idx}, exitProblems, urls, walkHTTP, "also its own AUD findings"},
		{"graph", []string{"graph", "--format", "json", idx}, exitProblems, nil, walkHTTP, "counts entries as listed (4)"},
		{"diff", []string{"diff", idx, idx}, exitProblems, nil, []string{"FETCH-HTTP", "I-05"},
			"compares nothing when a side was not read whole (a false removal otherwise); warnings not shown"},
		{"validate", []string{"validate", idx}, exitProblems, nil, []string{"I-05", "I-07", "L-17", "VAL-01"},
			"checks each document whole (validate.Tree): the checker's I-05, L-17 across the index, the self-listing index an I-07 error, an unreadable child VAL-01"},

		{"fetch local", []string{"fetch", "--base", base + "/", local}, exitProblems, urls, walkLocal, ""},
		{"fetch --tree local", []string{"fetch", "--tree", "--base", base + "/", local}, exitProblems, nil, walkLocal, "prints documents"},
		{"parse --follow local", []string{"parse", "--follow", "--format", "txt", "--base", base + "/", local}, exitProblems, urls, walkLocal, "as listed"},
		{"audit local", []string{"audit", "--format", "jsonl", "--site", base + "/", local}, exitProblems, urls, walkLocal, "AUD findings"},
		{"graph local", []string{"graph", "--format", "json", "--base", base + "/", local}, exitProblems, nil, walkLocal, "counts entries"},
		{"diff local", []string{"diff", "--base", base + "/", local, idx}, exitProblems, nil, []string{"I-05", "VAL-01"}, "compares nothing"},
		{"validate local", []string{"validate", "--base", base + "/", local}, exitProblems, nil, []string{"I-05", "I-07", "L-17", "VAL-01"}, "validate.Tree"},
		{"generate", []string{"generate", "--dry-run", "--base-url", base + "/", local}, exitUsage, nil, []string{"I-05", "VAL-01"},
			"publishes nothing from a tree missing a child (exit 2); the index's URL is not given, so its site is its first child's (I-05 a warning of the input)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (%s)\n%s%s", code, tt.code, tt.why, out, errOut)
			}
			var rules []string
			for _, m := range treeRule.FindAllStringSubmatch(out+errOut, -1) {
				rules = append(rules, m[1]+m[2])
			}
			slices.Sort(rules)
			if rules = slices.Compact(rules); !slices.Equal(rules, tt.rules) {
				t.Errorf("rules %q, want %q (%s)\n%s%s", rules, tt.rules, tt.why, out, errOut)
			}
			if strings.Contains(tt.name, "--tree") {
				// Every document once, the failed one said so, in the
				// index's order.
				a, b, c := strings.Index(out, "s1.xml.gz  [urlset, 2 URLs]"), strings.Index(out, "s2.xml.gz  [urlset, 2 URLs]"), strings.Index(out, "gone.xml  [sitemap, 0 URLs, FAILED: ")
				if a < 0 || b < a || c < b || strings.Count(out, "sitemap.xml  [sitemapindex, 5 sitemaps") != 1 {
					t.Errorf("tree:\n%s", out)
				}
			}
			if tt.urls == nil {
				return
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				var rec struct{ URL string }
				if json.Unmarshal([]byte(line), &rec) == nil {
					line = rec.URL // audit's JSONL records
				}
				got = append(got, line)
			}
			slices.Sort(got)
			if got = slices.Compact(got); !slices.Equal(got, tt.urls) {
				t.Errorf("URLs %q, want %q (%s)", got, tt.urls, tt.why)
			}
		})
	}
}
