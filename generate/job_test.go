package generate_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/build"
	"github.com/sitemapkit/sitemap/generate"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/store"
)

// Every stage's error names the flag that points at what failed.
func TestExplain(t *testing.T) {
	s := generate.Settings{Out: "public", State: "postgres://u:secret@db/x", Robots: "robots.txt", DedupMemory: 64 << 20}
	boom := errors.New("boom")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		ctx  context.Context
		err  error
		want string
	}{
		{context.Background(), &generate.StageError{Stage: generate.StageOpen, Err: &fs.PathError{Op: "open", Path: "public/.lock", Err: fs.ErrPermission}},
			"--out public: cannot write to the output directory; check that it is writable: open public/.lock: permission denied"},
		{context.Background(), &generate.StageError{Stage: generate.StageOpen, Err: boom}, "boom"},
		{context.Background(), &generate.StageError{Stage: generate.StageState, Err: boom}, "--state postgres://u@db:5432/x: boom"},
		{context.Background(), &generate.StageError{Stage: generate.StageSaveState, Err: boom}, "the sitemaps were published but the state could not be saved: boom"},
		{context.Background(), &generate.StageError{Stage: generate.StageDedup, Err: boom}, "remembering the URLs read (--dedup-memory 64MiB, temporary directory " + os.TempDir() + "): boom; give more --dedup-memory"},
		{context.Background(), &generate.StageError{Stage: generate.StageStylesheet, Err: boom}, "writing " + filepath.Join("public", "sitemap.xsl") + ": boom"},
		{context.Background(), &generate.StageError{Stage: generate.StageRobots, Err: boom}, "--robots: boom"},
		{context.Background(), &generate.StageError{Stage: generate.StageRobotsEdit, Err: boom}, "--robots robots.txt: boom"},
		{context.Background(), &fs.PathError{Op: "open", Path: filepath.Join("public", "sitemap-1.xml"), Err: fs.ErrPermission},
			"--out public: cannot write to the output directory; check that it is writable"},
		{context.Background(), &fs.PathError{Op: "open", Path: "elsewhere/x", Err: fs.ErrPermission}, "open elsewhere/x: permission denied"},
		{context.Background(), source.ErrBinary, source.ErrBinary.Error()},
		{canceled, boom, "context canceled"},
	} {
		got := s.Explain(c.ctx, c.err)
		if got == nil || !strings.Contains(got.Error(), c.want) {
			t.Errorf("Explain(%v) = %v, want %q", c.err, got, c.want)
		}
	}
}

// job is a Job over a memory store of the default settings.
func job(t *testing.T, s generate.Settings) (*generate.Job, *strings.Builder) {
	t.Helper()
	s.Output, s.BaseURL, s.Out = build.DefaultSettings(), "https://www.example.com/", "public"
	o, err := s.Options()
	if err != nil {
		t.Fatal(err)
	}
	o.Out = store.Memory()
	var said strings.Builder
	return &generate.Job{Settings: s, Options: o, Stdout: &said, Stderr: &said}, &said
}

func read(text string) generate.Source {
	return generate.Read(strings.NewReader(text), source.Options{Name: "urls.txt"})
}

// A run that publishes nothing calls Unpublished, says why and returns
// ErrProblems; one that publishes calls Published with its top file.
func TestJobRunEnds(t *testing.T) {
	for _, c := range []struct {
		name, input string
		strict      bool
		published   string // "" when nothing was
		err         error
		said        string
	}{
		{"empty", "# nothing\n", false, "", generate.ErrProblems, "sitemap: the input holds no entries (empty, or only blank and # lines); nothing published"},
		{"strict", "https://www.example.com/\nftp://e.com/\n", true, "", generate.ErrProblems, "sitemap: --strict: stopped at the first invalid entry; nothing published"},
		{"skipped", "https://www.example.com/\nftp://e.com/\n", false, filepath.Join("public", "sitemap.xml"), generate.ErrProblems, "sitemap: 1 invalid entry skipped; the valid ones were published"},
		{"clean", "https://www.example.com/\n", false, filepath.Join("public", "sitemap.xml"), nil, "1 URL in 1 sitemap"},
	} {
		j, said := job(t, generate.Settings{Strict: c.strict})
		unpublished, published := false, ""
		j.Unpublished = func() { unpublished = true }
		j.Published = func(_ context.Context, top string) error { published = top; return nil }
		_, err := j.Run(context.Background(), read(c.input))
		if !errors.Is(err, c.err) || (err == nil) != (c.err == nil) || unpublished != (c.published == "") || published != c.published || !strings.Contains(said.String(), c.said) {
			t.Errorf("%s: err %v, unpublished %v, published %q, said:\n%s", c.name, err, unpublished, published, said)
		}
	}
}

// The summary goes to Stdout as JSON with Settings.JSON; an error of
// Published is the run's.
func TestJobRunJSONAndPublishedError(t *testing.T) {
	j, _ := job(t, generate.Settings{JSON: true})
	var out strings.Builder
	j.Stdout = &out
	boom := errors.New("indexnow down")
	j.Published = func(context.Context, string) error { return boom }
	if _, err := j.Run(context.Background(), read("https://www.example.com/\n")); err != boom {
		t.Errorf("err %v, want %v", err, boom)
	}
	if !strings.HasPrefix(out.String(), "{\n") || !strings.Contains(out.String(), `"urls": 1`) {
		t.Errorf("stdout %q", out.String())
	}
}
