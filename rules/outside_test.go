package rules

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outsideRefs are the ways a file could point outside the repository: to
// the internal design notes the project was started from, or to the folder
// beside the repository they live in. The repository has its own docs
// (docs/ARCHITECTURE.md, docs/CONVENTIONS.md, docs/RULES.md) and its own
// rule book (package rules, `sitemap explain ID`).
var outsideRefs = []string{
	"SITEMAP-" + "SPEC",
	"../" + "shared",
	"/work/" + "shared",
	"shared/" + "spec",
	"shared/" + "corpus",
}

// A design note named bare, not as the repository's own docs/ file.
var bareDoc = regexp.MustCompile(`(^|[^/\w])(ARCHITECTURE|CONVENTIONS)\.md`)

// A section number ("§10.3") points into a document; in this repository
// only into a public standard named on the same line or one of the two
// before (RFC 9309 §2.3.1.4, XML 1.0 §2.2). The design notes' sections are cited
// by rule ID instead.
var section = regexp.MustCompile(`§\s*[0-9]`)
var standard = regexp.MustCompile(`RFC|XML 1\.[01]|ISO|W3C|BCP`)

// TestNoReferenceOutsideTheRepository fails when a file of the repository
// (code, help, docs, scripts, testdata notes) refers to a file outside it.
// Testdata that says where a sample came from says it in words ("the
// project's shared test corpus").
func TestNoReferenceOutsideTheRepository(t *testing.T) {
	root := repoRoot(t)
	self := filepath.Join(root, "rules", "outside_test.go")
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if p == self || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 8<<20 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.IndexByte(b, 0) >= 0 {
			return nil // binary: gzip, a compiled program
		}
		n++
		rel, _ := filepath.Rel(root, p)
		inDocs := strings.HasPrefix(filepath.ToSlash(rel), "docs/")
		lines := strings.Split(string(b), "\n")
		for i, line := range lines {
			for _, ref := range outsideRefs {
				if strings.Contains(line, ref) {
					t.Errorf("%s:%d: refers outside the repository (%q): %s", rel, i+1, ref, strings.TrimSpace(line))
				}
			}
			if section.MatchString(line) && !standard.MatchString(strings.Join(lines[max(0, i-2):i+1], "\n")) {
				t.Errorf("%s:%d: cites a section of a document outside the repository (cite the rule ID, or name the standard: RFC 9309 §2.2): %s", rel, i+1, strings.TrimSpace(line))
			}
			if !inDocs && bareDoc.MatchString(line) {
				t.Errorf("%s:%d: names a design note without docs/ (write docs/ARCHITECTURE.md or docs/CONVENTIONS.md): %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d text files read; the walk is broken", n)
	}
	for _, doc := range []string{"ARCHITECTURE.md", "CONVENTIONS.md", "RULES.md"} {
		if _, err := os.Stat(filepath.Join(root, "docs", doc)); err != nil {
			t.Errorf("docs/%s: %v", doc, err)
		}
	}
}
