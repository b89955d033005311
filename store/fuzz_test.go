package store

import (
	"strings"
	"testing"
)

// FuzzParseJournal: the journal parser never panics, and whatever it
// accepts names only plain files of the directory (no path can escape it).
func FuzzParseJournal(f *testing.F) {
	f.Add([]byte(journalMagic + "\nrename\t.sitemap-1.xml.0123456789abcdef.tmp\tsitemap-1.xml\nremove\tsitemap-2.xml\nend\n"))
	f.Add([]byte(journalMagic + "\nend\n"))
	f.Add([]byte(journalMagic + "\nrename\t.x.0123456789abcdef.tmp\t../x\nend\n"))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ops, err := parseJournal(data)
		if err != nil {
			return
		}
		for _, op := range ops {
			if checkName(op.dst) != nil || strings.ContainsAny(op.tmp, "/\\") {
				t.Fatalf("accepted unsafe op %+v", op)
			}
			if !op.remove {
				if tgt, ok := tempTarget(op.tmp); !ok || tgt != op.dst {
					t.Fatalf("accepted rename %+v whose temp name is not the target's", op)
				}
			}
		}
	})
}

// FuzzParseS3: ParseS3 never panics, and what it accepts is a bucket and
// a prefix that rebuild the name (the prefix empty or ending in "/",
// without an empty segment).
func FuzzParseS3(f *testing.F) {
	for _, s := range []string{"s3://b", "s3://b/p", "s3://b/p/q/", "s3:///p", "s3://b//p", "https://b/p", "s3://b?x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		bucket, prefix, err := ParseS3(name)
		if err != nil {
			return
		}
		if bucket == "" || strings.ContainsAny(bucket, "/?#\\ ") {
			t.Fatalf("ParseS3(%q): bucket %q", name, bucket)
		}
		if prefix != "" && (!strings.HasSuffix(prefix, "/") || strings.HasPrefix(prefix, "/") || strings.Contains(prefix, "//")) {
			t.Fatalf("ParseS3(%q): prefix %q", name, prefix)
		}
		if got := "s3://" + bucket + "/" + prefix; strings.TrimSuffix(got, "/") != strings.TrimSuffix(strings.TrimSuffix(name, "/"), "/") && got != name+"/" && got != name {
			t.Fatalf("ParseS3(%q) = %q, %q: does not rebuild the name", name, bucket, prefix)
		}
	})
}
