package preset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/serve"
)

// mediaWikiNamespaces are the English canonical names of MediaWiki's
// namespaces (the wiki's content language may have others; 4 and 5 are
// the wiki's $wgMetaNamespace).
var mediaWikiNamespaces = map[int]string{
	1: "Talk", 2: "User", 3: "User_talk", 4: "Project", 5: "Project_talk",
	6: "File", 7: "File_talk", 8: "MediaWiki", 9: "MediaWiki_talk",
	10: "Template", 11: "Template_talk", 12: "Help", 13: "Help_talk",
	14: "Category", 15: "Category_talk",
}

// MediaWiki is the preset of a MediaWiki wiki (1.31 and later): the pages
// of the content namespaces (Options.Namespaces) of its page table,
// redirects and pages with __NOINDEX__ left out, page_touched as lastmod,
// each at the article path with its title encoded as MediaWiki encodes it
// (wfUrlencode: "Zürich & Co" is /wiki/Z%C3%BCrich_%26_Co). It is
// generateSitemap.php's list with --skip-redirects and
// $wgSitemapNamespaces set to the content namespaces. The locs are paths:
// they resolve against the wiki's URL (serve's --base-url, generate's
// --site-url).
func MediaWiki(o Options) (Preset, error) {
	d := o.Dialect
	if d == "" {
		d = serve.MySQL
	}
	page, err := table(o.Prefix, "page")
	if err != nil {
		return Preset{}, err
	}
	props, _ := table(o.Prefix, "page_props")
	path := o.ArticlePath
	if path == "" {
		path = "/wiki/$1"
	}
	if !strings.Contains(path, "$1") {
		return Preset{}, fmt.Errorf("article path %q has no $1 (where the title goes), such as /wiki/$1", path)
	}
	nss := sortedInts(o.Namespaces)
	if len(nss) == 0 {
		nss = []int{0}
	}
	title := "p.page_title"
	inList := make([]string, len(nss))
	var cases []string
	for i, ns := range nss {
		inList[i] = strconv.Itoa(ns)
		if ns == 0 {
			continue
		}
		name := o.NamespaceNames[ns]
		if name == "" {
			name = mediaWikiNamespaces[ns]
		}
		if name == "" {
			return Preset{}, fmt.Errorf("namespace %d: its name is not known; give it in NamespaceNames", ns)
		}
		cases = append(cases, fmt.Sprintf("WHEN %d THEN %s", ns, quote(d, strings.ReplaceAll(name, " ", "_")+":")))
	}
	if len(cases) > 0 {
		title = concat(d, "CASE p.page_namespace "+strings.Join(cases, " ")+" ELSE '' END", "p.page_title")
	}
	q := fmt.Sprintf(`SELECT p.page_id AS id, %s AS title, p.page_touched AS touched
FROM %s p
LEFT JOIN %s pp ON pp.pp_page = p.page_id AND pp.pp_propname = 'noindex'
WHERE p.page_namespace IN (%s) AND p.page_is_redirect = 0 AND pp.pp_page IS NULL`,
		title, page, props, strings.Join(inList, ", "))
	return Preset{
		Name: "mediawiki",
		Query: serve.Query{Query: q, Key: "id", Dialect: d,
			Columns: serve.Columns{Loc: "title", LastMod: "touched"},
			Changes: []serve.ChangeTable{{Table: page, Key: "page_id"}, {Table: props, Key: "pp_page"}},
			URL:     func(t string) string { return strings.ReplaceAll(path, "$1", WikiURLEncode(t)) }},
		Rules: []string{
			"URL: " + path + " with $1 the title (namespace prefix included) percent-encoded as MediaWiki's wfUrlencode:",
			"  every byte but letters, digits and - _ . ; @ $ ! * ( ) , / ~ : as %XX; resolved against the wiki's URL.",
			"Left out: redirects (page_is_redirect), pages with __NOINDEX__ (page_props noindex), other namespaces.",
			"Changes (--install-trigger): triggers on " + page + " (page_id) and " + props + " (pp_page) log the page a write touches.",
		},
	}, nil
}

// WikiURLEncode encodes a MediaWiki title (its DB key: spaces as '_') as
// MediaWiki's wfUrlencode does: PHP's urlencode, then ; @ $ ! * ( ) , / ~
// and : written back as themselves.
func WikiURLEncode(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-_.;@$!*(),/~:", c) >= 0:
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
