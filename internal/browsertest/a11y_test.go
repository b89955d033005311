package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func loadHTML(t *testing.T, tab *Tab, html string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "p.html")
	if err := os.WriteFile(p, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	tab.LoadFile(p)
}

func TestAccessibilityCleanPage(t *testing.T) {
	tab := New(t)
	loadHTML(t, tab, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ok</title></head><body>
<header><h1>Title</h1></header><nav aria-label="Sections"><ul><li><a href="#a">A</a></li></ul></nav>
<main><h2 id="a">A</h2><ul><li><a href="https://example.com/">Example</a></li></ul>
<table><caption>t</caption><thead><tr><th scope="col">x</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>
<label for="q">Search</label><input id="q"><img src="data:," alt=""></main><footer><p>1 page.</p></footer></body></html>`)
	if v := tab.Accessibility(); len(v) != 0 {
		t.Fatalf("violations on a clean page:\n%s", strings.Join(v, "\n"))
	}
}

func TestAccessibilityFindsPlantedViolations(t *testing.T) {
	tab := New(t)
	loadHTML(t, tab, `<!doctype html><html><head><meta charset="utf-8"><title>bad</title></head><body>
<main><h1>Title</h1><h3>skipped a level</h3><a href="/x"></a><img src="data:,">
<input id="q"><p style="color:#bbb;background:#fff">faint</p><span id="d">1</span><span id="d">2</span>
<ul><p>not an item</p></ul></main><p>outside</p></body></html>`)
	got := strings.Join(tab.Accessibility(), "\n")
	for _, rule := range []string{"html-has-lang", "heading-order", "link-name", "image-alt", "label", "color-contrast", "duplicate-id", "list", "region"} {
		if !strings.Contains(got, rule+":") {
			t.Errorf("planted %s violation not found; got:\n%s", rule, got)
		}
	}
}
