// Command rewrite replaces the rule-ID string literals of Go code by the
// constants of package rules: "L-07" becomes rules.L07 wherever the
// literal is a rules.ID (a Diagnostic's Rule, an argument of type
// rules.ID, a case of a switch on one), adding the import where a file
// lacks it. Literals that are plain strings (an argument to fmt, a map
// with string keys) are left alone and listed with -v, so that someone
// decides whether the place should take a rules.ID.
//
// Run it from the module root after merging code that reports rules:
//
//	go run ./rules/internal/rewrite            # every package but rules/
//	go run ./rules/internal/rewrite -n ./fetch/...  # only say what would change
//
// It type-checks each package (dependencies from `go list -export`), so
// the code must build. It is idempotent: a second run changes nothing.
// Test files and package rules itself (the book) are left alone.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/rules/internal/idgen"
)

func main() {
	dry := flag.Bool("n", false, "say what would change without writing")
	verbose := flag.Bool("v", false, "also list rule IDs left as plain strings")
	flag.Parse()
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	st, err := run(patterns, *dry, *verbose, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rewrite:", err)
		os.Exit(1)
	}
	fmt.Printf("%d literals replaced in %d files; %d rule-ID literals left as plain strings\n", st.replaced, st.files, st.plain)
}

type pkgInfo struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	// TestGoFiles are read only for their top-level names: a test helper
	// named rules would clash with the import the rewrite adds.
	TestGoFiles []string
	Export      string
	Standard    bool
	DepOnly     bool
	Module      *struct{ Path string }
	Error       *struct{ Err string }
}

type stats struct{ replaced, files, plain int }

// run lists the packages, type-checks each one of the module outside
// package rules and rewrites its files.
func run(patterns []string, dry, verbose bool, out io.Writer) (stats, error) {
	var st stats
	args := append([]string{"list", "-export", "-deps", "-json"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	if err != nil {
		return st, fmt.Errorf("go list: %v (the code must build)", err)
	}
	var pkgs []pkgInfo
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var p pkgInfo
		if err := dec.Decode(&p); err != nil {
			return st, err
		}
		if p.Error != nil {
			return st, fmt.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		exports[p.ImportPath] = p.Export
		pkgs = append(pkgs, p)
	}
	var rulesPath string
	for _, p := range pkgs {
		if p.Module != nil && p.ImportPath == p.Module.Path+"/rules" {
			rulesPath = p.ImportPath
		}
	}
	if rulesPath == "" {
		return st, fmt.Errorf("package rules is not among the packages listed; nothing can use its constants")
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	for _, p := range pkgs {
		if p.DepOnly || p.Standard || p.Module == nil || p.ImportPath == rulesPath || strings.HasPrefix(p.ImportPath, rulesPath+"/") {
			continue
		}
		if err := rewritePackage(fset, imp, p, rulesPath, dry, verbose, out, &st); err != nil {
			return st, err
		}
	}
	return st, nil
}

func rewritePackage(fset *token.FileSet, imp types.Importer, p pkgInfo, rulesPath string, dry, verbose bool, out io.Writer, st *stats) error {
	var files []*ast.File
	srcs := map[*ast.File][]byte{}
	for _, name := range p.GoFiles {
		path := filepath.Join(p.Dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		files = append(files, f)
		srcs[f] = src
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Scopes: map[ast.Node]*types.Scope{}}
	conf := types.Config{Importer: imp}
	pkg, err := conf.Check(p.ImportPath, fset, files, info)
	if err != nil {
		return fmt.Errorf("type-checking %s: %v", p.ImportPath, err)
	}
	taken, err := testNames(fset, p)
	if err != nil {
		return err
	}
	for _, f := range files {
		res, err := rewriteFile(fset, f, srcs[f], info, pkg, rulesPath, taken)
		if err != nil {
			return err
		}
		path := fset.Position(f.Package).Filename
		if verbose {
			for _, pos := range res.plain {
				p := fset.Position(pos.pos)
				fmt.Fprintf(out, "%s:%d:%d: %s is a plain string here (a rules.ID would take rules.%s)\n", relPath(p.Filename), p.Line, p.Column, strconv.Quote(string(pos.id)), idgen.Name(pos.id))
			}
		}
		st.plain += len(res.plain)
		if res.n == 0 {
			continue
		}
		st.replaced += res.n
		st.files++
		fmt.Fprintf(out, "%s: %d replaced\n", relPath(path), res.n)
		if !dry {
			if err := os.WriteFile(path, res.src, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// relPath is path relative to the working directory when it is below it.
func relPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

type plainLit struct {
	pos token.Pos
	id  rules.ID
}

type result struct {
	src   []byte // the new source, gofmt'ed; nil when n is 0
	n     int    // literals replaced
	plain []plainLit
}

type edit struct {
	start, end int
	text       string
}

// testNames returns the top-level names the package's test files declare.
func testNames(fset *token.FileSet, p pkgInfo) (map[string]bool, error) {
	names := map[string]bool{}
	for _, name := range p.TestGoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = true
						}
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					}
				}
			}
		}
	}
	return names, nil
}

// rewriteFile replaces f's rule-ID literals of type rules.ID by
// constants; info must hold the types of f's package, taken the names
// its test files declare at the top level.
func rewriteFile(fset *token.FileSet, f *ast.File, src []byte, info *types.Info, pkg *types.Package, rulesPath string, taken map[string]bool) (result, error) {
	var res result
	tf := fset.File(f.Package)
	off := func(p token.Pos) int { return tf.Offset(p) }
	type hit struct {
		node ast.Node // the literal, or the conversion rules.ID("…") around it
		id   rules.ID
	}
	var hits []hit
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		stack = append(stack, n)
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || !rules.Known(rules.ID(s)) {
			return true
		}
		id := rules.ID(s)
		if !isRulesID(info.Types[lit].Type, rulesPath) {
			if _, imp := stack[len(stack)-2].(*ast.ImportSpec); !imp {
				res.plain = append(res.plain, plainLit{lit.Pos(), id})
			}
			return true
		}
		var node ast.Node = lit
		// rules.ID("L-07") becomes rules.L07, not rules.ID(rules.L07).
		if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && len(call.Args) == 1 && info.Types[call.Fun].IsType() {
			node = call
		}
		hits = append(hits, hit{node, id})
		return true
	})
	if len(hits) == 0 {
		return res, nil
	}
	qual, addImport := qualifier(f, pkg, rulesPath, taken, func(yield func(token.Pos) bool) {
		for _, h := range hits {
			if !yield(h.node.Pos()) {
				return
			}
		}
	})
	var edits []edit
	for _, h := range hits {
		edits = append(edits, edit{off(h.node.Pos()), off(h.node.End()), qual + "." + idgen.Name(h.id)})
	}
	if addImport {
		edits = append(edits, importEdit(f, off, src, qual, rulesPath))
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := bytes.Clone(src)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	formatted, err := format.Source(out)
	if err != nil {
		return res, fmt.Errorf("%s: the rewrite does not parse: %v", tf.Name(), err)
	}
	res.src, res.n = formatted, len(hits)
	return res, nil
}

// isRulesID reports whether t is the type rules.ID.
func isRulesID(t types.Type, rulesPath string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Pkg() != nil && o.Pkg().Path() == rulesPath && o.Name() == "ID"
}

// qualifier returns the name to write before the constants in f: the
// name f imports package rules under, "rules" when f does not import it
// yet (addImport), or "ruleid" (imported under that name) when a local
// name rules hides the package at one of the positions, or a test file
// of the package declares rules.
func qualifier(f *ast.File, pkg *types.Package, rulesPath string, taken map[string]bool, positions func(func(token.Pos) bool)) (name string, addImport bool) {
	name, addImport = "rules", true
	for _, s := range f.Imports {
		if p, _ := strconv.Unquote(s.Path.Value); p == rulesPath {
			addImport = false
			if s.Name != nil {
				name = s.Name.Name
			}
			break
		}
	}
	if addImport && taken[name] {
		return "ruleid", !importsAs(f, rulesPath, "ruleid")
	}
	for pos := range positions {
		obj := lookup(pkg, pos, name)
		if obj == nil {
			continue // not declared: the import added declares it
		}
		if pn, ok := obj.(*types.PkgName); ok && pn.Imported().Path() == rulesPath {
			continue
		}
		return "ruleid", !importsAs(f, rulesPath, "ruleid")
	}
	return name, addImport
}

func lookup(pkg *types.Package, pos token.Pos, name string) types.Object {
	sc := pkg.Scope().Innermost(pos)
	if sc == nil {
		return nil
	}
	_, obj := sc.LookupParent(name, pos)
	return obj
}

func importsAs(f *ast.File, path, name string) bool {
	for _, s := range f.Imports {
		if p, _ := strconv.Unquote(s.Path.Value); p == path && s.Name != nil && s.Name.Name == name {
			return true
		}
	}
	return false
}

// importEdit adds the import of package rules to f: after the module's
// own imports when it has some, else as a group of its own after the
// last import, else after the package clause.
func importEdit(f *ast.File, off func(token.Pos) int, src []byte, name, rulesPath string) edit {
	spec := strconv.Quote(rulesPath)
	if name != "rules" {
		spec = name + " " + spec
	}
	module := strings.TrimSuffix(rulesPath, "/rules")
	var last *ast.GenDecl
	var lastOwn ast.Spec
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		last = g
		for _, s := range g.Specs {
			if p, _ := strconv.Unquote(s.(*ast.ImportSpec).Path.Value); p == module || strings.HasPrefix(p, module+"/") {
				if g.Lparen.IsValid() {
					lastOwn = s
				}
			}
		}
	}
	switch {
	case lastOwn != nil:
		e := off(lastOwn.End())
		return edit{e, e, "\n\t" + spec}
	case last != nil && last.Lparen.IsValid():
		e := off(last.Rparen)
		return edit{e, e, "\n\t" + spec + "\n"}
	case last != nil:
		s, e := off(last.Pos()), off(last.End())
		old := strings.TrimSpace(strings.TrimPrefix(string(src[s:e]), "import"))
		return edit{s, e, "import (\n\t" + old + "\n\n\t" + spec + "\n)"}
	default:
		e := off(f.Name.End())
		return edit{e, e, "\n\nimport " + spec + "\n"}
	}
}
