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
