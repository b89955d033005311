package rules

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

//go:generate go test -run TestRulesMarkdown -update

var update = flag.Bool("update", false, "rewrite docs/RULES.md from the book")

// TestRulesMarkdown fails when docs/RULES.md is not what the book
// generates; `go generate ./rules` (or `go test ./rules -run
// TestRulesMarkdown -update`) rewrites it.
func TestRulesMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, All()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(repoRoot(t), "docs", "RULES.md")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go generate ./rules` to write it)", err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Fatalf("docs/RULES.md is stale: run `go generate ./rules` (or `go test ./rules -run TestRulesMarkdown -update`) and commit it")
	}
}

func TestMarkdownShape(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, All()); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, r := range All() {
		if !strings.Contains(md, "\n| "+string(r.ID)+" | "+r.Severity.String()+" | ") {
			t.Errorf("%s has no row", r.ID)
		}
	}
	for _, f := range Families() {
		if !strings.Contains(md, "\n## "+f.Prefix+": ") {
			t.Errorf("family %s has no heading", f.Prefix)
		}
	}
	// Every row has its table's cells (six, three in Search Console's
	// table): no '|' leaked from a text.
	pipes, sc := 7, 0
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "## Search Console") {
			pipes = 4
		}
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != pipes {
			t.Errorf("row with a stray '|': %s", line)
		}
		if pipes == 4 && strings.HasPrefix(line, "| ") {
			sc++
		}
	}
	if sc != len(SearchConsole())+2 { // its header row and rule
		t.Errorf("%d rows in Search Console's table, want %d", sc-2, len(SearchConsole()))
	}
	if got := mdText("a <loc> | `<b>` *x*"); got != "a &lt;loc> \\| `<b>` \\*x\\*" {
		t.Errorf("mdText: %q", got)
	}
}
