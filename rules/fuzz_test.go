package rules

import (
	"slices"
	"testing"
)

// FuzzLookup: on any string, Normalize, Suggest, Lookup, Known and
// FamilyOf return without panicking; Normalize is idempotent; Lookup finds
// only IDs in their normal form, and then the rule with that ID; Suggest
// returns at most max distinct IDs of the book, the normalized form first
// when the book has it, a smaller max giving a prefix of the same list.
func FuzzLookup(f *testing.F) {
	for _, s := range []string{"L-07", "l7", " im_3 ", "FETCH-HTTP", "fetch http", "X", "L-", "-7", "L-0007", "ǅ7", "L\u00a07", "", "ß-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if Normalize(string(n)) != n {
			t.Fatalf("Normalize(%q) = %q, Normalize of that %q", s, n, Normalize(string(n)))
		}
		if r, ok := Lookup(ID(s)); ok != Known(ID(s)) || ok && (r.ID != ID(s) || n != ID(s)) {
			t.Fatalf("Lookup(%q) = %+v, %v; Known %v, Normalize %q", s, r, ok, Known(ID(s)), n)
		}
		if fam, ok := FamilyOf(s); ok && fam.Prefix != s {
			t.Fatalf("FamilyOf(%q) = %q", s, fam.Prefix)
		}
		if len(Suggest(s, 0)) != 0 || len(Suggest(s, -1)) != 0 {
			t.Fatalf("Suggest(%q, 0 or less) suggests", s)
		}
		all := Suggest(s, 1000)
		for i, id := range all {
			if !Known(ID(id)) || slices.Contains(all[:i], id) {
				t.Fatalf("Suggest(%q) = %q: %q unknown or repeated", s, all, id)
			}
		}
		if Known(n) && (len(all) == 0 || all[0] != string(n)) {
			t.Fatalf("Suggest(%q) = %q, not %q first", s, all, n)
		}
		// A smaller max is a prefix of the same list.
		if few := Suggest(s, 3); len(few) > 3 || !slices.Equal(few, all[:min(3, len(all))]) {
			t.Fatalf("Suggest(%q, 3) = %q, Suggest(%q, 1000) = %q", s, few, s, all)
		}
	})
}
