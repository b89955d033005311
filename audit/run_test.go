package audit

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/crawl"
)

// runSite serves a sitemap listing / (a page) and /gone (404); with
// empty it lists nothing; block, when set, is called for /slow, which
// the sitemap then lists too, and the request waits for its end.
func runSite(t *testing.T, empty bool, block func()) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sitemap.xml":
			fmt.Fprint(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			if !empty {
				fmt.Fprintf(w, `<url><loc>%[1]s/</loc></url><url><loc>%[1]s/gone</loc></url>`, srv.URL)
				if block != nil {
					fmt.Fprintf(w, `<url><loc>%s/slow</loc></url>`, srv.URL)
				}
			}
			fmt.Fprint(w, `</urlset>`)
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<!DOCTYPE html><html><head><title>Home</title></head><body>Home</body></html>")
		case "/slow":
			block()
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Run audits the site, writes the records, the report and the closing
// lines, and says a URL with errors is a problem.
func TestSettingsRun(t *testing.T) {
	srv := runSite(t, false, nil)
	dir := t.TempDir()
	var out, errw strings.Builder
	s := Settings{Format: "text", Concurrency: 2, Report: filepath.Join(dir, "audit.html")}
	var renderedFor string
	env := Env{HTTP: testClient(t), Out: &out, Err: &errw, Render: func(_ context.Context, ua string) (crawl.Renderer, crawl.RenderMode, func(), error) {
		renderedFor = ua
		return nil, 0, func() {}, nil
	}}
	problems, err := s.Run(context.Background(), []string{srv.URL + "/sitemap.xml"}, env)
	if err != nil || !problems {
		t.Fatalf("Run = %v, %v; want problems", problems, err)
	}
	if !strings.Contains(out.String(), srv.URL+"/gone: error AUD-03") || strings.Contains(out.String(), srv.URL+"/:") {
		t.Errorf("records:\n%s", out.String())
	}
	if !strings.Contains(errw.String(), "sitemap: report written to "+s.Report+"\n") || !strings.HasSuffix(errw.String(), "sitemap: 1 URL with errors\n") {
		t.Errorf("closing lines:\n%s", errw.String())
	}
	if b, err := os.ReadFile(s.Report); err != nil || !strings.Contains(string(b), "/gone") {
		t.Errorf("report: %v", err)
	}
	if renderedFor != "sitemap-audit-test/1.0" {
		t.Errorf("Render called for %q, want the client's User-Agent", renderedFor)
	}
	// A report where a directory is fails before any request.
	s.Report = dir
	if _, err := s.Run(context.Background(), []string{srv.URL + "/sitemap.xml"}, env); err == nil || !strings.HasPrefix(err.Error(), "--report "+dir+" is a directory") {
		t.Errorf("report into a directory: %v", err)
	}
	// A browser that cannot start ends the run with its error.
	s.Report = ""
	env.Render = func(context.Context, string) (crawl.Renderer, crawl.RenderMode, func(), error) {
		return nil, 0, func() {}, errors.New("--render: no browser")
	}
	if _, err := s.Run(context.Background(), []string{srv.URL + "/sitemap.xml"}, env); err == nil || err.Error() != "--render: no browser" {
		t.Errorf("browser failing: %v", err)
	}
}

// Sitemaps that list nothing end with ErrNothingListed, and the state the
// run created is removed; one that existed before is kept.
func TestSettingsRunNothingListed(t *testing.T) {
	srv := runSite(t, true, nil)
	path := filepath.Join(t.TempDir(), "audit.db")
	s := Settings{Format: "jsonl", Concurrency: 1, State: path}
	env := Env{HTTP: testClient(t), Out: &strings.Builder{}, Err: &strings.Builder{}}
	if _, err := s.Run(context.Background(), []string{srv.URL + "/sitemap.xml"}, env); !errors.Is(err, ErrNothingListed) {
		t.Fatalf("Run = %v; want ErrNothingListed", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the state the failed run created is left")
	}
	openState(t, path).Close() // a state of an earlier run
	if _, err := s.Run(context.Background(), []string{srv.URL + "/sitemap.xml"}, env); !errors.Is(err, ErrNothingListed) {
		t.Fatalf("second Run = %v; want ErrNothingListed", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("an earlier run's state was removed: %v", err)
	}
}

// An interrupted run returns ctx's error and says what was kept: the
// state file with --state, nothing without.
func TestSettingsRunInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.db")
	for _, s := range []Settings{{Format: "text", Concurrency: 4, State: path}, {Format: "text", Concurrency: 4}} {
		ctx, cancel := context.WithCancel(context.Background())
		srv := runSite(t, false, cancel)
		var errw strings.Builder
		_, err := s.Run(ctx, []string{srv.URL + "/sitemap.xml"}, Env{HTTP: testClient(t), Out: &strings.Builder{}, Err: &errw})
		cancel()
		want := "sitemap: audit interrupted; run it with --resume (or --state FILE) to keep what was checked for the next run\n"
		if s.State != "" {
			want = "sitemap: audit interrupted; what was checked is kept in " + path + ": run the same command again to continue\n"
		}
		if !errors.Is(err, context.Canceled) || !strings.HasSuffix(errw.String(), want) {
			t.Errorf("state %q: Run = %v, stderr %q; want context.Canceled and %q", s.State, err, errw.String(), want)
		}
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the interrupted run's state is gone: %v", err)
	}
}
