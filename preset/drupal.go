package preset

import (
	"fmt"
	"strings"

	"github.com/sitemapkit/sitemap/serve"
)

// Drupal is the preset of a Drupal site (8 and later): the published
// nodes of node_field_data in their default language, each at its URL
// alias (path_alias: the newest published alias of /node/NID in the
// node's language or in none), /node/NID when it has none, with changed
// as lastmod; the alias encoded as Drupal's URL generator encodes it
// (rawurlencode, then / : @ ; , = + ! * | written back). Translations
// and the front page's "/" are not listed. The locs are paths: they
// resolve against the site's URL (serve's --base-url, generate's
// --site-url).
func Drupal(o Options) (Preset, error) {
	d := o.Dialect
	if d == "" {
		d = serve.MySQL
	}
	nodes, err := table(o.Prefix, "node_field_data")
	if err != nil {
		return Preset{}, err
	}
	aliases, _ := table(o.Prefix, "path_alias")
	nodePath := concat(d, "'/node/'", castText(d, "n.nid"))
	q := fmt.Sprintf(`SELECT n.nid AS nid,
  COALESCE((SELECT a.alias FROM %s a
    WHERE a.path = %s AND a.langcode IN (n.langcode, 'und') AND a.status = 1
    ORDER BY CASE WHEN a.langcode = 'und' THEN 1 ELSE 0 END, a.id DESC LIMIT 1), %s) AS path,
  n.changed AS changed
FROM %s n
WHERE n.status = 1 AND n.default_langcode = 1`, aliases, nodePath, nodePath, nodes)
	return Preset{
		Name: "drupal",
		Query: serve.Query{Query: q, Key: "nid", Dialect: d,
			Columns: serve.Columns{Loc: "path", LastMod: "changed"}, URL: drupalEncode,
			Changes: []serve.ChangeTable{{Table: nodes, Key: "nid"}}},
		Rules: []string{
			"URL: the alias (or /node/NID) encoded as Drupal's URL generator does: rawurlencode, then",
			"  / : @ ; , = + ! * | written back; resolved against the site's URL.",
			"Left out: unpublished nodes (status 0), translations (default_langcode 0), the front page's /.",
			"Changes (--install-trigger): triggers on " + nodes + " (nid) log the node a write touches; a new or changed",
			"  alias (" + aliases + ") is found by the check of every page serve makes every 10 minutes.",
		},
	}, nil
}

// castText is the SQL of x as text in dialect d.
func castText(d serve.Dialect, x string) string {
	if d == serve.MySQL {
		return x // CONCAT takes numbers
	}
	return "CAST(" + x + " AS TEXT)"
}

// drupalEncode encodes a path as Drupal's UrlGenerator does:
// rawurlencode, then the characters of its decodedChars written back.
func drupalEncode(p string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-_.~/:@;,=+!*|", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}
