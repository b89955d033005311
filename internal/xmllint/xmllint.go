// Package xmllint runs libxml2's xmllint against the sitemap XSDs, as a
// conformance cross-check in tests. Nothing outside tests should import
// it: the toolkit itself never depends on xmllint.
//
// The schemas come from testdata/xsd in the module root (the official XSDs
// with a catalog; testdata/xsd/SOURCES.md gives the origin and checksum of
// each). XML_CATALOG_FILES is set to that catalog, so validation works offline
// (--nonet; the catalog maps the public schema URLs, including the
// http://www.w3.org/2001/xml.xsd that xhtml1-strict.xsd imports, to the local
// files).
//
// When xmllint is not on PATH the test helpers skip the test, unless the
// environment variable SITEMAP_REQUIRE_XMLLINT is "1" (as `make test` sets
// it), in which case they fail it with an install hint.
package xmllint

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The schema file names of the XSD directory.
const (
	Sitemap   = "sitemap.xsd"     // core urlset
	SiteIndex = "siteindex.xsd"   // sitemapindex
	All       = "sitemap-all.xsd" // urlset with image, video, news and xhtml extensions
)

// ErrNotFound is returned by Check when xmllint is not on PATH.
var ErrNotFound = errors.New("xmllint not found on PATH; install it with `apt-get install -y libxml2-utils` (or `make deps`)")

// requireEnv is the environment variable that turns a missing xmllint from
// a skip into a failure.
const requireEnv = "SITEMAP_REQUIRE_XMLLINT"

// SchemaDir returns the directory holding the XSDs and catalog.xml:
// <module root>/testdata/xsd. The module root is found by walking up from the working directory to the
// first go.mod.
func SchemaDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root := ""
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			root = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if root == "" {
		return "", fmt.Errorf("xmllint: no go.mod above %s", wd)
	}
	dir := filepath.Join(root, "testdata", "xsd")
	if _, err := os.Stat(filepath.Join(dir, "catalog.xml")); err != nil {
		return "", fmt.Errorf("xmllint: no XSD directory with catalog.xml at %s: %w", dir, err)
	}
	return dir, nil
}

// Check validates files against schema (a file name inside SchemaDir, such
// as Sitemap, SiteIndex or All) with one xmllint run:
//
//	xmllint --noout --nonet --schema <dir>/<schema> files...
//
// Files may be gzip-compressed; xmllint reads them directly. valid reports
// whether every file validated; out is xmllint's combined output (the
// validation errors, with file names and lines). err is ErrNotFound when
// xmllint is missing, or says why xmllint could not run (exit status 1–2 for
// a file that is not well-formed is reported as valid=false, not as err).
func Check(schema string, files ...string) (valid bool, out string, err error) {
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		return false, "", ErrNotFound
	}
	dir, err := SchemaDir()
	if err != nil {
		return false, "", err
	}
	if len(files) == 0 {
		return false, "", errors.New("xmllint: no files to check")
	}
	args := append([]string{"--noout", "--nonet", "--schema", filepath.Join(dir, schema)}, files...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "XML_CATALOG_FILES="+filepath.Join(dir, "catalog.xml"))
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	runErr := cmd.Run()
	out = buf.String()
	if runErr == nil {
		return true, out, nil
	}
	var exit *exec.ExitError
	if errors.As(runErr, &exit) {
		switch exit.ExitCode() {
		case 1, 2, 3, 4:
			// 1: not well-formed (or unclassified), 2: DTD error,
			// 3 and 4: validation error; xmllint names each failing file.
			return false, out, nil
		case 5:
			return false, out, fmt.Errorf("xmllint: schema %s did not compile:\n%s", schema, out)
		}
	}
	return false, out, fmt.Errorf("xmllint: %v\n%s", runErr, out)
}

// Require skips t when xmllint is missing, or fails it with an install
// hint when SITEMAP_REQUIRE_XMLLINT=1.
func Require(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err == nil {
		return
	}
	if os.Getenv(requireEnv) == "1" {
		t.Fatalf("%v (%s=1 makes XSD conformance checks mandatory)", ErrNotFound, requireEnv)
	}
	t.Skipf("%v; skipping XSD conformance check (set %s=1 to fail instead)", ErrNotFound, requireEnv)
}

// Validate reports a test error unless file is valid against schema (a
// name inside SchemaDir: Sitemap, SiteIndex or All). It skips the test (or
// fails it, see Require) when xmllint is missing.
func Validate(t testing.TB, file string, schema string) {
	t.Helper()
	ValidateFiles(t, schema, file)
}

// ValidateFiles is Validate for several files in one xmllint run, which is
// much faster than one run per file (every run compiles the schemas).
func ValidateFiles(t testing.TB, schema string, files ...string) {
	t.Helper()
	Require(t)
	valid, out, err := Check(schema, files...)
	if err != nil {
		t.Fatal(err)
	}
	if !valid {
		t.Errorf("xmllint --schema %s rejects %s:\n%s", schema, strings.Join(files, " "), trim(out))
	}
}

// ValidateBytes writes data to a temporary file (named doc.xml, or
// doc.xml.gz when data starts with the gzip magic bytes) and validates it
// like Validate. The error message quotes the document when it is short.
func ValidateBytes(t testing.TB, data []byte, schema string) {
	t.Helper()
	Require(t)
	name := "doc.xml"
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		name = "doc.xml.gz"
	}
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	valid, out, err := Check(schema, file)
	if err != nil {
		t.Fatal(err)
	}
	if !valid {
		doc := ""
		if name == "doc.xml" && len(data) <= 4096 {
			doc = "\ndocument:\n" + string(data)
		}
		t.Errorf("xmllint --schema %s rejects the document:\n%s%s", schema, trim(out), doc)
	}
}

// trim keeps an error report readable when xmllint complains about many
// files.
func trim(s string) string {
	const max = 8 << 10
	if len(s) > max {
		return s[:max] + "\n… (output truncated)"
	}
	return s
}
