package graph

import (
	"bytes"
	"context"
	"flag"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/xmllint"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/* from the output")

// randomTree is a tree of n nodes with a random shape.
func randomTree(r *rand.Rand, n int) *Node {
	nodes := []*Node{{Name: "root"}}
	for i := 1; i < n; i++ {
		// Mostly attach to recent nodes (deep trees), sometimes anywhere.
		j := len(nodes) - 1 - r.Intn(min(len(nodes), 4))
		if r.Intn(3) == 0 {
			j = r.Intn(len(nodes))
		}
		p := nodes[j]
		c := &Node{Name: strconv.Itoa(i), Parent: p}
		p.Children = append(p.Children, c)
		nodes = append(nodes, c)
	}
	return nodes[0]
}

func TestLayoutIsTidy(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 300; trial++ {
		all, rows := layout(randomTree(r, 1+r.Intn(200)))
		byDepth := map[int][]*lnode{}
		minX := math.Inf(1)
		for _, v := range all {
			byDepth[v.depth] = append(byDepth[v.depth], v) // pre-order: left to right
			minX = min(minX, v.x)
			if v.x > rows-1+1e-9 {
				t.Fatalf("trial %d: row %.2f past the %v rows returned", trial, v.x, rows)
			}
			if k := len(v.children); k > 0 {
				mid := (v.children[0].x + v.children[k-1].x) / 2
				if math.Abs(v.x-mid) > 1e-6 {
					t.Fatalf("trial %d: a parent at %.3f is not centred over its children (%.3f)", trial, v.x, mid)
				}
			}
		}
		if math.Abs(minX) > 1e-9 {
			t.Fatalf("trial %d: the first row is %.3f, want 0", trial, minX)
		}
		for d, level := range byDepth {
			for i := 1; i < len(level); i++ {
				if level[i].x-level[i-1].x < 1-1e-6 {
					t.Fatalf("trial %d: depth %d: nodes %d and %d overlap (rows %.3f and %.3f)", trial, d, i-1, i, level[i-1].x, level[i].x)
				}
			}
		}
	}
}

func TestLayoutIsCompact(t *testing.T) {
	// A root with a fan of five and a leaf: the leaf shares a row with a
	// node of the fan (another depth), so five rows hold it all.
	root := &Node{Name: "r"}
	a := &Node{Name: "a", Parent: root}
	b := &Node{Name: "b", Parent: root}
	root.Children = []*Node{a, b}
	for i := 0; i < 5; i++ {
		a.Children = append(a.Children, &Node{Name: "x", Parent: a})
	}
	_, rows := layout(root)
	if rows != 5 {
		t.Errorf("rows %v, want 5 (five leaves of a; b beside them)", rows)
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (go test ./graph -run %s -update writes it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s", name, got)
	}
}

func siteTree(t *testing.T) *Tree {
	tr, err := Build(context.Background(), entries(site(t)...), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestDOTGolden(t *testing.T) {
	var b bytes.Buffer
	if err := siteTree(t).DOT(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "site.dot", b.Bytes())
	b.Reset()
	if err := siteTree(t).DOT(context.Background(), &b, DrawOptions{MaxNodes: 3, Title: `a "quoted" \ title`}); err != nil {
		t.Fatal(err)
	}
	golden(t, "site-limited.dot", b.Bytes())
}

func TestJSONGolden(t *testing.T) {
	var b bytes.Buffer
	if err := siteTree(t).JSON(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "site.json", b.Bytes())
	b.Reset()
	if err := siteTree(t).JSON(context.Background(), &b, DrawOptions{MaxNodes: 3}); err != nil {
		t.Fatal(err)
	}
	golden(t, "site-limited.json", b.Bytes())
}

func TestSVGIsWellFormed(t *testing.T) {
	xmllint.Require(t)
	tr := New(Options{})
	for _, u := range site(t) {
		tr.Add(&u)
	}
	// Names XML must escape or cannot hold at all.
	tr.Add(&sitemap.URL{Loc: "https://www.example.com/a&b%3Cc%3E/%22q%22/x"})
	tr.Add(&sitemap.URL{Loc: "https://www.example.com/ctl%01x/%FF/y"})
	for i := 0; i < 3000; i++ {
		tr.Add(&sitemap.URL{Loc: "https://www.example.com/many/s" + strconv.Itoa(i) + "/p"})
	}
	tr.Seal()
	var b bytes.Buffer
	if err := tr.SVG(context.Background(), &b, DrawOptions{}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "site.svg")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", p).CombinedOutput()
	if err != nil {
		t.Fatalf("xmllint --noout: %v\n%s", err, out)
	}
	svg := b.String()
	for _, want := range []string{`role="img"`, "<title id=\"title\">Sections of https://www.example.com</title>", "+1,014 more", "a&amp;b&lt;c&gt;/", `class="more"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if n := strings.Count(svg, "<circle"); n > DefaultMaxNodes || n < DefaultMaxNodes-5 {
		t.Errorf("%d nodes drawn, want the default cap %d (a few slots kept for \"+N more\" nodes may go unused)", n, DefaultMaxNodes)
	}
}
