package sitemap_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/sitemapkit/sitemap"

// moduleImports returns, for every package directory of the module (by
// its path relative to the root, "." for the root), the packages of the
// module its non-test files import.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		if _, ok := out[dir]; !ok {
			out[dir] = nil
		}
		for _, is := range f.Imports {
			ip, _ := strconv.Unquote(is.Path.Value)
			if ip == module || strings.HasPrefix(ip, module+"/") {
				rel := strings.TrimPrefix(strings.TrimPrefix(ip, module), "/")
				if rel == "" {
					rel = "."
				}
				if !slices.Contains(out[dir], rel) {
					out[dir] = append(out[dir], rel)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The import rules of docs/ARCHITECTURE.md ("What may import what"):
// dependencies point down to the model, the root package imports only
// internal helpers, urlnorm and the rule book, the rule book only
// internal/ctrl, the leaves import nothing of the module, and only the
// command imports everything.
func TestImportRules(t *testing.T) {
	imports := moduleImports(t)
	if len(imports) < 10 {
		t.Fatalf("found only %d packages: %v", len(imports), imports)
	}
	leaves := []string{"internal/ctrl", "store", "xsl", "urlnorm", "internal/xmlscan", "internal/seen", "internal/extsort", "internal/ctxio", "internal/urlfilter", "internal/progress", "internal/prefault", "internal/testproc", "internal/spatest", "internal/tmpdir", "internal/version"}
	// The test harnesses: only tests (and each other) import them.
	testOnly := []string{"internal/pgtest", "internal/mariatest", "internal/s3test", "internal/testproc", "internal/xmllint", "internal/browsertest"}
	for dir, deps := range imports {
		for _, dep := range deps {
			switch {
			case dep == "cmd/sitemap" || strings.HasPrefix(dep, "bench/"):
				t.Errorf("%s imports %s: nothing imports the command or the benchmarks", dir, dep)
			case dir == "." && !strings.HasPrefix(dep, "internal/") && dep != "urlnorm" && dep != "rules":
				t.Errorf("the root package imports %s: the model imports only internal helpers, urlnorm and rules", dep)
			case dir == "robots" && dep != "rules" && dep != "internal/ctrl" && dep != "store" && dep != "urlnorm" && dep != "internal/check":
				t.Errorf("robots imports %s: only the rule book (its warnings are rules.Problems), store, urlnorm and internal/check", dep)
			case dir == "rules" && dep != "internal/ctrl":
				t.Errorf("rules imports %s: the rule book imports only internal/ctrl", dep)
			case slices.Contains(leaves, dir):
				t.Errorf("%s imports %s: it is a leaf and imports nothing of the module", dir, dep)
			case dir == "internal/check" && dep != "urlnorm" && dep != "rules" && dep != "internal/ctrl":
				t.Errorf("internal/check imports %s: only urlnorm, rules and internal/ctrl", dep)
			case dep == "generate" && dir != "cmd/sitemap":
				t.Errorf("%s imports generate: only the command does", dir)
			case slices.Contains(testOnly, dep) && !slices.Contains(testOnly, dir):
				t.Errorf("%s imports %s: a test harness, for tests only", dir, dep)
			case dep == "audit" && dir != "cmd/sitemap":
				t.Errorf("%s imports audit: only the command does", dir)
			case dir == "preset" && dep != "serve":
				t.Errorf("preset imports %s: a preset is a serve.Query, and imports only serve", dep)
			case dep == "preset" && dir != "cmd/sitemap":
				t.Errorf("%s imports preset: only the command (and programs) do", dir)
			case dep == "internal/prefault" && dir != "cmd/sitemap":
				t.Errorf("%s imports internal/prefault: only the command decides how its process maps memory", dir)
			}
		}
	}
	for _, leaf := range leaves {
		if _, ok := imports[leaf]; !ok {
			t.Errorf("leaf package %s not found: update this test and docs/ARCHITECTURE.md", leaf)
		}
	}
}
