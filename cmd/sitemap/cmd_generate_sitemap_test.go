package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateFromSitemaps: generate reads sitemaps as input, told from
// entry lists by their bytes: a urlset (also one saved under a .txt name,
// or gzipped), an index with its children found beside it, an RSS feed,
// and XML on standard input; `generate old.xml new.csv` merges them.
// Before, an XML file was refused, or read line by line as URLs.
func TestGenerateFromSitemaps(t *testing.T) {
	dir := t.TempDir()
	site := "https://www.example.com/"
	old := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc><lastmod>2026-01-01</lastmod></url>
<url><loc>https://www.example.com/b?x=1&amp;y=2</loc><priority>0.7</priority></url>
</urlset>
`
	writeFile(t, filepath.Join(dir, "old.xml"), old)
	writeFile(t, filepath.Join(dir, "saved-as.txt"), old)
	writeFile(t, filepath.Join(dir, "old.xml.gz"), gzipped(old))
	writeFile(t, filepath.Join(dir, "new.csv"), "loc,lastmod\nhttps://www.example.com/c,2026-02-02\n")
	writeFile(t, filepath.Join(dir, "index.xml"), sitemapIndex(site+"c1.xml", site+"c2.xml.gz"))
	writeFile(t, filepath.Join(dir, "c1.xml"), urlset(site+"i1"))
	writeFile(t, filepath.Join(dir, "c2.xml.gz"), gzipped(urlset(site+"i2")))
	writeFile(t, filepath.Join(dir, "feed.rss"), `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://www.example.com/</link>
<item><title>x</title><link>https://www.example.com/post</link></item></channel></rss>`)

	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		want  []string
	}{
		{"merge", "", []string{"old.xml", "new.csv"}, []string{site + "a", site + "b?x=1&y=2", site + "c"}},
		{"xml named .txt", "", []string{"saved-as.txt"}, []string{site + "a", site + "b?x=1&y=2"}},
		{"gzip", "", []string{"old.xml.gz"}, []string{site + "a", site + "b?x=1&y=2"}},
		{"index and children", "", []string{"index.xml"}, []string{site + "i1", site + "i2"}},
		{"rss", "", []string{"feed.rss"}, []string{site + "post"}},
		{"stdin", old, []string{"-"}, []string{site + "a", site + "b?x=1&y=2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			args := []string{"generate", "--base-url", site, "--out", out}
			for _, a := range tc.args {
				if a != "-" {
					a = filepath.Join(dir, a)
				}
				args = append(args, a)
			}
			code, _, errOut := runCLI(t, tc.stdin, args...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			doc := genRead(t, filepath.Join(out, "sitemap.xml"))
			if got := genLocs(doc); strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("published %q, want %q\n%s", got, tc.want, errOut)
			}
			if tc.name == "merge" && (!strings.Contains(doc, "<lastmod>2026-01-01</lastmod>") || !strings.Contains(doc, "<priority>0.7</priority>")) {
				t.Errorf("the sitemap's lastmod and priority were not kept:\n%s", doc)
			}
		})
	}
}

// TestGenerateFromSitemapProblems: what the reader of a sitemap reports
// is said once, with its position; an entry it keeps that the builder
// refuses is skipped and counted; a child that cannot be read stops the
// run (exit 2): publishing the rest would drop its URLs.
func TestGenerateFromSitemapProblems(t *testing.T) {
	dir := t.TempDir()
	site := "https://www.example.com/"
	writeFile(t, filepath.Join(dir, "bad.xml"), `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/a</loc></url>
<url><loc>/relative</loc></url>
</urlset>
`)
	writeFile(t, filepath.Join(dir, "index.xml"), sitemapIndex(site+"c1.xml", site+"missing.xml"))
	writeFile(t, filepath.Join(dir, "c1.xml"), urlset(site+"i1"))

	out := filepath.Join(t.TempDir(), "public")
	code, _, errOut := runCLI(t, "", "generate", "--base-url", site, "--out", out, filepath.Join(dir, "bad.xml"))
	if code != exitProblems || strings.Count(errOut, "/relative") != 1 || !strings.Contains(errOut, filepath.Join(dir, "bad.xml")+":4:") {
		t.Errorf("bad.xml: exit %d\n%s", code, errOut)
	}
	if got := genLocs(genRead(t, filepath.Join(out, "sitemap.xml"))); len(got) != 1 || got[0] != site+"a" {
		t.Errorf("published %q", got)
	}

	out = filepath.Join(t.TempDir(), "public")
	code, _, errOut = runCLI(t, "", "generate", "--base-url", site, "--out", out, filepath.Join(dir, "index.xml"))
	if code != exitUsage || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "VAL-01: child sitemap "+site+"missing.xml not found") {
		t.Errorf("missing child: exit %d, want 2 and one message\n%s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); err == nil {
		t.Errorf("a run with a missing child published a sitemap")
	}
}
