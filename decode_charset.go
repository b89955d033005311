package sitemap

import (
	"sort"
	"strings"

	"golang.org/x/text/encoding"
)

// lookupCharset returns the encoding of a declared encoding name (any
// case, surrounding white space ignored): an IANA name or alias, else a
// WHATWG label, as golang.org/x/text's ianaindex and htmlindex give it; nil
// when the name is unknown or names no supported encoding. The table
// (decode_charset_table.go) is generated from those indexes and checked
// against them by TestCharsetTable; unlike them it costs nothing at start-up
// (their maps are built when a program starts, used or not).
func lookupCharset(name string) encoding.Encoding {
	n := strings.ToLower(strings.TrimSpace(name))
	i := sort.Search(len(charsetNames), func(i int) bool { return charsetNames[i].name >= n })
	if i < len(charsetNames) && charsetNames[i].name == n {
		return charsetEncoding(charsetNames[i].enc)
	}
	return nil
}
