// Package urlfilter is the one include/exclude rule of the module: which
// URLs `crawl` crawls and lists and which entries `generate` publishes,
// given as RE2 regular expressions (--include, --exclude).
package urlfilter

import (
	"fmt"
	"regexp"
)

// Filter keeps a URL that matches some Include pattern (or there is
// none) and no Exclude pattern. Patterns are matched against the whole
// URL, unanchored (a pattern /blog/ matches anywhere in it). The zero
// Filter keeps every URL.
type Filter struct {
	Include, Exclude []*regexp.Regexp
}

// IsZero reports whether f keeps every URL (it has no pattern).
func (f Filter) IsZero() bool { return len(f.Include) == 0 && len(f.Exclude) == 0 }

// Keep reports whether f keeps the URL s.
func (f Filter) Keep(s string) bool {
	ok := len(f.Include) == 0
	for _, re := range f.Include {
		if re.MatchString(s) {
			ok = true
			break
		}
	}
	if !ok {
		return false
	}
	for _, re := range f.Exclude {
		if re.MatchString(s) {
			return false
		}
	}
	return true
}

// Compile compiles the patterns of the flag named flag (without its
// dashes: "include"), the first bad one an error naming the flag.
func Compile(flag string, pats []string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, p := range pats {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("--%s %q: %v (patterns are RE2 regular expressions)", flag, p, err)
		}
		out = append(out, re)
	}
	return out, nil
}
