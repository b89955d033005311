package crawl

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/internal/pgtest"
	"github.com/sitemapkit/sitemap/state"
)

// CheckShared refuses every combination of the shared-crawl settings that
// cannot work, naming the flags, and nothing else.
func TestSettingsCheckShared(t *testing.T) {
	const pg = "postgres://u:secret@db.example/crawl"
	for _, c := range []struct {
		s    Settings
		want string // "" for no error
	}{
		{Settings{}, ""},
		{Settings{State: "s.db", Lease: time.Second}, ""},
		{Settings{Worker: true, State: pg, Lease: time.Second}, ""},
		{Settings{Finish: true, State: pg, Lease: DefaultLease}, ""},
		{Settings{Status: true, State: pg, Lease: DefaultLease}, ""},
		{Settings{Worker: true, Finish: true, State: pg, Lease: time.Second}, "give one of --worker, --finish and --status"},
		{Settings{Finish: true, Status: true, State: pg, Lease: time.Second}, "give one of --worker, --finish and --status"},
		{Settings{Worker: true, State: "s.db", Lease: time.Second}, "--worker needs a PostgreSQL state"},
		{Settings{Finish: true, Lease: time.Second}, "--finish needs a PostgreSQL state"},
		{Settings{Status: true, State: "s.db", Lease: time.Second}, "--status needs a PostgreSQL state"},
		{Settings{Worker: true, State: pg, Lease: 999 * time.Millisecond}, "--lease 999ms: give at least 1s"},
	} {
		err := c.s.CheckShared()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%+v: CheckShared() = %v; want %q", c.s, err, c.want)
		}
	}
}

// StartOptions picks the Mode and carries the worker's settings, the
// name shown and the notes; Interrupted says what each kind of run kept.
func TestSettingsStartOptionsInterrupted(t *testing.T) {
	var noted string
	note := func(m string) { noted = m }
	for _, c := range []struct {
		s           Settings
		mode        Mode
		interrupted string
	}{
		{Settings{}, Alone, "crawl interrupted; what was crawled is kept in S: run the same command again to continue"},
		{Settings{DryRun: true}, Alone, "crawl interrupted; dry run, nothing kept"},
		{Settings{Worker: true, Again: true, Lease: 3 * time.Second}, Worker, "worker interrupted; its URLs went back to the other workers: run the same command again to rejoin the crawl in S"},
		{Settings{Finish: true}, Finisher, "crawl interrupted; what was crawled is kept in S: run the same command again to continue"},
	} {
		so := c.s.StartOptions("S", note)
		so.Note("n")
		if so.Mode != c.mode || so.Shown != "S" || so.Worker.Lease != c.s.Lease || so.Worker.Again != c.s.Again || noted != "n" {
			t.Errorf("%+v: StartOptions = %+v", c.s, so)
		}
		if got := c.s.Interrupted("S"); got != c.interrupted {
			t.Errorf("%+v: Interrupted = %q; want %q", c.s, got, c.interrupted)
		}
	}
}

// CheckStart takes an absolute http(s) URL only.
func TestCheckStart(t *testing.T) {
	for in, ok := range map[string]bool{
		"https://www.example.com/": true, "http://127.0.0.1:8080/a": true,
		"www.example.com": false, "/a": false, "ftp://example.com/": false, "https://": false, "http://%zz/": false,
	} {
		u, err := CheckStart(in)
		if ok != (err == nil) || ok && u.String() != in {
			t.Errorf("CheckStart(%q) = %v, %v", in, u, err)
		}
		if !ok && (err == nil || !strings.HasPrefix(err.Error(), "START-URL ")) {
			t.Errorf("CheckStart(%q): error %v does not name START-URL", in, err)
		}
	}
}

// StartURL is the given start URL but for --finish, which reads the
// shared crawl's from the database; WriteSharedStatus shows that crawl,
// naming the database without its password.
func TestSettingsStartURLSharedStatus(t *testing.T) {
	ctx := context.Background()
	if got, err := (Settings{}).StartURL(ctx, "https://a.example/"); got != "https://a.example/" || err != nil {
		t.Errorf("StartURL alone = %q, %v", got, err)
	}
	dsn := pgtest.DB(t)
	s := Settings{Finish: true, State: dsn}
	if _, err := s.StartURL(ctx, ""); err == nil || !strings.Contains(err.Error(), "holds no crawl") {
		t.Errorf("StartURL of an empty database: %v", err)
	}
	st := openPostgres(t, dsn)
	const start = "https://www.example.com/"
	if _, err := st.Crawl().(state.SharedCrawlLog).Join(ctx, start, time.Now(), state.CrawlWorker{ID: "w1", Lease: time.Minute}, false); err != nil {
		t.Fatal(err)
	}
	if got, err := s.StartURL(ctx, ""); got != start || err != nil {
		t.Errorf("StartURL with --finish = %q, %v; want %s", got, err, start)
	}
	if _, err := s.StartURL(ctx, "https://other.example/"); err == nil || !strings.Contains(err.Error(), "not https://other.example/") {
		t.Errorf("StartURL of another crawl: %v", err)
	}
	var text, js bytes.Buffer
	if err := WriteSharedStatus(ctx, &text, dsn, false); err != nil || !strings.Contains(text.String(), "crawl of "+start) || !strings.Contains(text.String(), "w1") {
		t.Errorf("WriteSharedStatus text: %v\n%s", err, text.String())
	}
	if err := WriteSharedStatus(ctx, &js, dsn, true); err != nil || !strings.HasPrefix(js.String(), "{") || !strings.Contains(js.String(), start) {
		t.Errorf("WriteSharedStatus JSON: %v\n%s", err, js.String())
	}
	if err := WriteSharedStatus(ctx, &text, "postgres://nobody@127.0.0.1:1/none", false); err == nil {
		t.Errorf("WriteSharedStatus of a database that does not answer: no error")
	}
}

// WriteClosing writes JSON on out or text and the table on w; WriteFailed
// counts the failed URLs and points at the report.
func TestSummaryWriteClosingFailed(t *testing.T) {
	sum := Summary{Fetched: 3, Listed: 1, Reasons: map[string]int{"status:404": 1, ReasonError: 1, "noindex": 1}}
	var out, w bytes.Buffer
	if err := sum.WriteClosing(&out, &w, true, map[string]int{"files": 1}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"crawl": {`) || !strings.Contains(out.String(), `"files": 1`) || w.Len() != 0 {
		t.Errorf("JSON closing: out %q, w %q", out.String(), w.String())
	}
	out.Reset()
	if err := sum.WriteClosing(&out, &w, false, table("FILE sitemap.xml\n")); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || !strings.Contains(w.String(), "noindex") || !strings.HasSuffix(w.String(), "FILE sitemap.xml\n") {
		t.Errorf("text closing: out %q, w %q", out.String(), w.String())
	}
	for report, hint := range map[string]string{"": "; --report FILE lists them", "-": "; --report FILE lists them", "r.jsonl": "; r.jsonl lists them"} {
		w.Reset()
		if !sum.WriteFailed(&w, report) || w.String() != "sitemap: 2 URLs failed (see the counts above"+hint+")\n" {
			t.Errorf("WriteFailed(%q): %q", report, w.String())
		}
	}
	w.Reset()
	if (Summary{Reasons: map[string]int{"noindex": 4}}).WriteFailed(&w, "") || w.Len() != 0 {
		t.Errorf("WriteFailed with none failed: %q", w.String())
	}
}

// table is a summary with a table, as a build.Summary.
type table string

func (t table) WriteTable(w io.Writer) error {
	_, err := w.Write([]byte(t))
	return err
}

// ShowProgress sets Progress and Frontier to draw on w; done ends the line.
func TestOptionsShowProgress(t *testing.T) {
	var o Options
	var w bytes.Buffer
	done := o.ShowProgress(&w)
	if o.Progress == nil || o.Frontier == nil {
		t.Fatal("ShowProgress set no callbacks")
	}
	o.Progress(3)
	o.Frontier(3, 10)
	done()
}

// NothingListed: an error for a site that did not answer, else the line
// that nothing was published.
func TestSummaryNothingListed(t *testing.T) {
	var w bytes.Buffer
	if err := (Summary{Unreachable: "connection refused"}).NothingListed(&w); err == nil || !strings.HasPrefix(err.Error(), "the site did not answer (connection refused)") || w.Len() != 0 {
		t.Errorf("unreachable: %v, %q", err, w.String())
	}
	if err := (Summary{Fetched: 2}).NothingListed(&w); err != nil || w.String() != "sitemap: no page can be listed; nothing published, previous sitemaps left as they were\n" {
		t.Errorf("nothing listed: %v, %q", err, w.String())
	}
}
