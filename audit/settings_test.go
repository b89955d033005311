package audit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Check refuses each setting out of range or that cannot go with the
// others, naming its flag, before any request.
func TestSettingsCheck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sitemap.xml")
	os.WriteFile(file, []byte("<urlset/>"), 0o644)
	ok := Settings{Format: "text", Concurrency: 4}
	with := func(f func(*Settings)) Settings { s := ok; f(&s); return s }
	const url = "https://www.example.com/"
	for _, c := range []struct {
		s     Settings
		names []string
		want  string // "" for no error
	}{
		{ok, []string{url}, ""},
		{with(func(s *Settings) { s.Format = "jsonl"; s.Site = url; s.Crawl = true }), []string{file, "-"}, ""},
		{with(func(s *Settings) { s.History = true; s.Resume = true }), []string{url}, ""},
		{with(func(s *Settings) { s.Format = "json" }), []string{url}, `--format "json": want text or jsonl`},
		{with(func(s *Settings) { s.Concurrency = 0 }), []string{url}, "--concurrency must be at least 1"},
		{with(func(s *Settings) { s.Sample = -1 }), []string{url}, "--sample must be 0"},
		{with(func(s *Settings) { s.History = true }), []string{url}, "--history compares with earlier runs"},
		{with(func(s *Settings) { s.Rate = -1 }), []string{url}, "--rate -1: give 0"},
		{with(func(s *Settings) { s.CrawlMaxPages = -1 }), []string{url}, "--crawl-max-pages -1"},
		{with(func(s *Settings) { s.CrawlMaxDepth = -2 }), []string{url}, "--crawl-max-depth -2"},
		{with(func(s *Settings) { s.Site = "www.example.com" }), []string{file}, `--site "www.example.com" is not an http(s) URL`},
		{with(func(s *Settings) { s.Site = url }), []string{url}, "--site is for local sitemap files"},
		{ok, []string{file, url}, url + ": audit one URL"},
		{ok, []string{file + ".missing"}, file + ".missing: no such file, nor an http(s) URL; give a homepage, a sitemap URL or sitemap files with --site"},
		{ok, []string{file, "-", file + ".missing"}, file + ".missing: no such file, nor an http(s) URL"},
		// Local names are checked as every command checks them
		// (input.CheckLocal): an s3:// object is read, not refused as a
		// missing file.
		{with(func(s *Settings) { s.Site = url }), []string{"s3://bucket/sitemap.xml"}, ""},
		{with(func(s *Settings) { s.Crawl = true }), []string{file}, "--crawl of local sitemaps needs --site URL"},
	} {
		err := c.s.Check(c.names)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("%+v %v: Check = %v; want %q", c.s, c.names, err, c.want)
		}
	}
}

// Options: 0 is no limit for the rate and the errors, the crawl's
// options follow the settings.
func TestSettingsOptions(t *testing.T) {
	o := Settings{Concurrency: 3, Sample: 5, Site: "https://a.example/", History: true, MaxErrors: 7, Rate: 2}.Options()
	if o.Concurrency != 3 || o.Sample != 5 || o.Site != "https://a.example/" || !o.History || o.MaxErrors != 7 || o.Rate != 2 || o.Crawl != nil {
		t.Errorf("Options = %+v", o)
	}
	o = Settings{Concurrency: 2, Crawl: true, CrawlMaxPages: 9, CrawlMaxDepth: 3}.Options()
	if o.Rate != -1 || o.MaxErrors != -1 || o.Crawl == nil || o.Crawl.MaxPages != 9 || o.Crawl.MaxDepth != 3 || o.Crawl.Rate != -1 || o.Crawl.Concurrency != 2 {
		t.Errorf("Options with no limits and a crawl = %+v, crawl %+v", o, o.Crawl)
	}
}

// StateFile: a named file (created or not), the kept file of --resume
// with its note and target, and a temporary one Release removes.
func TestSettingsStateFile(t *testing.T) {
	home := t.TempDir()
	t.Setenv("SITEMAP_STATE_DIR", home)
	named := filepath.Join(home, "sub", "a.db")
	rs, err := Settings{State: named}.StateFile([]string{"https://www.example.com/"})
	if err != nil || rs.Path != named || !rs.Created || rs.Note != "" {
		t.Errorf("named: %+v, %v", rs, err)
	}
	os.WriteFile(named, nil, 0o644)
	if rs, err = (Settings{State: named}).StateFile(nil); err != nil || rs.Created {
		t.Errorf("named, existing: %+v, %v", rs, err)
	}
	names := []string{"https://www.example.com/"}
	rs, err = Settings{Resume: true}.StateFile(names)
	want, _ := StatePath("", names)
	if err != nil || rs.Path != want || !strings.HasPrefix(rs.Note, "audit state: "+want) {
		t.Errorf("resume: %+v, %v; want %s", rs, err, want)
	}
	if b, err := os.ReadFile(want + targetSuffix); err != nil || string(b) != names[0]+"\n" {
		t.Errorf("target of the kept state: %q, %v", b, err)
	}
	rs, err = Settings{}.StateFile(names)
	if err != nil || !rs.Created || filepath.Base(rs.Path) != "audit.db" {
		t.Fatalf("temporary: %+v, %v", rs, err)
	}
	if fi, err := os.Stat(filepath.Dir(rs.Path)); err != nil || !fi.IsDir() {
		t.Errorf("no temporary directory: %v", err)
	}
	rs.Release()
	if _, err := os.Stat(filepath.Dir(rs.Path)); err == nil {
		t.Errorf("Release left %s", filepath.Dir(rs.Path))
	}
	if rs, err = (Settings{State: "postgres://u@db.example/a"}).StateFile(names); err != nil || rs.Created || rs.Path != "postgres://u@db.example/a" {
		t.Errorf("database: %+v, %v", rs, err)
	}
}

// WriteStates lists the kept states; Forget removes the one of an audit,
// saying so, and says when none was kept.
func TestWriteStatesForget(t *testing.T) {
	t.Setenv("SITEMAP_STATE_DIR", t.TempDir())
	var out, errw strings.Builder
	if err := WriteStates(&out, &errw); err != nil || out.Len() != 0 || !strings.Contains(errw.String(), "no audit state kept") {
		t.Errorf("no states: %v %q %q", err, out.String(), errw.String())
	}
	names := []string{"https://www.example.com/"}
	rs, err := Settings{Resume: true}.StateFile(names)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(rs.Path, []byte("db"), 0o644)
	out.Reset()
	errw.Reset()
	if err := WriteStates(&out, &errw); err != nil || !strings.HasPrefix(out.String(), names[0]+"\t"+rs.Path+"\t") || !strings.HasSuffix(out.String(), "\t2 bytes\n") {
		t.Errorf("one state: %v %q %q", err, out.String(), errw.String())
	}
	errw.Reset()
	if err := Forget(&errw, "", []string{"https://other.example/"}); err != nil || !strings.Contains(errw.String(), "no audit state kept for https://other.example/") {
		t.Errorf("Forget of an audit never kept: %v %q", err, errw.String())
	}
	errw.Reset()
	if err := Forget(&errw, "", names); err != nil || errw.String() != "sitemap: removed "+rs.Path+"\n" {
		t.Errorf("Forget: %v %q", err, errw.String())
	}
	if _, err := os.Stat(rs.Path); err == nil {
		t.Errorf("Forget left %s", rs.Path)
	}
}
