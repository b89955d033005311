package validate

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/xmllint"
)

// xsdDifferences are the files where the Go validator's verdict
// deliberately differs from the XSD's, with the reason. The test
// fails when a listed file stops differing, so the table stays true.
var xsdDifferences = map[string]string{
	"samples/novideoloc.xml":                "V-01: Google needs content_loc or player_loc; the XSD cannot say so (a check the XSD cannot express)",
	"samples/ns084.xml":                     "LG-02: the legacy 0.84 namespace is read as 0.9 with a warning; the 0.9 XSD rejects it",
	"samples/unknownns.xml":                 "EX-03: unknown extension namespaces are allowed by the protocol (info); the XSD's strict wildcard rejects them",
	"corpus/extension/pagemaps-sitemap.xml": "EX-03: Google's PageMap extension is recognised and skipped; sitemap-all.xsd has no PageMap schema",
	"corpus/extension/sitemap-mobile.xml":   "LG-04: the obsolete mobile extension is recognised and ignored (info); sitemap-all.xsd does not import sitemap-mobile.xsd",
	"validate/hl.xml":                       "H-04/H-05/H-06/H-08: hreflang codes, absolute hrefs and reciprocity are Google's rules; the XSD cannot see them (H-07)",
	"validate/latin1.xml":                   "X-01: sitemaps must be UTF-8; XML (and the XSD) accept any declared encoding",
}

// TestAgreesWithXmllint runs xmllint and the Go validator over every XML
// sample and corpus file: the verdicts (valid = no error) must match,
// except where xsdDifferences records a deliberate difference.
func TestAgreesWithXmllint(t *testing.T) {
	xmllint.Require(t)
	type file struct{ key, path string }
	var files []file
	for _, src := range []struct{ prefix, dir string }{{"samples", samplesDir(t)}, {"corpus", corpusDir(t)}, {"validate", handmadeDir(t)}} {
		filepath.WalkDir(src.dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(src.dir, p)
				files = append(files, file{src.prefix + "/" + filepath.ToSlash(rel), p})
			}
			return nil
		})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].key < files[j].key })
	checked := map[string]bool{}
	for _, f := range files {
		head := xmlHead(t, f.path)
		var schema string
		switch {
		case bytes.Contains(head, []byte("<urlset")) || bytes.Contains(head, []byte(":urlset")):
			schema = xmllint.All
		case bytes.Contains(head, []byte("<sitemapindex")):
			schema = xmllint.SiteIndex
		default:
			continue // text, feeds, README: the XSDs do not apply
		}
		t.Run(f.key, func(t *testing.T) {
			checked[f.key] = true
			xsdValid, out, err := xmllint.Check(schema, f.path)
			if err != nil {
				t.Fatal(err)
			}
			sum, ds := validateFile(t, f.path, Options{})
			goValid := sum.Valid(false)
			reason, deliberate := xsdDifferences[f.key]
			switch {
			case goValid != xsdValid && !deliberate:
				var errs []string
				for _, d := range ds {
					if d.Severity == sitemap.SeverityError {
						errs = append(errs, d.String())
					}
				}
				t.Errorf("xmllint --schema %s says valid=%v, the Go validator valid=%v\nxmllint: %s\nGo errors: %s", schema, xsdValid, goValid, out, strings.Join(errs, "\n"))
			case goValid == xsdValid && deliberate:
				t.Errorf("listed as a deliberate difference (%s) but both say valid=%v; update xsdDifferences", reason, goValid)
			case deliberate:
				t.Logf("deliberate difference: XSD valid=%v, Go valid=%v: %s", xsdValid, goValid, reason)
			}
		})
	}
	for k := range xsdDifferences {
		if !checked[k] {
			t.Errorf("xsdDifferences lists %s, which was not checked", k)
		}
	}
}

// xmlHead returns the first bytes of a (possibly gzipped) file.
func xmlHead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return nil
		}
		b, _ = io.ReadAll(io.LimitReader(zr, 4096))
	}
	if len(b) > 4096 {
		b = b[:4096]
	}
	return b
}
