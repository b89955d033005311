package main

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

const rulesPath = "github.com/sitemapkit/sitemap/rules"

// decl is a file of the test package that declares a struct with a
// rules.ID field, so that the other file need not import rules.
const decl = `package x

import "github.com/sitemapkit/sitemap/rules"

type P struct{ Rule rules.ID }
`

// rewriteSrc type-checks src together with decl as one package (package
// rules from its export data) and rewrites src.
func rewriteSrc(t *testing.T, src string) result {
	t.Helper()
	return rewriteTaken(t, src, nil)
}

// rewriteTaken is rewriteSrc with the top-level names of test files.
func rewriteTaken(t *testing.T, src string, taken map[string]bool) result {
	t.Helper()
	export, err := rulesExport()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	d, err := parser.ParseFile(fset, "decl.go", decl, 0)
	if err != nil {
		t.Fatal(err)
	}
	gc := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(export)
	})
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Scopes: map[ast.Node]*types.Scope{}}
	conf := types.Config{
		// Package rules from its export data; any other import is an
		// empty package (the snippets use nothing of them).
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == rulesPath {
				return gc.Import(path)
			}
			p := types.NewPackage(path, path[strings.LastIndexByte(path, '/')+1:])
			p.MarkComplete()
			return p, nil
		}),
		Error: func(err error) {
			if !strings.Contains(err.Error(), "not used") {
				t.Errorf("type-check: %v", err)
			}
		},
	}
	pkg, _ := conf.Check("example.com/x", fset, []*ast.File{f, d}, info)
	res, err := rewriteFile(fset, f, []byte(src), info, pkg, rulesPath, taken)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRewrite rewrites files of several shapes and checks the result, and
// that a second run changes nothing.
func TestRewrite(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		n, plain        int
	}{{
		name: "typed places; plain strings kept",
		src: `package x

import "github.com/sitemapkit/sitemap/rules"

func f(id rules.ID) string {
	p := P{Rule: "L-07"}
	_ = rules.ID("FETCH-HTTP")
	switch id {
	case "X-06", p.Rule:
	}
	return string(id) + "L-07"
}
`,
		want: `package x

import "github.com/sitemapkit/sitemap/rules"

func f(id rules.ID) string {
	p := P{Rule: rules.L07}
	_ = rules.FetchHTTP
	switch id {
	case rules.X06, p.Rule:
	}
	return string(id) + "L-07"
}
`,
		n: 3, plain: 1,
	}, {
		name: "import added to the module's group",
		src: `package x

import (
	"fmt"

	"github.com/sitemapkit/sitemap/rules/internal/nothing"
)

var p = P{Rule: "LIM-05"}
`,
		want: `package x

import (
	"fmt"

	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/rules/internal/nothing"
)

var p = P{Rule: rules.LIM05}
`,
		n: 1,
	}, {
		name: "import added as a group",
		src: `package x

import (
	"fmt"
)

var p = P{Rule: "READ-01"}
`,
		want: `package x

import (
	"fmt"

	"github.com/sitemapkit/sitemap/rules"
)

var p = P{Rule: rules.READ01}
`,
		n: 1,
	}, {
		name: "single import made a block",
		src: `package x

import "fmt"

var p = P{Rule: "READ-01"}
`,
		want: `package x

import (
	"fmt"

	"github.com/sitemapkit/sitemap/rules"
)

var p = P{Rule: rules.READ01}
`,
		n: 1,
	}, {
		name: "no import",
		src: `package x

var p = P{Rule: "I-05"}
`,
		want: `package x

import "github.com/sitemapkit/sitemap/rules"

var p = P{Rule: rules.I05}
`,
		n: 1,
	}, {
		name: "a local name rules hides the package",
		src: `package x

func f(rules []string) P {
	return P{Rule: "I-05"}
}
`,
		want: `package x

import ruleid "github.com/sitemapkit/sitemap/rules"

func f(rules []string) P {
	return P{Rule: ruleid.I05}
}
`,
		n: 1,
	}, {
		name: "nothing to do",
		src: `package x

var s = "L-07"
`,
		plain: 1,
	}} {
		t.Run(c.name, func(t *testing.T) {
			res := rewriteSrc(t, c.src)
			if res.n != c.n || len(res.plain) != c.plain {
				t.Errorf("replaced %d, plain %d; want %d, %d", res.n, len(res.plain), c.n, c.plain)
			}
			if c.n == 0 {
				if res.src != nil {
					t.Errorf("rewrote a file with nothing to replace:\n%s", res.src)
				}
				return
			}
			if string(res.src) != c.want {
				t.Fatalf("got\n%s\nwant\n%s", res.src, c.want)
			}
			if again := rewriteSrc(t, string(res.src)); again.n != 0 {
				t.Errorf("a second run replaced %d more", again.n)
			}
		})
	}
}

// A test file of the package declaring rules (a helper) would clash with
// the import: the rewrite imports the package as ruleid instead.
func TestRewriteTestFileDeclaresRules(t *testing.T) {
	res := rewriteTaken(t, "package x\n\nvar p = P{Rule: \"I-05\"}\n", map[string]bool{"rules": true})
	want := "package x\n\nimport ruleid \"github.com/sitemapkit/sitemap/rules\"\n\nvar p = P{Rule: ruleid.I05}\n"
	if string(res.src) != want {
		t.Errorf("got\n%s\nwant\n%s", res.src, want)
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// rulesExport returns the file of package rules' export data.
var rulesExport = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "list", "-export", "-f", "{{.Export}}", rulesPath).Output()
	return strings.TrimSpace(string(out)), err
})
