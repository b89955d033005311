package check

import "github.com/sitemapkit/sitemap/internal/ctrl"

// Control returns the first control character in s and its byte offset,
// or (0, -1) when s has none: see [ctrl.Control], which it calls.
func Control[T string | []byte](s T) (rune, int) { return ctrl.Control(s) }

// EscapeControls returns s with every control character written as its Go
// escape: see [ctrl.Escape], which it calls.
func EscapeControls(s string) string { return ctrl.Escape(s) }
