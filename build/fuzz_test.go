package build

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzOwns: the name filter that guards orphan removal accepts only the
// names a run writes (NAME.xml[.gz], NAME-N.xml[.gz], NAME.manifest.json),
// so a damaged manifest can never remove another file.
func FuzzOwns(f *testing.F) {
	for _, s := range []string{"sitemap.xml", "sitemap-12.xml.gz", "sitemap.manifest.json", "sitemap-0.xml", "../sitemap.xml", "sitemap-1.xml/..", "robots.txt"} {
		f.Add(s)
	}
	r, err := Options{}.resolve()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !r.owns(name) {
			return
		}
		switch name {
		case "sitemap.xml", "sitemap.xml.gz", "sitemap.manifest.json":
			return
		}
		rest := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(name, "sitemap-"), ".gz"), ".xml")
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || r.childName(n) != name && r.childName(n)+".gz" != name && strings.TrimSuffix(r.childName(n), ".gz") != strings.TrimSuffix(name, ".gz") {
			t.Fatalf("owns(%q) but it is not a name a run writes", name)
		}
	})
}
