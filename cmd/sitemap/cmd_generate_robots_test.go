package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// O-03: the warning compares hosts as hosts: an IDN and its punycode
// form are the same host (no warning), and the robots.txt URL it names
// is in punycode, never percent-encoded.
func TestGenerateCrossSubmitHosts(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte("https://xn--bcher-kva.example/a\n"), 0o644)
	tests := []struct {
		name, base, site string
		warn             bool
		robots           string
	}{
		{"same host, IDN and punycode", "https://xn--bcher-kva.example/", "https://bücher.example/", false, ""},
		{"same host, letter case", "https://XN--BCHER-KVA.example/", "https://xn--bcher-kva.example/", false, ""},
		{"IDN site on a CDN", "https://cdn.example.net/", "https://bücher.example/", true, "https://xn--bcher-kva.example/robots.txt"},
		{"other port", "https://xn--bcher-kva.example:8443/", "https://xn--bcher-kva.example/", true, "https://xn--bcher-kva.example/robots.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", "generate", "--base-url", tt.base, "--site-url", tt.site, "--dry-run", in)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if got := strings.Contains(stderr, "O-03"); got != tt.warn {
				t.Errorf("O-03 warning %v, want %v:\n%s", got, tt.warn, stderr)
			}
			if tt.robots != "" && !strings.Contains(stderr, tt.robots+" has the line") {
				t.Errorf("warning does not name %s:\n%s", tt.robots, stderr)
			}
			if strings.Contains(stderr, "%C3") {
				t.Errorf("percent-encoded host in the warning:\n%s", stderr)
			}
		})
	}
}

// When the top file changes name (a single gzip sitemap becomes an index),
// --robots replaces the Sitemap: line of the removed file instead of
// leaving it pointing at a 404; other lines stay byte for byte (RB-13).
func TestGenerateRobotsDropsRemovedTop(t *testing.T) {
	out := t.TempDir()
	rb := filepath.Join(t.TempDir(), "robots.txt")
	other := "User-agent: *\r\nDisallow: /private\r\nSitemap: https://other.example.org/s.xml\r\n"
	os.WriteFile(rb, []byte(other), 0o644)
	args := []string{"generate", "--base-url", genBase, "--out", out, "--gzip", "--robots", rb}
	if code, _, stderr := runCLI(t, "", append(args, "../../examples/urls.txt")...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(rb); string(got) != other+"Sitemap: https://www.example.com/sitemap.xml.gz\r\n" {
		t.Fatalf("robots.txt after run 1: %q", got)
	}
	code, _, stderr := runCLI(t, "", append(args, "--max-urls", "3", "../../examples/urls.txt")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(rb); string(got) != other+"Sitemap: https://www.example.com/sitemap.xml\r\n" {
		t.Errorf("robots.txt after run 2: %q\n%s", got, stderr)
	}
	if !strings.Contains(stderr, "removed Sitemap: https://www.example.com/sitemap.xml.gz") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// When robots.txt cannot take the line after the sitemaps were published
// (here a file that would pass the 500 KiB crawlers read, RB-04), the
// error says that the sitemaps are published and gives the command that
// adds the line: it said only what was wrong, after a summary table.
func TestGenerateRobotsFailureSaysPublished(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	os.WriteFile(in, []byte("https://www.example.com/a\n"), 0o644)
	robots := filepath.Join(dir, "robots.txt")
	os.WriteFile(robots, []byte("User-agent: *\n"+strings.Repeat("Disallow: /x\n", 40000)), 0o644)
	out := filepath.Join(dir, "public")
	code, _, errb := runCLI(t, "", "generate", "--base-url", "https://www.example.com/", "--out", out, "--robots", robots, in)
	if _, err := os.Stat(filepath.Join(out, "sitemap.xml")); code != exitUsage || err != nil ||
		!strings.Contains(errb, "the sitemaps were published") ||
		!strings.Contains(errb, "sitemap robots add "+robots+" https://www.example.com/sitemap.xml") {
		t.Errorf("exit %d (%v), stderr:\n%s", code, err, errb)
	}
}
