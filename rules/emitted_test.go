package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A string literal that is a whole rule ID: "L-07", "LIM-02", "FETCH-HTTP".
var wholeID = regexp.MustCompile(`^[A-Z]{1,5}-(?:[0-9]{2}|[A-Z]{3,})$`)

// A numbered rule ID inside text: a message's "(L-15)", a comment's
// "I-05".
var idInText = regexp.MustCompile(`\b[A-Z]{1,5}-[0-9]{2}\b`)

// notRules are strings of rule-ID shape that are not rule IDs.
var notRules = map[string]string{
	"BCP-47": "the IETF language-tag standard (hreflang codes)",
	"UTF-16": "a character encoding",
}

// repoRoot returns the module's root directory (the parent of rules/).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found above rules/: %v", err)
	}
	return root
}

// goSources calls fn for every non-test .go file of the module outside
// testdata, node_modules and hidden directories.
func goSources(t *testing.T, fn func(path string, f *ast.File, fset *token.FileSet)) {
	t.Helper()
	root := repoRoot(t)
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		n++
		rel, _ := filepath.Rel(root, p)
		fn(rel, f, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Fatalf("only %d Go files found under %s; the walk is broken", n, root)
	}
}

// TestEmittedIDsAreInTheBook fails when a non-test Go file of the module
// carries a rule ID the book lacks: a string literal that is an ID (what
// diagnostics and entry errors are built from), an ID cited inside a
// string (a message's "(L-15)"), or one cited in a comment.
func TestEmittedIDsAreInTheBook(t *testing.T) {
	seen := 0
	goSources(t, func(path string, f *ast.File, fset *token.FileSet) {
		check := func(pos token.Pos, id, where string) {
			if _, ok := notRules[id]; ok {
				return
			}
			seen++
			if !Known(ID(id)) {
				t.Errorf("%s: %s %q is not in the rule book (add it to package rules, or to notRules if it is no rule ID)", fset.Position(pos), where, id)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			bl, ok := n.(*ast.BasicLit)
			if !ok || bl.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(bl.Value)
			if err != nil {
				return true
			}
			if wholeID.MatchString(s) {
				check(bl.Pos(), s, "string literal")
				return true
			}
			for _, id := range idInText.FindAllString(s, -1) {
				check(bl.Pos(), id, "rule cited in a string")
			}
			return true
		})
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				for _, id := range idInText.FindAllString(c.Text, -1) {
					check(c.Pos(), id, "rule cited in a comment")
				}
			}
		}
	})
	if seen < 100 {
		t.Fatalf("only %d rule IDs found in the code; the scan is broken", seen)
	}
}

// TestDiagnosticRulesAreInTheBook checks every sitemap.Diagnostic (and
// source or robots record) literal whose Rule field is a string literal
// or a constant: its value must be in the book, whatever its shape.
func TestDiagnosticRulesAreInTheBook(t *testing.T) {
	consts := map[string]string{} // name → value, module-wide (names are unique enough)
	var lits []struct {
		pos  string
		expr ast.Expr
	}
	goSources(t, func(path string, f *ast.File, fset *token.FileSet) {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.ValueSpec:
				for i, name := range x.Names {
					if i < len(x.Values) {
						if bl, ok := x.Values[i].(*ast.BasicLit); ok && bl.Kind == token.STRING {
							if s, err := strconv.Unquote(bl.Value); err == nil {
								consts[name.Name] = s
							}
						}
					}
				}
			case *ast.CompositeLit:
				for _, e := range x.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Rule" {
						lits = append(lits, struct {
							pos  string
							expr ast.Expr
						}{fset.Position(kv.Pos()).String(), kv.Value})
					}
				}
			}
			return true
		})
	})
	checked := 0
	for _, l := range lits {
		var v string
		switch e := l.expr.(type) {
		case *ast.BasicLit:
			v, _ = strconv.Unquote(e.Value)
		case *ast.Ident:
			v = consts[e.Name]
		case *ast.SelectorExpr:
			v = consts[e.Sel.Name]
		}
		if v == "" {
			continue // a variable: its value comes from a literal checked above
		}
		checked++
		if !Known(ID(v)) {
			t.Errorf("%s: Rule %q is not in the rule book", l.pos, v)
		}
	}
	if checked < 20 {
		t.Fatalf("only %d Rule: fields resolved; the scan is broken", checked)
	}
}
