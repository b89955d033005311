package source

import (
	"strings"
	"testing"
)

// TestJSONLForeignFields: records in another tool's shape (sitemap.js's
// url, img, links) get a hint naming the field to use, once per field;
// a record with "url" and no "loc" is an error that says so, under the
// missing loc's rule, so generate's skipped-by-rule table names it. Before, the
// fields were silently ignored and the entry failed for an empty loc.
func TestJSONLForeignFields(t *testing.T) {
	in := `{"url":"https://a.example/"}` + "\n" +
		`{"loc":"https://a.example/b","img":[{"url":"https://a.example/i.jpg"}],"links":[{"lang":"de","url":"https://a.example/de/b"}]}` + "\n" +
		`{"loc":"https://a.example/c","img":[]}` + "\n" +
		`{"loc":"https://a.example/d","title":"url"}` + "\n"
	var warns []string
	got, _, err := drain(t, NewJSONL(strings.NewReader(in), Options{Name: "s.jsonl", Warn: func(e *Error) { warns = append(warns, e.Error()) }}))
	if err != nil {
		t.Fatal(err)
	}
	check(t, got, []result{
		{line: 1, col: 1, err: `its "url" field is not one of the entry record: name it "loc" (X-04)`},
		{loc: "https://a.example/b", line: 2}, {loc: "https://a.example/c", line: 3}, {loc: "https://a.example/d", line: 4},
	})
	want := []string{
		`s.jsonl:2:1: field "img" is not one of the entry record and is ignored (here and on later lines); write it as "images": [{"loc": …}] (SRC-04)`,
		`s.jsonl:2:1: field "links" is not one of the entry record and is ignored (here and on later lines); write it as "alternates": [{"hreflang": …, "href": …}] (SRC-04)`,
	}
	if strings.Join(warns, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warns, "\n"), strings.Join(want, "\n"))
	}
}
