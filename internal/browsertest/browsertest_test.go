package browsertest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>
<body><main><h1 id="h">before</h1><button id="b" onclick="document.getElementById('h').textContent='clicked'">go</button>
<input id="q" oninput="document.getElementById('h').textContent='typed '+this.value">
<button id="boom" onclick="throw new Error('planted')">boom</button></main></body></html>`

func TestTabLoadEvalClickType(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	defer srv.Close()
	tab := New(t)
	tab.Load(srv.URL)
	if got := Eval[string](tab, `document.documentElement.lang`); got != "en" {
		t.Fatalf("lang = %q", got)
	}
	tab.Click("#b")
	if got := tab.Text("#h"); got != "clicked" {
		t.Fatalf("after click: %q", got)
	}
	tab.Type("#q", "abc")
	if got := tab.Text("#h"); got != "typed abc" {
		t.Fatalf("after typing: %q", got)
	}
	if n := Eval[int](tab, `Promise.resolve(document.querySelectorAll('button').length)`); n != 2 {
		t.Fatalf("buttons = %d", n)
	}
	tab.NoErrors()
	tab.Click("#boom")
	Eval[bool](tab, `true`) // a round trip, so the exception event has arrived
	if errs := tab.Errors(); len(errs) != 1 || !strings.Contains(errs[0], "planted") {
		t.Fatalf("exceptions = %q, want the planted one", errs)
	}
}

func TestLoadFileAndScreenshot(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "p.html")
	if err := os.WriteFile(p, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	art := filepath.Join(t.TempDir(), "artifacts")
	t.Setenv("SITEMAP_ARTIFACTS", art)
	tab := New(t)
	tab.LoadFile(p)
	tab.WaitVisible("#b")
	shot := tab.Screenshot("page")
	if filepath.Dir(shot) != art {
		t.Fatalf("screenshot in %s, want %s", shot, art)
	}
	b, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 100 || string(b[1:4]) != "PNG" {
		t.Fatalf("not a PNG: %d bytes", len(b))
	}
}

func TestPathHonoursOverride(t *testing.T) {
	t.Setenv("SITEMAP_CHROMIUM", filepath.Join(t.TempDir(), "none"))
	if p := Path(); p != "" {
		t.Fatalf("Path() = %q with a missing SITEMAP_CHROMIUM, want \"\"", p)
	}
}
