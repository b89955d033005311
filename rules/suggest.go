package rules

import (
	"slices"
	"strings"
)

// Normalize turns what a person might type into the ID form the book
// uses: upper case, trimmed, '_' or a space read as '-', and a one-digit
// number padded ("l7" and "l-7" become "L-07"). It does not check that the
// ID exists.
func Normalize(s string) ID {
	s = strings.ToUpper(strings.TrimSpace(s))
	s = strings.NewReplacer("_", "-", " ", "-").Replace(s)
	if !strings.Contains(s, "-") {
		// "L7", "IM3": split letters from digits.
		i := strings.IndexAny(s, "0123456789")
		if i > 0 {
			s = s[:i] + "-" + s[i:]
		}
	}
	fam, num, ok := strings.Cut(s, "-")
	if ok && len(num) == 1 && num[0] >= '0' && num[0] <= '9' {
		s = fam + "-0" + num
	}
	return ID(s)
}

// Suggest returns up to max IDs of the book close to id, best first: the
// normalized form when it exists, then IDs within two edits (those of the
// family typed first), then, when id names a known family, that family's
// first rules. It returns nil when nothing is close.
func Suggest(id string, max int) []string {
	if max <= 0 {
		return nil
	}
	var out []string
	add := func(id ID) {
		if s := string(id); len(out) < max && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	n := Normalize(id)
	if Known(n) {
		add(n)
	}
	type cand struct {
		id   ID
		dist int
	}
	var cs []cand
	fam := family(n)
	for _, r := range All() {
		if d := distance(string(n), string(r.ID)); d <= 2 {
			if r.Family() != fam {
				d += 2 // a rule of the family typed comes first
			}
			cs = append(cs, cand{r.ID, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.dist - b.dist })
	for _, c := range cs {
		add(c.id)
	}
	if f, ok := FamilyOf(fam); ok {
		for _, r := range f.rules {
			add(r.ID)
		}
	}
	return out
}

// distance is the Levenshtein distance between a and b, on bytes (IDs are
// ASCII).
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
