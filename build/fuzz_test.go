package build

import (
	"strconv"
	"strings"
	"testing"
)

// FuzzOwns: the name filter that guards the removal of earlier runs'
// files accepts only the names a run writes or earlier versions wrote
// (NAME.xml[.gz], NAME-N-HASH.xml[.gz], NAME-N.xml[.gz],
// NAME.manifest.json), so no other file of the directory is ever removed;
// and a content name is always one of the set's children.
func FuzzOwns(f *testing.F) {
	for _, s := range []string{"sitemap.xml", "sitemap-12.xml.gz", "sitemap.manifest.json", "sitemap-0.xml", "../sitemap.xml", "sitemap-1.xml/..", "robots.txt",
		"sitemap-1-0123456789ab.xml.gz", "sitemap-1-0123456789AB.xml", "sitemap-1-2-0123456789ab.xml", "sitemap-123456.xml"} {
		f.Add(s)
	}
	r, err := Options{}.resolve()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if len(name) >= contentHashLen {
			hash := strings.Repeat("0", 64)
			if k := r.kind(r.contentName(1+len(name)%50000, hash)); k != kindChild {
				t.Fatalf("a content name is of kind %d", k)
			}
		}
		if !r.owns(name) {
			return
		}
		switch name {
		case "sitemap.xml", "sitemap.xml.gz", "sitemap.manifest.json":
			return
		}
		rest := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(name, "sitemap-"), ".gz"), ".xml")
		num, hash, hashed := strings.Cut(rest, "-")
		n, err := strconv.Atoi(num)
		if err != nil || n < 1 || n > 99999 {
			t.Fatalf("owns(%q) but it is not a name a run writes", name)
		}
		want := r.childName(n)
		if hashed {
			want = r.contentName(n, hash+strings.Repeat("0", 64))
		}
		if strings.TrimSuffix(want, ".gz") != strings.TrimSuffix(name, ".gz") {
			t.Fatalf("owns(%q) but it is not a name a run writes (%q)", name, want)
		}
	})
}
