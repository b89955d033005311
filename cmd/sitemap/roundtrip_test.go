package main

import (
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// utcOffset matches a time written with the offset +00:00, which the
// encoder writes as Z (the same instant, M-08); minuteTime a time without
// seconds, which it writes with ":00" (M-04).
var (
	utcOffset  = regexp.MustCompile(`(T[0-9:.]+)\+00:00"`)
	minuteTime = regexp.MustCompile(`(T[0-9]{2}:[0-9]{2})(Z|[+-][0-9]{2}:[0-9]{2})"`)
)

// rtRecords splits parse's JSONL output into records without their
// "source" (where they were read, which differs by design).
func rtRecords(t *testing.T, out string) []string {
	t.Helper()
	var recs []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("parse printed %q: %v", line, err)
		}
		delete(m, "source")
		b, _ := json.Marshal(m)
		r := utcOffset.ReplaceAllString(string(b), `${1}Z"`)
		recs = append(recs, minuteTime.ReplaceAllString(r, `${1}:00${2}"`))
	}
	return recs
}

// What parse prints, generate takes: `parse | generate | parse` gives the
// same entries for every sample and corpus file, except where generate
// said, at the entry's line, that it repaired or skipped it; parse never
// writes an empty field ({"hreflang":""}); and a second round changes
// nothing and reports nothing.
func TestParseGenerateParseFixtures(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../testdata/samples", "../../testdata/corpus"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".md") && !strings.Contains(d.Name(), "LICENSE") {
				files = append(files, p)
			}
			return nil
		})
	}
	if len(files) < 20 {
		t.Fatalf("only %d fixture files found", len(files))
	}
	// And the links parse used to print as {"hreflang":""} and
	// {"href":""}: a separate mobile URL (H-10) and an alternate without
	// href (H-05).
	mobile := filepath.Join(t.TempDir(), "mobile.xml")
	os.WriteFile(mobile, []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
<url><loc>https://www.example.com/page-1</loc><xhtml:link rel="alternate" media="only screen and (max-width: 640px)" href="https://m.example.com/page-1"/></url>
<url><loc>https://www.example.com/en/page-2</loc><xhtml:link rel="alternate" hreflang="de"/><xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/page-2"/></url>
</urlset>
`), 0o644)
	files = append(files, mobile)
	reported := regexp.MustCompile(`(?m)^<stdin>:([0-9]+):.*$`)
	for _, f := range files {
		t.Run(strings.TrimPrefix(f, "../../testdata/"), func(t *testing.T) {
			if f == mobile {
				_, _, stderr := runCLI(t, "", "parse", "--format", "jsonl", f)
				if !strings.Contains(stderr, "info H-10") || !strings.Contains(stderr, "error H-05") {
					t.Errorf("parse does not report the mobile link (H-10) and the link without href (H-05):\n%s", stderr)
				}
			}
			_, out1, _ := runCLI(t, "", "parse", "--format", "jsonl", f)
			if strings.Contains(out1, `":""`) {
				t.Errorf("parse writes an empty field:\n%s", out1)
			}
			recs1 := rtRecords(t, out1)
			if len(recs1) == 0 {
				return
			}
			var first struct{ Loc string }
			json.Unmarshal([]byte(recs1[0]), &first)
			u, err := url.Parse(first.Loc)
			if err != nil {
				t.Fatal(err)
			}
			base := u.Scheme + "://" + u.Host + "/"
			gen := func(in, dir string) (int, string) {
				code, _, stderr := runCLI(t, in, "generate", "--base-url", base, "--legacy", "--news-max-age", "0",
					"--keep-duplicates", "--input-format", "jsonl", "--out", dir, "-")
				return code, stderr
			}
			dir := t.TempDir()
			_, stderr := gen(out1, dir)
			// Lines generate reported; skipped when one of them is an error.
			said, skipped := map[int]bool{}, map[int]bool{}
			for _, m := range reported.FindAllStringSubmatch(stderr, -1) {
				n, _ := strconv.Atoi(m[1])
				said[n] = true
				if !strings.HasSuffix(m[0], "(warning)") && !strings.HasSuffix(m[0], "(info)") {
					skipped[n] = true
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "sitemap.xml")); err != nil {
				if len(skipped) != len(recs1) {
					t.Fatalf("nothing published, %d of %d entries reported skipped:\n%s", len(skipped), len(recs1), stderr)
				}
				return
			}
			_, out2, _ := runCLI(t, "", "parse", "--format", "jsonl", filepath.Join(dir, "sitemap.xml"))
			recs2 := rtRecords(t, out2)
			j := 0
			for i, r := range recs1 {
				line := i + 1
				if skipped[line] {
					continue
				}
				if j >= len(recs2) {
					t.Fatalf("entry %d lost:\n%s\ngenerate said:\n%s", line, r, stderr)
				}
				if !said[line] && recs2[j] != r {
					t.Errorf("entry %d changed without a word:\n%s\n%s", line, r, recs2[j])
				}
				j++
			}
			if j != len(recs2) {
				t.Errorf("%d entries published, %d expected", len(recs2), j)
			}

			// A second round is a fixed point.
			dir2 := t.TempDir()
			code, stderr := gen(out2, dir2)
			if code != exitOK || strings.Contains(stderr, "<stdin>:") {
				t.Errorf("second round: exit %d:\n%s", code, stderr)
			}
			_, out3, _ := runCLI(t, "", "parse", "--format", "jsonl", filepath.Join(dir2, "sitemap.xml"))
			if got := rtRecords(t, out3); strings.Join(got, "\n") != strings.Join(recs2, "\n") {
				t.Errorf("second round changed the entries:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(recs2, "\n"))
			}
		})
	}
}
