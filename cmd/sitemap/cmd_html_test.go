package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/state"
)

func TestHTMLVisitorPages(t *testing.T) {
	dir := graphSite(t)
	out := filepath.Join(t.TempDir(), "pages")
	code, _, errs := runCLI(t, "", "html", filepath.Join(dir, "sitemap.xml"), "-o", out, "--per-page", "2", "--title", "Our pages")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	p1, _ := os.ReadFile(filepath.Join(out, "index.html"))
	p2, _ := os.ReadFile(filepath.Join(out, "page-2.html"))
	for _, want := range []string{"<h1>Our pages</h1>", `<h2 id="s0">Home</h2>`, `<h2 id="s1">Blog</h2>`, `<a href="https://www.example.com/blog/a">A</a>`, `href="page-2.html"`} {
		if !strings.Contains(string(p1), want) {
			t.Errorf("page 1 lacks %q:\n%s", want, p1)
		}
	}
	for _, want := range []string{"Blog (continued)", "Blog › 2026", `href="index.html"`, `href="page-3.html"`} {
		if !strings.Contains(string(p2), want) {
			t.Errorf("page 2 lacks %q:\n%s", want, p2)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(out, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestHTMLTitlesFromCrawlState(t *testing.T) {
	dir := graphSite(t)
	db := filepath.Join(t.TempDir(), "crawl.db")
	ctx := context.Background()
	st, err := state.OpenSQLite(ctx, db, state.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	log := st.Crawl()
	if _, err := log.Begin(ctx, "https://www.example.com/", time.Now()); err != nil {
		t.Fatal(err)
	}
	err = log.Update(ctx, func(tx state.CrawlTx) error {
		for _, p := range []struct{ loc, title string }{{"https://www.example.com/blog/a", "All about A"}, {"https://www.example.com/blog/aa", "Not this one"}, {"https://www.example.com/blog/", "The blog"}} {
			if err := tx.Enqueue(ctx, state.CrawlLink{Loc: p.loc}); err != nil {
				return err
			}
			if err := tx.Record(ctx, state.CrawlResult{Loc: p.loc, Status: 200, Title: p.title, Entry: &sitemap.URL{Loc: p.loc}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	css := filepath.Join(t.TempDir(), "site.css")
	writeFile(t, css, "body { color: #123456 }")
	out := filepath.Join(t.TempDir(), "pages")
	code, _, errs := runCLI(t, "", "html", dir, "-o", out, "--state", db, "--css", css)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	p1, _ := os.ReadFile(filepath.Join(out, "index.html"))
	for _, want := range []string{">All about A</a>", `<a href="https://www.example.com/blog/b">B</a>`, "body { color: #123456 }"} {
		if !strings.Contains(string(p1), want) {
			t.Errorf("page lacks %q:\n%s", want, p1)
		}
	}
	if strings.Contains(string(p1), "Not this one") || strings.Contains(string(p1), "system-ui") {
		t.Error("a wrong title, or the default stylesheet kept")
	}
}

func TestHTMLTemplateAndDocument(t *testing.T) {
	dir := graphSite(t)
	tmpl := filepath.Join(t.TempDir(), "page.tmpl")
	writeFile(t, tmpl, `<ul>{{range .Sections}}{{range .Links}}<li>{{.Text}}</li>{{end}}{{end}}</ul>`)
	out := filepath.Join(t.TempDir(), "pages")
	if code, _, errs := runCLI(t, "", "html", dir, "-o", out, "--template", tmpl); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "index.html")); string(b) != "<ul><li>Home</li><li>A</li><li>B</li><li>C</li><li>X</li></ul>" {
		t.Errorf("templated page %q", b)
	}
	writeFile(t, tmpl, `{{.NoSuchField}}`)
	if code, _, errs := runCLI(t, "", "html", dir, "-o", filepath.Join(t.TempDir(), "p"), "--template", tmpl); code != exitUsage || !strings.Contains(errs, "NoSuchField") {
		t.Errorf("bad template: exit %d %q", code, errs)
	}
	code, doc, errs := runCLI(t, "", "html", "--document", filepath.Join(dir, "sitemap.xml"), "-o", "-")
	if code != exitOK || !strings.Contains(doc, "<title>Sitemap index</title>") || !strings.Contains(doc, `<a href="https://www.example.com/sitemap-2.xml">`) {
		t.Errorf("index view: exit %d %s\n%s", code, errs, doc)
	}
	code, doc, _ = runCLI(t, "", "html", "--document", filepath.Join(dir, "sitemap-1.xml"), "-o", "-")
	if code != exitOK || !strings.Contains(doc, "<title>Sitemap</title>") || !strings.Contains(doc, "3 URLs.") {
		t.Errorf("urlset view: exit %d\n%s", code, doc)
	}
	for _, args := range [][]string{{"html", dir}, {"html", dir, "-o", out, "--per-page", "0"}, {"html", dir, "-o", out, "--state", filepath.Join(dir, "none.db")}, {"html", "--document", dir, dir, "-o", "-"}} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
