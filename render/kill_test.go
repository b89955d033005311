package render

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/crawl"
	"github.com/sitemapkit/sitemap/internal/browsertest"
	"github.com/sitemapkit/sitemap/internal/spatest"
	"github.com/sitemapkit/sitemap/state"
)

// TestMain runs a rendered crawl when started by TestRenderedCrawlKilled
// (SITEMAP_RENDER_CHILD set): a crawl of $SITEMAP_RENDER_URL into the
// state file $SITEMAP_RENDER_STATE that stops on SIGINT or SIGTERM, its
// summary as JSON on standard output.
func TestMain(m *testing.M) {
	if os.Getenv("SITEMAP_RENDER_CHILD") == "" {
		code := m.Run()
		if shared.c != nil {
			shared.c.Close()
		}
		os.Exit(code)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := child(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func child(ctx context.Context) error {
	c, err := New(ctx, Options{Browser: os.Getenv("SITEMAP_RENDER_BROWSER"), Concurrency: 2})
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := state.OpenSQLite(ctx, os.Getenv("SITEMAP_RENDER_STATE"), state.SQLiteOptions{})
	if err != nil {
		return err
	}
	defer st.Close()
	cr, err := crawl.New(ctx, st, st.Crawl(), os.Getenv("SITEMAP_RENDER_URL"), crawl.Options{Rate: -1, Concurrency: 2, Render: c})
	if err != nil {
		return err
	}
	sum, err := cr.Run(ctx)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(sum)
}

// ours lists the processes whose command line names dir: the browsers
// the child started, whose profile directories are under its TMPDIR.
func ours(t *testing.T, dir string) []string {
	out, err := exec.Command("pgrep", "-a", "-f", dir).Output()
	if err != nil {
		if e, ok := err.(*exec.ExitError); ok && e.ExitCode() == 1 {
			return nil // none
		}
		t.Fatalf("pgrep: %v", err)
	}
	var ps []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if !strings.Contains(l, "pgrep") {
			ps = append(ps, l)
		}
	}
	return ps
}

// TestRenderedCrawlKilled: a rendered crawl killed with SIGKILL, then one
// interrupted with SIGINT, leaves no browser process behind (pgrep finds
// none with its profile directory), and the next run resumes the crawl
// and finishes it with every route.
func TestRenderedCrawlKilled(t *testing.T) {
	path := browsertest.Require(t)
	if _, err := exec.LookPath("pgrep"); err != nil {
		t.Skip("no pgrep")
	}
	site := spatest.New(spatest.Options{Pages: 30})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") && r.URL.Path != "/app.js" && r.URL.Path != "/robots.txt" {
			time.Sleep(100 * time.Millisecond) // a page at a time, slowly
		}
		site.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		t.Fatal(err)
	}
	statePath := filepath.Join(dir, "state.db")
	start := func() (*exec.Cmd, *strings.Builder) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "SITEMAP_RENDER_CHILD=1", "TMPDIR="+tmp, "SITEMAP_RENDER_BROWSER="+path,
			"SITEMAP_RENDER_URL="+srv.URL+"/", "SITEMAP_RENDER_STATE="+statePath)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	// waitPages waits until the site has served n pages /p/… to someone.
	waitPages := func(n int) {
		deadline := time.Now().Add(60 * time.Second)
		for {
			got := 0
			for i := range 30 {
				got += site.Hits(fmt.Sprintf("/p/%d", i))
			}
			if got >= n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the crawl served only %d pages /p/N in a minute", got)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	gone := func(how string) {
		deadline := time.Now().Add(30 * time.Second)
		for {
			ps := ours(t, tmp)
			if len(ps) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("after %s, browser processes left:\n%s", how, strings.Join(ps, "\n"))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}

	cmd, _ := start()
	waitPages(4)
	if len(ours(t, tmp)) == 0 {
		t.Fatal("pgrep finds no browser of the running crawl: the test cannot see what it checks")
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	gone("SIGKILL")

	cmd, out := start()
	waitPages(14)
	_ = cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err == nil || !strings.Contains(out.String(), "context canceled") {
		t.Fatalf("interrupted crawl: %v\n%s", err, out)
	}
	gone("SIGINT")

	cmd, out = start()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("resumed crawl: %v\n%s", err, out)
	}
	gone("the end of the crawl")
	var sum crawl.Summary
	if err := json.Unmarshal([]byte(out.String()), &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}
	if !sum.Resumed || sum.Fetched >= len(site.Routable()) {
		t.Errorf("the last run: resumed %v, fetched %d of %d pages; want it to continue the crawl", sum.Resumed, sum.Fetched, len(site.Routable()))
	}
	st, err := state.OpenSQLite(t.Context(), statePath, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := crawl.Open(st, st.Crawl(), srv.URL+"/", crawl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := c.Outcomes(t.Context(), func(o crawl.Outcome) error {
		if o.Status != 0 {
			got = append(got, strings.TrimPrefix(o.URL, srv.URL))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := site.Routable(); !slices.Equal(got, want) {
		t.Errorf("pages fetched %v, want %v", got, want)
	}
}
