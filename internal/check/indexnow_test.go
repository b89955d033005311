package check

import (
	"strings"
	"testing"
)

// TestIndexNowKey: what IN-03 refuses in a key, said so that a person
// can find it: a character by itself, a byte of a binary file (a key
// file given by mistake) as its value, never half a character.
func TestIndexNowKey(t *testing.T) {
	for key, want := range map[string]string{
		"9f3c2a7e41b84d0c":       "",
		"abc-DEF-123":            "",
		"short":                  "is 5 characters, fewer than 8",
		strings.Repeat("a", 129): "is 129 characters, more than 128",
		"abc/defgh":              `has '/' at byte 4`,
		"bücher-key":             `has 'ü' at byte 2`,
		"abcdefgh\x00":           "has the byte 0x00 at byte 9",
		"\xd3\x03abcdefgh":       "has the byte 0xd3 at byte 1",
		"abcd efgh":              `has ' ' at byte 5`,
	} {
		if got := IndexNowKey(key); got != want {
			t.Errorf("%q: %q, want %q", key, got, want)
		}
	}
}
