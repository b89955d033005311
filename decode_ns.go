package sitemap

import (
	"fmt"
	"strings"

	"github.com/sitemapkit/sitemap/rules"
)

// This file holds the namespaces the decoder knows: their kinds, how a
// URI (or a near miss of one) maps to a kind, and how a prefix resolves.

// nsKind classifies a namespace URI.
type nsKind uint8

const (
	nsNone        nsKind = iota // no namespace
	nsSitemap                   // http://www.sitemaps.org/schemas/sitemap/0.9
	nsLegacy                    // Google's 0.84 (LG-01)
	nsSitemapNear               // a near miss of the 0.9 URI (LG-03)
	nsImage
	nsVideo
	nsNews
	nsXHTML
	nsMobile
	nsPageMap
	nsAtom
	nsAtom03
	nsXML // the xml: prefix
	nsOther
)

// nsShortName names the extension namespaces for messages.
func nsShortName(k nsKind) string {
	switch k {
	case nsImage:
		return "image"
	case nsVideo:
		return "video"
	case nsNews:
		return "news"
	case nsXHTML:
		return "xhtml"
	}
	return ""
}

// classifyNS maps a namespace URI to its kind; near reports a near miss
// (https, a trailing slash, other case, a wrong host) accepted with a
// warning (LG-03, EX-04).
func classifyNS(uri string) (k nsKind, near bool) {
	switch uri {
	case "":
		return nsNone, false
	case NamespaceSitemap:
		return nsSitemap, false
	case NamespaceLegacy:
		return nsLegacy, false
	case NamespaceImage:
		return nsImage, false
	case NamespaceVideo:
		return nsVideo, false
	case NamespaceNews:
		return nsNews, false
	case NamespaceXHTML:
		return nsXHTML, false
	case NamespaceMobile:
		return nsMobile, false
	case NamespacePageMap:
		return nsPageMap, false
	case "http://www.w3.org/2005/Atom":
		return nsAtom, false
	case "http://purl.org/atom/ns#":
		return nsAtom03, false
	case "http://www.w3.org/XML/1998/namespace":
		return nsXML, false
	}
	n := strings.ToLower(strings.TrimSpace(uri))
	n = strings.TrimPrefix(n, "https://")
	n = strings.TrimPrefix(n, "http://")
	n = strings.TrimRight(n, "/")
	n = strings.TrimPrefix(n, "www.")
	switch n {
	case "sitemaps.org/schemas/sitemap/0.9", "google.com/schemas/sitemap/0.9", "sitemaps.org/schemas/sitemap/0.9/sitemap.xsd":
		return nsSitemap, true
	case "google.com/schemas/sitemap/0.84":
		return nsLegacy, true
	case "google.com/schemas/sitemap-image/1.1":
		return nsImage, true
	case "google.com/schemas/sitemap-video/1.1":
		return nsVideo, true
	case "google.com/schemas/sitemap-news/0.9":
		return nsNews, true
	case "w3.org/1999/xhtml":
		return nsXHTML, true
	case "google.com/schemas/sitemap-mobile/1.0":
		return nsMobile, true
	case "google.com/schemas/sitemap-pagemap/1.0":
		return nsPageMap, true
	}
	// Another version of an extension's namespace ("…/sitemap-image/1.0"):
	// the elements are the extension's, the URI is wrong (EX-04).
	for _, e := range [...]struct {
		prefix string
		kind   nsKind
	}{{"google.com/schemas/sitemap-image/", nsImage}, {"google.com/schemas/sitemap-video/", nsVideo}, {"google.com/schemas/sitemap-news/", nsNews}} {
		if v, ok := strings.CutPrefix(n, e.prefix); ok && v != "" && strings.Trim(v, "0123456789.") == "" {
			return e.kind, true
		}
	}
	return nsOther, false
}

type nsBinding struct {
	prefix string
	uri    string
	kind   nsKind
	near   bool
}

// resolve maps an element prefix to its namespace binding kind.
func (x *xmlReader) resolve(prefix []byte, off int64) (nsKind, bool, string) {
	for i := len(x.ns) - 1; i >= 0; i-- {
		if b := &x.ns[i]; b.prefix == string(prefix) {
			return b.kind, b.near, b.uri
		}
	}
	if len(prefix) == 0 {
		return nsNone, false, ""
	}
	if string(prefix) == "xml" {
		return nsXML, false, ""
	}
	// An undeclared prefix: guess the usual ones (EX-04), else unknown.
	p := string(prefix)
	var k nsKind
	switch p {
	case "image":
		k = nsImage
	case "video":
		k = nsVideo
	case "news":
		k = nsNews
	case "xhtml":
		k = nsXHTML
	case "mobile":
		k = nsMobile
	default:
		x.reportOnce("prefix:"+p, RuleXMLSyntax, SeverityError, off, fmt.Sprintf("the prefix %q is used but never declared with xmlns:%s=…; its elements are ignored", p, p))
		return nsOther, false, ""
	}
	x.reportOnce("prefix:"+p, rules.EX04, SeverityError, off, fmt.Sprintf("the prefix %q is used but never declared; read as the %s extension. Declare xmlns:%s=%q on the root element", p, p, p, nsURI(k)))
	return k, false, nsURI(k)
}

func nsURI(k nsKind) string {
	switch k {
	case nsImage:
		return NamespaceImage
	case nsVideo:
		return NamespaceVideo
	case nsNews:
		return NamespaceNews
	case nsXHTML:
		return NamespaceXHTML
	case nsMobile:
		return NamespaceMobile
	}
	return ""
}

// core reports whether an element of namespace kind k is a protocol
// element of this document (not an extension).
func (x *xmlReader) core(k nsKind) bool {
	if k == x.rootKind {
		return true
	}
	if x.d.format == FormatURLSet || x.d.format == FormatIndex {
		return k == nsSitemap || k == nsLegacy || k == nsNone
	}
	return false
}
