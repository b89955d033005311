package view

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// memFiles collects the files Pages writes.
type memFiles map[string]*bytes.Buffer

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

func (m memFiles) create(name string) (io.WriteCloser, error) {
	if _, ok := m[name]; ok {
		return nil, fmt.Errorf("%s written twice", name)
	}
	b := &bytes.Buffer{}
	m[name] = b
	return nopCloser{b}, nil
}

func visitorSite() []sitemap.URL {
	var urls []sitemap.URL
	for _, l := range []string{
		"https://www.example.com/blog/2026/new-post.html",
		"https://www.example.com/",
		"https://www.example.com/blog/",
		"https://www.example.com/about-us",
		"https://www.example.com/blog/2025/old_post",
		"https://www.example.com/shop/caf%C3%A9/mug?color=red",
		"https://www.example.com/blog/a-first-post",
		"ftp://www.example.com/file",
	} {
		urls = append(urls, sitemap.URL{Loc: l})
	}
	return urls
}

func TestPagesGroupsBySection(t *testing.T) {
	files := memFiles{}
	titles := func(_ context.Context, loc string) (string, error) {
		if loc == "https://www.example.com/about-us" {
			return "  About Example Inc. ", nil
		}
		return "", nil
	}
	sum, err := Pages(context.Background(), list(visitorSite()...), files.create, PageOptions{Titles: titles, Memory: 3})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Pages != 1 || sum.Links != 7 || sum.Skipped != 1 {
		t.Fatalf("summary %+v", sum)
	}
	text, hrefs := parse(t, files["index.html"].Bytes())
	wantOrder := []string{
		"https://www.example.com/", "https://www.example.com/about-us",
		"https://www.example.com/blog/", "https://www.example.com/blog/a-first-post",
		"https://www.example.com/blog/2025/old_post", "https://www.example.com/blog/2026/new-post.html",
		"https://www.example.com/shop/caf%C3%A9/mug?color=red",
	}
	var pageLinks []string
	for _, h := range hrefs {
		if strings.HasPrefix(h, "https://") {
			pageLinks = append(pageLinks, h)
		}
	}
	if strings.Join(pageLinks, "\n") != strings.Join(wantOrder, "\n") {
		t.Errorf("links in order:\n%s\nwant:\n%s", strings.Join(pageLinks, "\n"), strings.Join(wantOrder, "\n"))
	}
	for _, want := range []string{"Home", "About Example Inc.", "Blog", "A first post", "Blog › 2025", "Old post", "Blog › 2026", "New post", "Shop › Café", "Mug (color=red)"} {
		if !strings.Contains(text, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	out := files["index.html"].String()
	if !strings.Contains(out, `<h2 id="s2">Blog › 2025</h2>`) || !strings.Contains(out, `<nav class="sections" aria-label="Sections on this page">`) {
		t.Errorf("headings or nav missing:\n%s", out)
	}
}

func TestPagesArePaged(t *testing.T) {
	var urls []sitemap.URL
	for i := 0; i < 25; i++ {
		urls = append(urls, sitemap.URL{Loc: fmt.Sprintf("https://ex.com/docs/p%02d", i)})
	}
	files := memFiles{}
	sum, err := Pages(context.Background(), list(urls...), files.create, PageOptions{PerPage: 10, Memory: 7, TempDir: t.TempDir(), Title: "Docs & more"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Pages != 3 || len(files) != 3 {
		t.Fatalf("%d pages, files %v", sum.Pages, files)
	}
	p2 := files["page-2.html"].String()
	for _, want := range []string{`<title>Docs &amp; more (page 2)</title>`, `href="index.html">Previous page`, `href="page-3.html">Next page`, "Docs (continued)", "Pages 11 to 20 of 25 (site map page 2 of 3).", ">P10<", ">P19<"} {
		if !strings.Contains(p2, want) {
			t.Errorf("page 2 lacks %q", want)
		}
	}
	if p3 := files["page-3.html"].String(); strings.Contains(p3, "Next page") || !strings.Contains(p3, "Pages 21 to 25 of 25 (site map page 3 of 3)") {
		t.Errorf("the last page:\n%s", p3)
	}
	if left, _ := os.ReadDir(t.TempDir()); len(left) != 0 {
		t.Errorf("spill files left")
	}
}

func TestPagesTemplateAndErrors(t *testing.T) {
	tmpl, err := ParseTemplate("t.html", `{{range .Sections}}[{{.Heading}}{{range .Links}} {{.Text}}={{.URL}}{{end}}]{{end}}`)
	if err != nil {
		t.Fatal(err)
	}
	files := memFiles{}
	if _, err := Pages(context.Background(), list(sitemap.URL{Loc: "https://ex.com/a/<b>"}), files.create, PageOptions{Template: tmpl}); err != nil {
		t.Fatal(err)
	}
	if got := files["index.html"].String(); got != "[A &lt;b&gt;=https://ex.com/a/&lt;b&gt;]" {
		t.Errorf("template output %q", got)
	}
	if _, err := ParseTemplate("empty", " \n"); err != ErrNoTemplate {
		t.Errorf("empty template: %v", err)
	}
	bad, _ := ParseTemplate("bad", `{{.Nope}}`)
	if _, err := Pages(context.Background(), list(sitemap.URL{Loc: "https://ex.com/"}), memFiles{}.create, PageOptions{Template: bad}); err == nil || !strings.Contains(err.Error(), "index.html") {
		t.Errorf("a template error: %v", err)
	}
	files = memFiles{}
	if sum, err := Pages(context.Background(), list(), files.create, PageOptions{}); err != nil || sum.Pages != 1 || !strings.Contains(files["index.html"].String(), "lists no pages") {
		t.Errorf("no URL: %+v %v", sum, err)
	}
}

// runFiles counts the sort's run files in dir: those seen there, and on
// Linux those the process holds open though they were unlinked at once
// (their /proc/self/fd links name them).
func runFiles(dir string) int {
	m, _ := filepath.Glob(filepath.Join(dir, "*.run"))
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		l, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && strings.HasPrefix(l, dir+string(filepath.Separator)) && strings.Contains(l, ".run") {
			m = append(m, l)
		}
	}
	return len(m)
}

func TestPagesSpillDir(t *testing.T) {
	dir := t.TempDir()
	var urls []sitemap.URL
	for i := 0; i < 50; i++ {
		urls = append(urls, sitemap.URL{Loc: fmt.Sprintf("https://ex.com/s%d/p", 49-i)})
	}
	spilled := false
	files := memFiles{}
	entries := func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for i := range urls {
			if err := yield(&urls[i]); err != nil {
				return err
			}
			if runFiles(dir) > 0 {
				spilled = true
			}
		}
		return nil
	}
	if _, err := Pages(context.Background(), entries, files.create, PageOptions{Memory: 10, TempDir: dir}); err != nil {
		t.Fatal(err)
	}
	if !spilled && runtime.GOOS == "linux" {
		t.Error("50 URLs with Memory 10 did not spill")
	}
	if n := runFiles(dir); n > 0 {
		t.Errorf("%d run files left open or in the directory", n)
	}
	out := files["index.html"].String()
	if strings.Index(out, ">S0<") > strings.Index(out, ">S1<") || strings.Index(out, ">S1<") > strings.Index(out, ">S10<") {
		t.Error("sections out of order after the merge")
	}
}

func TestPageNav(t *testing.T) {
	for _, c := range []struct {
		n, pages int
		want     string
	}{
		{1, 1, ""},
		{1, 3, "[1] 2 3"},
		{1, 20, "[1] 2 3 … 19 20"},
		{10, 20, "1 2 … 8 9 [10] 11 12 … 19 20"},
		{5, 20, "1 2 3 4 [5] 6 7 … 19 20"},
		{20, 20, "1 2 … 18 19 [20]"},
	} {
		var got []string
		for _, r := range pageNav(c.n, c.pages) {
			switch {
			case r.Number == 0:
				got = append(got, "…")
			case r.Current:
				got = append(got, "["+strconv.Itoa(r.Number)+"]")
			default:
				got = append(got, strconv.Itoa(r.Number))
			}
			if r.Number != 0 && r.Name != PageName(r.Number) {
				t.Errorf("page %d named %q", r.Number, r.Name)
			}
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("page %d of %d: %q, want %q", c.n, c.pages, g, c.want)
		}
	}
}

func TestPagesInNaturalOrder(t *testing.T) {
	files := memFiles{}
	var urls []sitemap.URL
	for _, p := range []string{"/p/page-10", "/p/page-9", "/p/page-100", "/p/page-09", "/v10/a", "/v9/a", "/p/x"} {
		urls = append(urls, sitemap.URL{Loc: "https://ex.com" + p})
	}
	if _, err := Pages(context.Background(), list(urls...), files.create, PageOptions{Memory: 3, TempDir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	page := files["index.html"].String()
	var got []string
	for _, l := range strings.Split(page, `<a href="https://ex.com`)[1:] {
		got = append(got, l[:strings.IndexByte(l, '"')])
	}
	if g := strings.Join(got, " "); g != "/p/page-09 /p/page-9 /p/page-10 /p/page-100 /p/x /v9/a /v10/a" {
		t.Errorf("links in the order %s", g)
	}
}

func TestNatKeyOrdersAsPeopleCount(t *testing.T) {
	in := []string{"a10", "a9", "a", "a-1", "a09", "b", "a9x", "a9-", "1000", "999", strings.Repeat("9", 1001), "x" + strings.Repeat("1", 1000)}
	got := append([]string(nil), in...)
	sort.Slice(got, func(i, j int) bool {
		ki, kj := natKey(got[i]), natKey(got[j])
		if ki != kj {
			return ki < kj
		}
		return got[i] < got[j]
	})
	if g := strings.Join(got, " "); !strings.HasPrefix(g, "999 1000 ") || !strings.Contains(g, " a a-1 a09 a9 a9- a9x a10 b ") {
		t.Errorf("order: %.200s", g)
	}
}

func TestPagesGroupThousands(t *testing.T) {
	files := memFiles{}
	var urls []sitemap.URL
	for i := 0; i < 1234; i++ {
		urls = append(urls, sitemap.URL{Loc: "https://ex.com/p/" + strconv.Itoa(i)})
	}
	if _, err := Pages(context.Background(), list(urls...), files.create, PageOptions{PerPage: 1200}); err != nil {
		t.Fatal(err)
	}
	if p := files["index.html"].String(); !strings.Contains(p, "Pages 1 to 1,200 of 1,234 (site map page 1 of 2).") {
		t.Errorf("lead of page 1: %s", p[strings.Index(p, `<p class="lead">`):][:80])
	}
	tmpl, err := ParseTemplate("t", `{{group 1234567}} {{group -1000}} {{group 999}}`)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := tmpl.Execute(&b, nil); err != nil || b.String() != "1,234,567 -1,000 999" {
		t.Errorf("group in a template: %q, %v", b.String(), err)
	}
}
