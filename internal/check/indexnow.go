package check

import (
	"fmt"
	"unicode/utf8"
)

// The lengths of an IndexNow key IN-03 allows.
const (
	MinKeyLength = 8
	MaxKeyLength = 128
)

// IndexNowKey says what IN-03 refuses in key ("is 3 characters, fewer
// than 8", `has '/' at byte 4`), or "" for a key of 8 to 128 characters
// of a-z, A-Z, 0-9 and '-'. Package indexnow words it for a command
// line; package input uses it to tell a key file from a text sitemap.
func IndexNowKey(key string) string {
	if len(key) < MinKeyLength {
		return fmt.Sprintf("is %d characters, fewer than %d", len(key), MinKeyLength)
	}
	if len(key) > MaxKeyLength {
		return fmt.Sprintf("is %d characters, more than %d", len(key), MaxKeyLength)
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			r, _ := utf8.DecodeRuneInString(key[i:])
			if r == utf8.RuneError || r < ' ' || r == 0x7f {
				// Not a printable character: a byte of a binary file
				// given as a key file.
				return fmt.Sprintf("has the byte 0x%02x at byte %d", c, i+1)
			}
			return fmt.Sprintf("has %q at byte %d", r, i+1)
		}
	}
	return ""
}
