package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// protocolFamilies is how many rules each protocol family holds: every
// numbered rule of the project's specification digest, 170 in all.
var protocolFamilies = map[string]int{
	"F": 4, "X": 12, "L": 20, "M": 8, "C": 4, "P": 4, "E": 5, "S": 8,
	"I": 10, "O": 6, "T": 8, "R": 6, "D": 3, "EX": 5, "IM": 6, "V": 6,
	"N": 11, "H": 10, "G": 5, "RB": 13, "SB": 4, "IN": 12, "LG": 4,
}

func TestBookShape(t *testing.T) {
	ids := map[ID]bool{}
	total := 0
	for _, f := range Families() {
		rs := f.Rules()
		if len(rs) == 0 {
			t.Errorf("family %s is empty", f.Prefix)
		}
		if want, ok := protocolFamilies[f.Prefix]; ok {
			if f.Project {
				t.Errorf("family %s is a protocol family but marked Project", f.Prefix)
			}
			if len(rs) != want {
				t.Errorf("family %s has %d rules, want %d", f.Prefix, len(rs), want)
			}
			total += len(rs)
		} else if !f.Project {
			t.Errorf("family %s is neither a protocol family nor marked Project", f.Prefix)
		}
		for i, r := range rs {
			if ids[r.ID] {
				t.Errorf("%s: duplicate ID", r.ID)
			}
			ids[r.ID] = true
			if r.Family() != f.Prefix {
				t.Errorf("%s is in family %s", r.ID, f.Prefix)
			}
			if !wholeID.MatchString(string(r.ID)) {
				t.Errorf("%s: not of rule-ID shape", r.ID)
			}
			// Numbered families count 01, 02, … in order.
			if num := strings.TrimPrefix(string(r.ID), f.Prefix+"-"); num[0] >= '0' && num[0] <= '9' {
				if n, _ := strconv.Atoi(num); n != i+1 {
					t.Errorf("%s: expected %s-%02d at this place (natural order, no gaps)", r.ID, f.Prefix, i+1)
				}
			}
			switch r.Severity {
			case Error, Warning, Info:
			default:
				t.Errorf("%s: severity %q", r.ID, r.Severity)
			}
			switch r.Level {
			case "", Must, MustNot, Should, ShouldNot, May:
			default:
				t.Errorf("%s: level %q", r.ID, r.Level)
			}
			for name, v := range map[string]string{"Title": r.Title, "Source": r.Source, "Fix": r.Fix} {
				if strings.TrimSpace(v) == "" || strings.ContainsAny(v, "\n\r") {
					t.Errorf("%s: %s %q is empty or not one line", r.ID, name, v)
				}
			}
			if !strings.HasSuffix(r.Title, ".") || !strings.HasSuffix(r.Fix, ".") {
				t.Errorf("%s: title and fix are sentences ending in '.'", r.ID)
			}
			if r.URL != "" && !strings.HasPrefix(r.URL, "https://") {
				t.Errorf("%s: URL %q is not https", r.ID, r.URL)
			}
			if f.Project && !strings.HasPrefix(r.Source, srcT) {
				t.Errorf("%s: a project rule's source starts with %q and says why", r.ID, srcT)
			}
			if r.Source == srcT {
				t.Errorf("%s: a project decision says why (\"this project, from …\" or \"this project: …\")", r.ID)
			}
		}
	}
	if total != 174 {
		t.Errorf("%d protocol rules, want 174", total)
	}
	if got := len(All()); got != len(ids) {
		t.Errorf("All() has %d rules, the families %d", got, len(ids))
	}
}

func TestAllIsNaturalOrder(t *testing.T) {
	var want []ID
	for _, f := range Families() {
		for _, r := range f.Rules() {
			want = append(want, r.ID)
		}
	}
	var got []ID
	for _, r := range All() {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("All() is not family by family")
	}
	fs := Families()
	last := fs[len(fs)-1].Rules()
	if got[0] != "F-01" || got[len(got)-1] != last[len(last)-1].ID {
		t.Errorf("All() runs %s … %s", got[0], got[len(got)-1])
	}
	a := All()
	a[0].ID = "changed"
	if r, _ := Lookup("F-01"); r.ID != "F-01" {
		t.Error("changing All()'s slice changed the book")
	}
}

func TestLookup(t *testing.T) {
	for _, r := range All() {
		got, ok := Lookup(r.ID)
		if !ok || got != r {
			t.Errorf("Lookup(%q) = %v, %v", r.ID, got, ok)
		}
	}
	for _, id := range []ID{"", "L-7", "l-07", "L-99", "X-06 ", "FETCH"} {
		if _, ok := Lookup(id); ok {
			t.Errorf("Lookup(%q) found a rule", id)
		}
		if Known(id) {
			t.Errorf("Known(%q)", id)
		}
	}
	if r, ok := Lookup("X-06"); !ok || r.Severity != Error || r.Family() != "X" {
		t.Errorf("X-06: %+v", r)
	}
	if allocs := testing.AllocsPerRun(100, func() { _, _ = Lookup("FETCH-HTTP") }); allocs != 0 {
		t.Errorf("Lookup allocates %.0f times", allocs)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]ID{
		"l-7": "L-07", "L7": "L-07", " x-06 ": "X-06", "im3": "IM-03", "fetch_http": "FETCH-HTTP",
		"RB-12": "RB-12", "lim-2": "LIM-02", "": "", "abc": "ABC",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		in   string
		want ID // the first suggestion
	}{
		{"l-7", "L-07"},
		{"X6", "X-06"},
		{"L-99", "L-09"},
		{"FETCH-HTP", "FETCH-HTTP"},
		{"IM-9", "IM-01"}, // no close number: the family's first rule
		{"LIM-9", "LIM-01"},
	} {
		got := Suggest(c.in, 3)
		if len(got) == 0 || ID(got[0]) != c.want {
			t.Errorf("Suggest(%q) = %v, want %s first", c.in, got, c.want)
		}
		if len(got) > 3 {
			t.Errorf("Suggest(%q, 3) = %d IDs", c.in, len(got))
		}
		for _, id := range got {
			if !Known(ID(id)) {
				t.Errorf("Suggest(%q) offers unknown %q", c.in, id)
			}
		}
	}
	if got := Suggest("hello-world", 3); got != nil {
		t.Errorf("Suggest(hello-world) = %v", got)
	}
	if got := Suggest("L-07", 0); got != nil {
		t.Errorf("Suggest(_, 0) = %v", got)
	}
}

func BenchmarkLookup(b *testing.B) {
	for b.Loop() {
		if _, ok := Lookup("FETCH-HTTP"); !ok {
			b.Fatal("not found")
		}
	}
}

func ExampleLookup() {
	r, ok := Lookup("X-06")
	if !ok {
		return
	}
	fmt.Println(r.ID, r.Severity, r.Source)
	fmt.Println(r.URL)
	// Output:
	// X-06 error sitemap XSD (sitemaps.org)
	// https://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd
}

func ExampleSuggest() {
	fmt.Println(Suggest("l7", 3))
	// Output: [L-07 L-01 L-02]
}
