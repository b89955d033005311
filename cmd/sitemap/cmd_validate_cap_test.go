package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// outOfScope is a urlset of n locs outside https://www.example.com/maps/,
// each an L-09 error with --base https://www.example.com/maps/.
func outOfScope(n int) string {
	locs := make([]string, n)
	for i := range locs {
		locs[i] = fmt.Sprintf("https://www.example.com/other/%d", i)
	}
	return urlset(locs...)
}

// TestValidateMaxPerRule: in the text format at most --max-per-rule
// diagnostics of one rule are shown per document, then one note line
// counts the rest; the exit status and the summary count them all; json
// and jsonl are complete.
func TestValidateMaxPerRule(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.xml")
	writeFile(t, big, outOfScope(50))
	base := []string{"validate", "--base", "https://www.example.com/maps/"}
	note := func(file, rule string, n int) string {
		return fmt.Sprintf("%s: note %s: and %d more %s diagnostics in this document (use --max-per-rule 0 to see all)\n", file, rule, n, rule)
	}

	tests := []struct {
		name      string
		flags     []string
		shown     int    // L-09 lines
		wantNote  string // "" = none
		wantLines int    // lines on stdout
	}{
		{"default cap 20 (L-09)", nil, 20, note(big, "L-09", 30), 21},
		{"--max-per-rule 5", []string{"--max-per-rule", "5"}, 5, note(big, "L-09", 45), 6},
		{"--max-per-rule 0 shows all", []string{"--max-per-rule", "0"}, 50, "", 50},
		{"cap above the count", []string{"--max-per-rule", "50"}, 50, "", 50},
		{"cap one below the count", []string{"--max-per-rule", "49"}, 49, note(big, "L-09", 1), 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append(append([]string{}, base...), tt.flags...), big)
			code, out, errOut := runCLI(t, "", args...)
			if code != exitProblems {
				t.Fatalf("exit %d, want %d\n%s", code, exitProblems, errOut)
			}
			if n := strings.Count(out, ": error L-09: "); n != tt.shown {
				t.Errorf("%d L-09 lines shown, want %d", n, tt.shown)
			}
			if n := strings.Count(out, "\n"); n != tt.wantLines {
				t.Errorf("%d lines, want %d\n%s", n, tt.wantLines, out)
			}
			if tt.wantNote != "" && !strings.HasSuffix(out, tt.wantNote) {
				t.Errorf("last line not %q:\n%s", tt.wantNote, out)
			}
			if tt.wantNote == "" && strings.Contains(out, ": note ") {
				t.Errorf("unexpected note:\n%s", out)
			}
			// The summary counts every diagnostic, shown or not.
			if !strings.Contains(errOut, big+": urlset, 50 URLs") || !strings.Contains(errOut, ": 50 errors, 0 warnings") {
				t.Errorf("stderr: %s", errOut)
			}
		})
	}

	// json and jsonl are never capped.
	code, out, _ := runCLI(t, "", append(base, "--format", "jsonl", big)...)
	if n := strings.Count(out, `"rule":"L-09"`); code != exitProblems || n != 50 {
		t.Errorf("jsonl: exit %d, %d L-09, want 50", code, n)
	}
	code, out, _ = runCLI(t, "", append(base, "--format", "json", big)...)
	var all []map[string]any
	if err := json.Unmarshal([]byte(out), &all); err != nil || code != exitProblems || len(all) != 50 {
		t.Errorf("json: exit %d, %d diagnostics, err %v", code, len(all), err)
	}

	// A negative cap cannot run.
	if code, _, errOut := runCLI(t, "", append(base, "--max-per-rule", "-1", big)...); code != exitUsage || !strings.Contains(errOut, "--max-per-rule") {
		t.Errorf("--max-per-rule -1: exit %d, %q", code, errOut)
	}
}

// TestValidateMaxPerRuleIsPerDocumentAndRule: the cap counts each rule of
// each document on its own, and held-back warnings still fail --strict.
func TestValidateMaxPerRuleIsPerDocumentAndRule(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.xml"), filepath.Join(dir, "b.xml")
	writeFile(t, a, outOfScope(4))
	// b.xml: 4 L-09 errors and 3 L-17 duplicate warnings (the same loc 4 times).
	writeFile(t, b, urlset("https://www.example.com/other/1", "https://www.example.com/other/1",
		"https://www.example.com/other/1", "https://www.example.com/other/1"))
	code, out, errOut := runCLI(t, "", "validate", "--max-per-rule", "2", "--base", "https://www.example.com/maps/", a, b)
	if code != exitProblems {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		a + ": note L-09: and 2 more L-09 diagnostics in this document",
		b + ": note L-09: and 2 more L-09 diagnostics in this document",
		b + ": note L-17: and 1 more L-17 diagnostics in this document",
	} {
		if strings.Count(out, want) != 1 {
			t.Errorf("want once %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, a+":"); n != 3 {
		t.Errorf("a.xml: %d lines, want 2 shown + 1 note\n%s", n, out)
	}
	// a's note comes at the end of a, before b's first line.
	if i, j := strings.Index(out, a+": note"), strings.Index(out, b+":"); i < 0 || j < i {
		t.Errorf("a's note not at the end of a:\n%s", out)
	}
	if !strings.Contains(errOut, "2 documents: 8 errors, 3 warnings") {
		t.Errorf("stderr: %s", errOut)
	}

	// Warnings held back by the cap still count for --strict (exit 1).
	c := filepath.Join(dir, "c.xml")
	writeFile(t, c, urlset("https://www.example.com/maps/x", "https://www.example.com/maps/x", "https://www.example.com/maps/x"))
	code, out, _ = runCLI(t, "", "validate", "--strict", "--max-per-rule", "1", "--base", "https://www.example.com/maps/", c)
	if code != exitProblems || strings.Count(out, "warning L-17") != 1 || !strings.Contains(out, "and 1 more L-17") {
		t.Errorf("--strict with held-back warnings: exit %d\n%s", code, out)
	}
}

// TestValidateMaxPerRuleIndex: findings about an index's children (VAL-01)
// are capped under the index, and the index's note follows its children.
func TestValidateMaxPerRuleIndex(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "sitemap.xml")
	locs := []string{"https://www.example.com/maps/present.xml"}
	for i := range 5 {
		locs = append(locs, fmt.Sprintf("https://www.example.com/maps/missing-%d.xml", i))
	}
	writeFile(t, idx, sitemapIndex(locs...))
	writeFile(t, filepath.Join(dir, "present.xml"), outOfScope(3))
	code, out, errOut := runCLI(t, "", "validate", "--max-per-rule", "2", "--base", "https://www.example.com/maps/", idx)
	if code != exitProblems {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		"present.xml:3:", "present.xml:4:", "present.xml: note L-09: and 1 more",
		"sitemap.xml:4:12: error VAL-01", "sitemap.xml:5:12: error VAL-01",
		"sitemap.xml: note VAL-01: and 3 more VAL-01 diagnostics in this document",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), out)
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d = %q, want it to contain %q", i+1, lines[i], w)
		}
	}
}

// TestValidateIndexSummaryAfterChildren: an index's summary line on
// standard error comes after its children's and counts the findings about
// them reported against the index (VAL-01 missing child, I-07 nested
// index, VAL-02 --max-children).
func TestValidateIndexSummaryAfterChildren(t *testing.T) {
	dir := t.TempDir()
	idx := filepath.Join(dir, "sitemap.xml")
	writeFile(t, idx, sitemapIndex(
		"https://www.example.com/sitemap-1.xml",
		"https://www.example.com/missing.xml",
		"https://www.example.com/nested.xml",
		"https://www.example.com/sitemap-4.xml",
	))
	writeFile(t, filepath.Join(dir, "sitemap-1.xml"), urlset("https://www.example.com/a"))
	writeFile(t, filepath.Join(dir, "nested.xml"), sitemapIndex("https://www.example.com/sitemap-1.xml"))
	code, out, errOut := runCLI(t, "", "validate", "--max-children", "3", "--base", "https://www.example.com/", idx)
	if code != exitProblems {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
	// sitemap-1.xml, nested.xml, then the index, then the total, then the
	// rules to explain.
	if len(lines) != 5 {
		t.Fatalf("stderr lines %d, want 5:\n%s", len(lines), errOut)
	}
	if want := idx + ": sitemapindex, 4 sitemaps"; !strings.HasPrefix(lines[2], want) {
		t.Errorf("third line %q, want the index (%q) after its children", lines[2], want)
	}
	if !strings.HasSuffix(lines[2], ": 2 errors, 1 warning") {
		t.Errorf("index summary %q: want VAL-01 and I-07 (2 errors) and VAL-02 (1 warning) counted", lines[2])
	}
	if !strings.HasPrefix(lines[0], filepath.Join(dir, "sitemap-1.xml")+": urlset") || !strings.HasPrefix(lines[1], filepath.Join(dir, "nested.xml")+": sitemapindex") {
		t.Errorf("children's summaries first:\n%s", errOut)
	}
	if lines[3] != "3 documents: 2 errors, 1 warning" {
		t.Errorf("total %q", lines[3])
	}
	if lines[4] != "what a rule requires and how to fix it: sitemap explain VAL-01 I-07 VAL-02" {
		t.Errorf("explain hint %q", lines[4])
	}
}

// reqLog is an httptest server that records every path it is asked for.
type reqLog struct {
	mu    sync.Mutex
	paths []string
}

func (l *reqLog) add(p string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.paths = append(l.paths, p)
}

func (l *reqLog) got() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.paths)
}

// TestValidateOffSiteChildNotFetched is I-05 for an index fetched over
// HTTP: a child on another host, port or scheme is reported (error I-05,
// plus an info I-05 saying it was not fetched) and never requested, and a
// same-site child that redirects off-site is not followed. Two httptest
// servers on 127.0.0.1 are two sites (other ports); "localhost" on the
// index's own port is another host. A same-site child outside the index's
// directory (I-06) is still fetched.
func TestValidateOffSiteChildNotFetched(t *testing.T) {
	var logA, logB reqLog
	muxA, muxB := http.NewServeMux(), http.NewServeMux()
	srvA := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logA.add(r.Host + r.URL.Path)
		muxA.ServeHTTP(w, r)
	}))
	defer srvA.Close()
	srvB := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		logB.add(r.Host + r.URL.Path)
		muxB.ServeHTTP(w, r)
	}))
	defer srvB.Close()
	a, b := srvA.URL, srvB.URL // http://127.0.0.1:PORT
	hostA := strings.TrimPrefix(a, "http://")
	localhostA := "http://localhost:" + strconv.Itoa(srvA.Listener.Addr().(*net.TCPAddr).Port)
	httpsA := "https://" + hostA

	muxA.HandleFunc("/maps/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(sitemapIndex(
			a+"/maps/sitemap-1.xml",    // 3:3 same site: fetched
			b+"/maps/sitemap-2.xml",    // 4:12 another port: not fetched
			localhostA+"/maps/s-3.xml", // 5:12 another host: not fetched
			httpsA+"/maps/s-4.xml",     // 6:12 another scheme: not fetched
			a+"/maps/hop.xml",          // 7:12 same site, redirects to b: not followed
			a+"/other/sitemap-5.xml",   // 8:12 same site, I-06: fetched
		)))
	})
	muxA.HandleFunc("/maps/sitemap-1.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(urlset(a + "/maps/p")))
	})
	muxA.HandleFunc("/maps/hop.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b+"/maps/sitemap-2.xml", http.StatusFound)
	})
	muxA.HandleFunc("/other/sitemap-5.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(urlset(a + "/other/q")))
	})
	muxB.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(urlset(b + "/maps/x")))
	})

	for _, flags := range [][]string{nil, {"--cross-submit"}} {
		args := append(append([]string{"validate"}, flags...), a+"/maps/sitemap.xml")
		code, out, errOut := runCLI(t, "", args...)
		if code != exitProblems {
			t.Fatalf("%v: exit %d\n%s%s", flags, code, out, errOut)
		}
		idx := a + "/maps/sitemap.xml"
		notes := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, ": info I-05: child sitemap ") && strings.HasSuffix(l, "; not fetched") {
				notes[strings.TrimPrefix(l[:strings.Index(l, ": info")], idx+":")] = true
			}
		}
		if want := map[string]bool{"4:12": true, "5:12": true, "6:12": true}; !maps.Equal(notes, want) {
			t.Errorf("%v: 'not fetched' I-05 notes at %v, want %v\n%s", flags, notes, want, out)
		}
		sev := "error"
		if len(flags) > 0 {
			sev = "warning" // O-03: cross-submitted, still not fetched
		}
		if n := strings.Count(out, ": "+sev+" I-05: "); n != 3 {
			t.Errorf("%v: %d %s I-05, want 3\n%s", flags, n, sev, out)
		}
		if !strings.Contains(out, idx+":7:12: error VAL-01: ") || !strings.Contains(out, "another site than the index (I-05); not followed") {
			t.Errorf("%v: off-site redirect not refused:\n%s", flags, out)
		}
		if !strings.Contains(out, idx+":8:12: "+sev+" I-06: ") {
			t.Errorf("%v: no I-06:\n%s", flags, out)
		}
		if !strings.Contains(errOut, a+"/other/sitemap-5.xml: urlset, 1 URL") || !strings.Contains(errOut, a+"/maps/sitemap-1.xml: urlset, 1 URL") {
			t.Errorf("%v: same-site children not checked:\n%s", flags, errOut)
		}
	}
	if got := logB.got(); len(got) != 0 {
		t.Errorf("the other site was requested: %v", got)
	}
	wantA := []string{"/maps/sitemap.xml", "/maps/sitemap-1.xml", "/maps/hop.xml", "/other/sitemap-5.xml"}
	wantA = append(wantA, wantA...) // two runs
	var gotA []string
	robots := 0
	for _, p := range logA.got() {
		if !strings.HasPrefix(p, hostA+"/") {
			t.Errorf("site A asked for %q (another host name)", p)
		}
		if p = strings.TrimPrefix(p, hostA); p == "/robots.txt" {
			robots++ // the listed pages' robots.txt (L-20), once a run
			continue
		}
		gotA = append(gotA, p)
	}
	if robots != 2 {
		t.Errorf("site A's robots.txt read %d times in two runs, want 2", robots)
	}
	if !slices.Equal(gotA, wantA) {
		t.Errorf("site A requests %v, want %v", gotA, wantA)
	}
}
