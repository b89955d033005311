package check

import (
	"net/url"
	"strings"

	"github.com/sitemapkit/sitemap/urlnorm"
)

// The words of I-05 about an index's child on another site, said alike
// by input, fetch and validate, which follow (or not) such a child; "the
// same site" is urlnorm.SameSite's.

// OffSite is the message of the I-05 diagnostic about a child sitemap
// on another site than its index; hint ([OffSiteHint]) says whether it
// was followed and what lets it through.
func OffSite(child, index, hint string) string {
	return offSite(child, "the index ("+urlnorm.Display(index)+")", hint)
}

// OffSiteInferred is OffSite for a local index whose URL is unknown (no
// --base): its site is taken to be that of its first child, first.
func OffSiteInferred(child, first, hint string) string {
	return offSite(child, "the index's first child ("+urlnorm.Display(first)+"), the index's site when --base does not say", hint)
}

// The rule ID is the diagnostic's (I-05), not repeated in its message.
func offSite(child, than, hint string) string {
	return "child sitemap " + child + " is on another site than " + than + "; an index may point only to sitemaps on its own site; " + hint
}

// OffSiteHint is the end of an I-05 message about the off-site child:
// followed says whether it is read anyway (AllowOffSite); refused, when
// not "", is why the request scope refuses the child's URL (a FETCH-SCOPE
// reason), in which case --allow-off-site alone does not read it: the
// hint names --allow-host with the child's host, or, when the scope
// refuses the child's address (private, --no-private), says that no flag
// but dropping --no-private does.
func OffSiteHint(child string, followed bool, refused string, private bool) string {
	host := child
	if u, err := url.Parse(child); err == nil && u.Host != "" {
		host = strings.ToLower(u.Host)
	}
	switch {
	case refused == "" && followed:
		return "followed anyway (--allow-off-site)"
	case refused == "":
		return "not followed (--allow-off-site follows it)"
	case private && followed:
		return "not read: the request scope refuses it, " + refused
	case private:
		return "not followed, and the request scope refuses it too: " + refused
	case followed:
		return "not read: the request scope refuses it, " + refused + "; --allow-host " + host + " lets it through"
	}
	return "not followed (--allow-off-site with --allow-host " + host + " follows it; the request scope refuses it otherwise)"
}
