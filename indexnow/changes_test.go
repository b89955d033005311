package indexnow

import (
	"context"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
)

const changeList = `{"change":"added","loc":"https://www.example.com/new","new":{"loc":"https://www.example.com/new","lastmod":"2026-11-02"}}
{"change":"removed","loc":"https://www.example.com/gone","old":{"loc":"https://www.example.com/gone"}}

{"change":"modified","loc":"https://www.example.com/a","fields":["lastmod"],"old":{"loc":"https://www.example.com/a","lastmod":"2026-01-01"},"new":{"loc":"https://www.example.com/a","lastmod":"2026-02-01"}}
not json
{"change":"renamed","loc":"https://www.example.com/x"}
{"loc":"https://www.example.com/y"}
{"change":"added","loc":"https://www.example.com/z"}
`

func TestChanges(t *testing.T) {
	var got []string
	var diags []sitemap.Diagnostic
	err := Changes(strings.NewReader(changeList), "changes.jsonl", func(d sitemap.Diagnostic) { diags = append(diags, d) })(context.Background(),
		func(u *sitemap.URL) error {
			got = append(got, u.Loc+" "+u.LastMod.String())
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://www.example.com/new 2026-11-02", "https://www.example.com/a 2026-02-01", "https://www.example.com/z "}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	var lines []int
	for _, d := range diags {
		if d.Rule != "DIFF-02" || d.File != "changes.jsonl" {
			t.Errorf("diagnostic %v", d)
		}
		lines = append(lines, d.Line)
	}
	if !slices.Equal(lines, []int{5, 6, 7}) {
		t.Errorf("diagnostics at lines %v: %v", lines, diags)
	}
}

func TestIsChanges(t *testing.T) {
	for in, want := range map[string]bool{
		changeList:                          true,
		"\ufeff  {\"change\":\"added\"}":    true,
		`{"loc":"https://x/","change":1}`:   true,
		`{"loc":"https://www.example.com"}`: false,
		"https://www.example.com/\n":        false,
		`<urlset>`:                          false,
		"":                                  false,
	} {
		if IsChanges([]byte(in)) != want {
			t.Errorf("IsChanges(%.40q) = %v", in, !want)
		}
	}
}

func FuzzChanges(f *testing.F) {
	f.Add([]byte(changeList))
	f.Add([]byte(`{"change":"modified","loc":"a","new":{"loc":"b"}}`))
	f.Add([]byte(`{"change":"added","new":{"loc":"https://x/","lastmod":"bad"}}` + "\n\r\n{"))
	f.Fuzz(func(t *testing.T, b []byte) {
		IsChanges(b)
		err := Changes(strings.NewReader(string(b)), "f", func(d sitemap.Diagnostic) {
			if d.Rule != "DIFF-02" || d.Line < 1 {
				t.Fatalf("diagnostic %v", d)
			}
		})(context.Background(), func(u *sitemap.URL) error {
			if u.Loc == "" {
				t.Fatal("an entry without a loc")
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
