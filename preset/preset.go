// Package preset knows the databases of three CMSs, so a sitemap can be
// served or generated straight from them: MediaWiki ([MediaWiki]),
// WordPress ([WordPress]) and Drupal ([Drupal]). A preset is a SELECT and
// the URL rules of its CMS, as a [serve.Query] a program hands to
// [serve.SQL] (or `sitemap serve --preset NAME`, `sitemap generate
// --preset NAME`); [Preset.String] is the query with its rules as SQL
// comments, for a person to read, copy and change (--print-query).
//
// Each preset reads the CMS's own tables as its installer made them, with
// the table prefix given in Options.Prefix. MediaWiki and Drupal run on
// MySQL/MariaDB, PostgreSQL and SQLite; WordPress on MySQL/MariaDB only,
// as WordPress itself. The presets never write.
package preset

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/sitemapkit/sitemap/serve"
)

// Options tune a preset to one site.
type Options struct {
	// Prefix is the CMS's table prefix ($wgDBprefix, $table_prefix,
	// Drupal's database prefix): "" for MediaWiki and Drupal, "wp_"
	// for WordPress when empty. Give "-" for no prefix at all on
	// WordPress.
	Prefix string
	// ArticlePath is MediaWiki's $wgArticlePath, "/wiki/$1" when empty
	// ("/$1" on a wiki served from its root, "/index.php?title=$1"
	// without short URLs).
	ArticlePath string
	// Namespaces are the MediaWiki namespaces listed: $wgContentNamespaces,
	// [0] (the main namespace) when empty.
	Namespaces []int
	// NamespaceNames overrides the names of MediaWiki namespaces (the
	// English canonical names are known: Talk, User, File, Help, …; the
	// Project namespace is the wiki's $wgMetaNamespace and a localized
	// wiki's names are its own).
	NamespaceNames map[int]string
	// PostTypes are WordPress's public custom post types to list besides
	// posts and pages, each at /TYPE/SLUG/ (its rewrite slug is the type
	// name unless the plugin that registers it says otherwise).
	PostTypes []string
	// Dialect of the database; found from its driver when empty.
	Dialect serve.Dialect
}

// Preset is one CMS's query and URL rules for one site.
type Preset struct {
	// Name is the preset's name: mediawiki, wordpress or drupal.
	Name string
	// Query is what serve.SQL takes: the SELECT (Query.Query), its key
	// column, its columns, and the URL rule (Query.URL) when the CMS's
	// URLs are more than a column's value.
	Query serve.Query
	// Rules says in words how the rows become URLs, and what is left
	// out; String writes it as SQL comments above the query.
	Rules []string
}

// String returns the query with its rules as SQL comments above it: what
// `sitemap serve --preset NAME --print-query` prints.
func (p Preset) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- sitemap preset %s: key %s, loc %s, lastmod %s", p.Name, p.Query.Key, p.Query.Columns.Loc, p.Query.Columns.LastMod)
	if p.Query.Columns.Ext != "" {
		fmt.Fprintf(&b, ", ext %s", p.Query.Columns.Ext)
	}
	b.WriteString("\n")
	for _, r := range p.Rules {
		b.WriteString("-- " + r + "\n")
	}
	b.WriteString(strings.TrimSpace(p.Query.Query) + "\n")
	return b.String()
}

// Names are the presets there are, in order.
func Names() []string { return []string{"drupal", "mediawiki", "wordpress"} }

// Load returns the preset name for the site whose database db is: the
// query of MediaWiki and Drupal depends on o only; WordPress's reads the
// site's settings (home URL, permalink structure, front page) from its
// options table now. An unknown name is an error listing the presets.
// Errors do not name the preset: the caller knows which it asked for
// (Settings.Open says "--preset NAME: ...").
func Load(ctx context.Context, db *sql.DB, name string, o Options) (Preset, error) {
	if o.Dialect == "" {
		d, err := serve.DialectOf(db)
		if err != nil {
			return Preset{}, err
		}
		o.Dialect = d
	}
	switch strings.ToLower(name) {
	case "mediawiki":
		return MediaWiki(o)
	case "drupal":
		return Drupal(o)
	case "wordpress":
		return WordPress(ctx, db, o)
	}
	return Preset{}, fmt.Errorf("there is no such preset; use one of %s", strings.Join(Names(), ", "))
}

// concat is the SQL of the concatenation of parts in dialect d.
func concat(d serve.Dialect, parts ...string) string {
	if len(parts) == 1 {
		return parts[0]
	}
	if d == serve.MySQL {
		return "CONCAT(" + strings.Join(parts, ", ") + ")"
	}
	return "(" + strings.Join(parts, " || ") + ")"
}

// quote is s as a SQL string literal of dialect d.
func quote(d serve.Dialect, s string) string {
	s = strings.ReplaceAll(s, "'", "''")
	if d == serve.MySQL {
		s = strings.ReplaceAll(s, `\`, `\\`) // backslash escapes unless NO_BACKSLASH_ESCAPES
	}
	return "'" + s + "'"
}

// table is the name of a CMS table with the site's prefix, checked to
// be a plain name (it is written into the query).
func table(prefix, name string) (string, error) {
	for _, c := range prefix {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "", fmt.Errorf("table prefix %q: a prefix is letters, digits and '_'", prefix)
		}
	}
	return prefix + name, nil
}

// sortedInts returns a sorted copy of xs without repeats.
func sortedInts(xs []int) []int {
	out := append([]int(nil), xs...)
	sort.Ints(out)
	j := 0
	for i, x := range out {
		if i == 0 || x != out[j-1] {
			out[j] = x
			j++
		}
	}
	return out[:j]
}
