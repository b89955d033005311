// Package xsl holds the default XSL stylesheet that `sitemap generate
// --xsl` writes beside the sitemaps. A browser that opens a sitemap or a
// sitemap index referencing it (<?xml-stylesheet type="text/xsl"
// href="sitemap.xsl"?>) shows a table instead of raw XML: for a sitemap,
// each URL with its lastmod, changefreq, priority, the number of images,
// videos and hreflang alternates, and the news title; for an index, each
// child sitemap as a link with its lastmod. Search engines ignore the
// stylesheet.
//
// It is XSLT 1.0, the version browsers implement, and must be served from
// the same origin as the sitemaps (browsers refuse cross-origin
// stylesheets). Browser support for XSLT is being wound down (Chromium
// shows a deprecation banner), so the stylesheet is a convenience for
// people, never something the sitemaps depend on.
package xsl

import (
	_ "embed"
	"io"
)

// DefaultName is the file name the stylesheet is written under.
const DefaultName = "sitemap.xsl"

//go:embed sitemap.xsl
var stylesheet string

// Default returns the bytes of the default stylesheet (a fresh copy).
func Default() []byte { return []byte(stylesheet) }

// WriteTo writes the default stylesheet to w.
func WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, stylesheet)
	return int64(n), err
}
