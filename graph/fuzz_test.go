package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

// FuzzTree: any set of locs builds a tree whose counts add up, and every
// drawing of it is well formed (SVG is XML, JSON and the HTML map's data
// are JSON, DOT has one statement a line).
func FuzzTree(f *testing.F) {
	f.Add("https://ex.com/a/b\nhttps://ex.com/a/c?x=1\nhttps://ex.com/\nftp://x/y")
	f.Add("https://ex.com/%FF/%3C%22%3E/&amp;/\nhttp://other.example:8080//a//b/\nhttps://ex.com/\x01/\"q\"/p")
	f.Add("https://a.example/1/2/3/4/5/6/7/8/9\nhttps://b.example\nhttps://\nhttps:///x\nHTTPS://C.EXAMPLE/Ü/ü")
	f.Fuzz(func(t *testing.T, in string) {
		var urls []sitemap.URL
		for _, l := range strings.Split(in, "\n") {
			urls = append(urls, sitemap.URL{Loc: l})
		}
		tr, err := Build(context.Background(), entries(urls...), Options{MaxSections: 30, MaxDepth: 4, MaxPages: 2, MaxKept: 20})
		if err != nil {
			t.Fatal(err)
		}
		here := 0
		Walk(tr.Root, func(n *Node) { here += n.Here })
		if tr.Root.Total.Pages != tr.URLs-tr.Skipped || here != tr.Root.Total.Pages {
			t.Fatalf("root %d pages, %d here in all, %d URLs, %d skipped", tr.Root.Total.Pages, here, tr.URLs, tr.Skipped)
		}
		drawn := 0
		Walk(tr.Limit(7), func(*Node) { drawn++ })
		if drawn > 7 {
			t.Fatalf("Limit(7) drew %d nodes", drawn)
		}
		ctx := context.Background()
		var b bytes.Buffer
		if err := tr.SVG(ctx, &b, DrawOptions{MaxNodes: 7}); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(&b)
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("SVG: %v", err)
			}
		}
		b.Reset()
		if err := tr.JSON(ctx, &b, DrawOptions{MaxNodes: 7}); err != nil || !json.Valid(b.Bytes()) {
			t.Fatalf("JSON: %v\n%s", err, b.Bytes())
		}
		b.Reset()
		if err := tr.HTML(ctx, &b, DrawOptions{MaxNodes: 7}); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		_, data, _ := strings.Cut(page, `<script type="application/json" id="data">`)
		data, _, _ = strings.Cut(data, "</script>")
		if !json.Valid([]byte(data)) {
			t.Fatalf("the map's data is not JSON (it ended its script early?): %q", data)
		}
		b.Reset()
		if err := tr.DOT(ctx, &b, DrawOptions{MaxNodes: 7}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if lines[0] != "digraph sitemap {" || lines[len(lines)-1] != "}" {
			t.Fatalf("DOT:\n%s", b.String())
		}
		for _, l := range lines[1 : len(lines)-1] {
			if !strings.HasPrefix(l, "  ") || !strings.HasSuffix(l, ";") || !dotStringsClosed(l) {
				t.Fatalf("DOT line %q", l)
			}
		}
	})
}

// dotStringsClosed reports whether every quoted string of a DOT line is
// closed (a backslash escapes the next character inside one).
func dotStringsClosed(l string) bool {
	in := false
	for i := 0; i < len(l); i++ {
		switch {
		case in && l[i] == '\\':
			i++
		case l[i] == '"':
			in = !in
		case in && l[i] < 0x20:
			return false
		}
	}
	return !in
}
