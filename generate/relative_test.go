package generate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/source"
	"github.com/sitemapkit/sitemap/store"
)

func TestIsRelative(t *testing.T) {
	for s, want := range map[string]bool{
		"/contact": true, "//cdn.example.com/a.jpg": true, "../a": true, "./a": true, "?q=1": true,
		"contact": true, "blog/post": true, "not a url": false,
		"https://www.example.com/": false, "www.example.com/a": false, "about.html": false,
		"mailto:a@example.com": false, "localhost:8080/x": false, "": false,
	} {
		if got := isRelative(s); got != want {
			t.Errorf("isRelative(%q) = %v, want %v", s, got, want)
		}
	}
}

// Relative URLs in every entry-list format resolve against the site URL
// (else the base URL), each counted as an L-19 repair; Strict refuses them.
func TestRunResolvesRelativeURLs(t *testing.T) {
	inputs := map[string]string{
		"urls.txt":   "/contact\nhttps://www.example.com/a\n",
		"urls.csv":   "loc,lastmod\n/contact,2026-01-02\nhttps://www.example.com/a,\n",
		"urls.jsonl": `{"loc":"/contact","images":[{"loc":"/img/c.jpg"}],"alternates":[{"hreflang":"en","href":"/contact"}]}` + "\n" + `{"loc":"https://www.example.com/a"}` + "\n",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			st := store.Memory()
			var probs []Problem
			o := opts(st, &probs)
			o.Build.BaseURL = "https://www.example.com/sitemaps/"
			o.Build.SiteURL = "https://www.example.com/"
			sum, err := Run(context.Background(), Read(strings.NewReader(in), source.Options{Name: name}), o)
			if err != nil {
				t.Fatal(err)
			}
			out := string(st.Bytes("sitemap.xml"))
			if sum.URLs != 2 || !strings.Contains(out, "<loc>https://www.example.com/contact</loc>") {
				t.Fatalf("%+v\n%s", sum, out)
			}
			resolved := 0
			for _, r := range sum.Repairs {
				if r.Rule == rules.L19 && r.Action == "resolved" {
					resolved += r.Count
				}
			}
			want := 1
			if name == "urls.jsonl" {
				want = 3
				if !strings.Contains(out, `href="https://www.example.com/contact"`) || !strings.Contains(out, "https://www.example.com/img/c.jpg") {
					t.Errorf("image or alternate not resolved:\n%s", out)
				}
			}
			if resolved != want || len(probs) == 0 || probs[0].Rule != rules.L19 || probs[0].Line != 2 && name == "urls.csv" {
				t.Errorf("resolved %d, want %d; problems %v", resolved, want, probs)
			}

			o.Strict = true
			_, err = Run(context.Background(), Read(strings.NewReader(in), source.Options{Name: name}), o)
			if !errors.Is(err, ErrStrict) || !strings.Contains(err.Error(), "L-19") {
				t.Errorf("strict: %v", err)
			}
		})
	}
}

// Without a base URL (a dry run to standard output), a relative loc stays
// an invalid entry (L-01), as does a host without its scheme.
func TestRunRelativeWithoutBase(t *testing.T) {
	var probs []Problem
	o := opts(store.Memory(), &probs)
	sum, err := Run(context.Background(), text("www.example.com/a", "https://www.example.com/b"), o)
	if err != nil || sum.URLs != 1 || sum.SkippedByRule[rules.L01] != 1 {
		t.Fatalf("%v %+v %v", err, sum, probs)
	}
}
