package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeTemp(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(name, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, mode); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestRobotsAddRemoveFile(t *testing.T) {
	const orig = "User-agent: *\r\nDisallow: /private/\r\n"
	name := writeTemp(t, orig, 0o640)
	const u = "https://www.example.com/sitemap.xml"

	code, out, errs := runCLI(t, "", "robots", "add", name, u)
	if code != exitOK || out != "" || !strings.Contains(errs, "added Sitemap: "+u) {
		t.Fatalf("add: code %d out %q err %q", code, out, errs)
	}
	got, _ := os.ReadFile(name)
	// RB-13: after the groups, blank line, CRLF style kept, original bytes kept.
	if want := orig + "\r\nSitemap: " + u + "\r\n"; string(got) != want {
		t.Fatalf("file = %q, want %q", got, want)
	}
	if st, _ := os.Stat(name); st.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(filepath.Dir(name)); len(ents) != 1 {
		t.Errorf("temporary file left behind: %v", ents)
	}

	// Adding again changes nothing.
	code, _, errs = runCLI(t, "", "robots", "add", name, u)
	if code != exitOK || !strings.Contains(errs, "unchanged") {
		t.Fatalf("add again: code %d err %q", code, errs)
	}

	// list shows it.
	code, out, _ = runCLI(t, "", "robots", "list", name)
	if code != exitOK || out != u+"\n" {
		t.Fatalf("list: code %d out %q", code, out)
	}

	// remove takes that line out, and the blank line add put above it:
	// the file is as it was.
	code, _, errs = runCLI(t, "", "robots", "remove", name, u)
	if code != exitOK || !strings.Contains(errs, "removed Sitemap: "+u) {
		t.Fatalf("remove: code %d err %q", code, errs)
	}
	got, _ = os.ReadFile(name)
	if want := orig; string(got) != want {
		t.Fatalf("after remove file = %q, want %q", got, want)
	}
	code, _, errs = runCLI(t, "", "robots", "remove", name, u)
	if code != exitOK || !strings.Contains(errs, "unchanged") {
		t.Fatalf("remove again: code %d err %q", code, errs)
	}
}

func TestRobotsAddCreatesAndWarnsRB11(t *testing.T) {
	name := filepath.Join(t.TempDir(), "robots.txt")
	code, _, errs := runCLI(t, "", "robots", "add", name, "https://e.com/s.xml")
	if code != exitOK || !strings.Contains(errs, "created") {
		t.Fatalf("code %d err %q", code, errs)
	}
	if b, _ := os.ReadFile(name); string(b) != "Sitemap: https://e.com/s.xml\n" {
		t.Fatalf("created %q", b)
	}
	blocked := writeTemp(t, "User-agent: *\nDisallow: /\n", 0o644)
	code, _, errs = runCLI(t, "", "robots", "add", blocked, "https://e.com/s.xml")
	if code != exitOK || !strings.Contains(errs, "RB-11") {
		t.Fatalf("disallowed sitemap: code %d err %q", code, errs)
	}
}

func TestRobotsStdinStdout(t *testing.T) {
	code, out, _ := runCLI(t, "User-agent: *\nDisallow:\n", "robots", "add", "-", "https://e.com/s.xml")
	if code != exitOK || out != "User-agent: *\nDisallow:\n\nSitemap: https://e.com/s.xml\n" {
		t.Fatalf("code %d out %q", code, out)
	}
	code, out, errs := runCLI(t, "sitemap: /rel.xml\nSitemap: https://e.com/a.xml\n", "robots", "list", "-")
	if code != exitProblems || out != "https://e.com/a.xml\n" || !strings.Contains(errs, "<stdin>:1: warning RB-12") {
		t.Fatalf("list -: code %d out %q err %q", code, out, errs)
	}
}

func TestRobotsUsageErrors(t *testing.T) {
	name := writeTemp(t, "", 0o644)
	tests := [][]string{
		{"robots", "add", name, "/relative.xml"},             // RB-05
		{"robots", "add", name, "https://e.com:99999/a.xml"}, // no normal form (L-07); a space is written %20 (L-18)
		{"robots", "add", "https://e.com/robots.txt", "https://e.com/s.xml"},
		{"robots", "remove", filepath.Join(t.TempDir(), "missing.txt"), "https://e.com/s.xml"},
		{"robots", "list", filepath.Join(t.TempDir(), "missing.txt")},
		{"robots", "list", "--format", "xml", name},
		{"robots", "add", name},
	}
	for _, args := range tests {
		if code, _, errs := runCLI(t, "", args...); code != exitUsage || errs == "" {
			t.Errorf("%v: code %d err %q", args, code, errs)
		}
	}
	if b, _ := os.ReadFile(name); len(b) != 0 {
		t.Errorf("file changed by a failed command: %q", b)
	}
	// A missing file or a directory is said as every command says it.
	missing, dir := filepath.Join(t.TempDir(), "missing.txt"), t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"robots", "list", missing}, missing + ": no such file"},
		{[]string{"robots", "remove", missing, "https://e.com/s.xml"}, missing + ": no such file"},
		{[]string{"robots", "list", dir}, dir + ": is a directory; give a robots.txt file"},
	} {
		if code, _, errs := runCLI(t, "", tc.args...); code != exitUsage || errs != "sitemap: "+tc.want+"\n" {
			t.Errorf("%v: code %d, stderr %q; want 2 and %q", tc.args, code, errs, "sitemap: "+tc.want)
		}
	}
}

func TestRobotsListHTTP(t *testing.T) {
	var gotUA string
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		gotUA = r.Header.Get("User-Agent")
		w.Write([]byte("User-agent: *\nDisallow: /x\n\nSitemap: /sitemap.xml\nSitemap: https://cdn.example.net/s.xml\n"))
	})
	mux.HandleFunc("/huge/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\n"))
		line := []byte("Disallow: /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n")
		for i := 0; i < 20000; i++ { // 1.4 MB: more than the 512,000-byte limit
			if _, err := w.Write(line); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/missing/robots.txt", http.NotFound)
	mux.HandleFunc("/broken/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "oops", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/slow/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	srv := httptest.NewServer(mux) // listens on 127.0.0.1
	defer srv.Close()

	// A bare host gets /robots.txt; a relative value resolves with a warning (RB-12).
	code, out, errs := runCLI(t, "", "robots", "list", srv.URL)
	if code != exitProblems || out != srv.URL+"/sitemap.xml\nhttps://cdn.example.net/s.xml\n" || !strings.Contains(errs, "RB-12") {
		t.Fatalf("list URL: code %d out %q err %q", code, out, errs)
	}
	if !strings.HasPrefix(gotUA, "sitemap/") {
		t.Errorf("User-Agent %q", gotUA)
	}

	code, out, _ = runCLI(t, "", "robots", "list", "--format", "json", srv.URL+"/robots.txt")
	var doc struct {
		Robots   string   `json:"robots"`
		Sitemaps []string `json:"sitemaps"`
		Warnings []struct {
			Rule, Severity, URL string
			Line                int
		} `json:"warnings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if code != exitProblems || len(doc.Sitemaps) != 2 || len(doc.Warnings) != 1 || doc.Warnings[0].Line != 4 ||
		doc.Warnings[0].Rule != "RB-12" || doc.Warnings[0].URL != srv.URL+"/robots.txt" {
		t.Fatalf("json: code %d %+v", code, doc)
	}

	code, out, _ = runCLI(t, "", "robots", "list", "--format", "jsonl", srv.URL)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != exitProblems || len(lines) != 2 || !strings.Contains(lines[1], `"loc":"https://cdn.example.net/s.xml"`) {
		t.Fatalf("jsonl: code %d out %q", code, out)
	}

	// At most 512,000 bytes are read (RB-03): reported as truncated, exit 1.
	code, _, errs = runCLI(t, "", "robots", "list", srv.URL+"/huge/robots.txt")
	if code != exitProblems || !strings.Contains(errs, "RB-03") {
		t.Fatalf("huge: code %d err %q", code, errs)
	}

	code, _, errs = runCLI(t, "", "robots", "list", srv.URL+"/missing/robots.txt")
	if code != exitProblems || !strings.Contains(errs, "404") {
		t.Fatalf("404: code %d err %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "robots", "list", srv.URL+"/broken/robots.txt")
	if code != exitUsage || !strings.Contains(errs, "503") {
		t.Fatalf("503: code %d err %q", code, errs)
	}
	code, _, errs = runCLI(t, "", "robots", "list", "--timeout", "200ms", srv.URL+"/slow/robots.txt")
	if code != exitUsage || errs == "" {
		t.Fatalf("timeout: code %d err %q", code, errs)
	}
}

func TestRunRobotsDirect(t *testing.T) {
	// The run function works without cobra, as tests and other commands call it.
	name := writeTemp(t, "Sitemap: https://e.com/a.xml", 0o600)
	var out, errb strings.Builder
	s := &streams{In: strings.NewReader(""), Out: &out, Err: &errb}
	err := runRobots(context.Background(), &robotsOptions{Action: "add", Target: name, SitemapURL: "https://e.com/b.xml"}, s)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "Sitemap: https://e.com/a.xml\nSitemap: https://e.com/b.xml" {
		t.Fatalf("file %q", b)
	}
	if err := runRobots(context.Background(), &robotsOptions{Action: "frobnicate"}, s); err == nil {
		t.Fatal("unknown action accepted")
	}
}

// robots list shows at most --max-per-rule warnings of one rule (20, as
// validate), then one note counting the rest: a file of junk printed a
// warning for each of its lines (29,061 for a 500 KiB file).
func TestRobotsListCapsWarnings(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		b.WriteString("Disallow: /p" + strings.Repeat("x", i) + "\n")
	}
	b.WriteString("Sitemap: https://www.example.com/sitemap.xml\n")
	p := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errb := runCLI(t, "", "robots", "list", p)
	if code != exitOK || out != "https://www.example.com/sitemap.xml\n" || strings.Count(errb, "warning RB-01") != 20 ||
		!strings.Contains(errb, p+": note RB-01: and 10 more RB-01 warnings (use --max-per-rule 0 to see all)") {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", code, out, errb)
	}
	_, _, errb = runCLI(t, "", "robots", "list", "--max-per-rule", "0", p)
	if strings.Count(errb, "warning RB-01") != 30 || strings.Contains(errb, "note") {
		t.Errorf("--max-per-rule 0: stderr:\n%s", errb)
	}
}

// robots add writes the sitemap URL in its normal form (L-18), as
// generate --robots does, so the two never list one sitemap twice: a
// space, é, an upper-case host or :443 were written as given (or refused,
// for a space, though it has one right spelling).
func TestRobotsAddNormalForm(t *testing.T) {
	p := filepath.Join(t.TempDir(), "robots.txt")
	code, _, errb := runCLI(t, "", "robots", "add", p, "https://WWW.Example.com:443/site maps/é.xml")
	b, _ := os.ReadFile(p)
	if code != exitOK || string(b) != "Sitemap: https://www.example.com/site%20maps/%C3%A9.xml\n" || !strings.Contains(errb, "L-18") {
		t.Errorf("exit %d, file %q, stderr %q", code, b, errb)
	}
	code, _, errb = runCLI(t, "", "robots", "add", p, "https://www.example.com/site%20maps/%C3%A9.xml")
	if code != exitOK || !strings.Contains(errb, "already lists") {
		t.Errorf("again: exit %d, stderr %q", code, errb)
	}
	code, _, errb = runCLI(t, "", "robots", "add", p, "https://www.example.com:99999/s.xml")
	if code != exitUsage || !strings.Contains(errb, "port") {
		t.Errorf("bad port: exit %d, stderr %q", code, errb)
	}
}

// robots remove finds the line add wrote from the URL as the user gave it
// to add: a URL given with a space removes the line of its %20 form.
func TestRobotsRemoveNormalForm(t *testing.T) {
	p := filepath.Join(t.TempDir(), "robots.txt")
	if code, _, errb := runCLI(t, "", "robots", "add", p, "https://www.example.com/a b.xml"); code != exitOK {
		t.Fatalf("add: exit %d, %s", code, errb)
	}
	code, _, errb := runCLI(t, "", "robots", "remove", p, "https://www.example.com/a b.xml")
	b, _ := os.ReadFile(p)
	if code != exitOK || len(b) != 0 || !strings.Contains(errb, "removed Sitemap: https://www.example.com/a%20b.xml") {
		t.Errorf("exit %d, file %q, stderr %q", code, b, errb)
	}
}

// robots list --timeout 0 or below is refused, as submit's: 0 ran with the
// client's defaults, not without a limit.
func TestRobotsListTimeout(t *testing.T) {
	for _, v := range []string{"0", "-1s"} {
		code, _, errb := runCLI(t, "", "robots", "list", "--timeout", v, "https://www.example.com/robots.txt")
		if code != exitUsage || !strings.Contains(errb, "use a positive duration") {
			t.Errorf("--timeout %s: exit %d, stderr %q", v, code, errb)
		}
	}
}
