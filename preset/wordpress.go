package preset

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sitemapkit/sitemap/serve"
)

// wpDepth is how many ancestors of a page or category the WordPress
// query follows (a fixed chain of joins, each an index lookup).
const wpDepth = 8

// The keys of the archives: above every post ID, all BIGINT UNSIGNED
// (as ID is), so the key of the posts stays the table's primary key.
const (
	wpTermKey = "4611686018427387904" // 2^62
	wpUserKey = "6917529027641081856" // 2^62 + 2^61
)

// wpSite is what the WordPress preset reads from the options table.
type wpSite struct {
	home, siteurl, structure, showOnFront, uploadURL string
	pageOnFront, defaultCategory                     int64
	categoryBase, tagBase                            string
}

// WordPress is the preset of a WordPress site (5.5 and later) on MySQL
// or MariaDB: the URLs its core sitemaps (wp-sitemap.xml) list, with
// lastmod and images, read from its tables and its settings in the
// options table (home, permalink_structure, category_base, tag_base,
// show_on_front, page_on_front, default_category, upload_url_path),
// which Load reads once: a change of settings needs a new Load.
//
//   - published posts, pages and Options.PostTypes, at their permalinks
//     as get_permalink makes them: the permalink structure's tags
//     (%year% … %second% of post_date, %postname%, %post_id%, %category%
//     with its parents, %author%) filled in, pages at their hierarchy of
//     slugs (up to 8 ancestors), the static front page at the home URL;
//     plain permalinks (?p=ID, ?page_id=ID) when there is no structure;
//   - the home URL when the front page shows the latest posts, with the
//     newest post's lastmod;
//   - the archives of categories (with their parents' slugs), tags and
//     post formats that hold a post, and of the authors of a published
//     post;
//   - post_modified_gmt as lastmod, the featured image (_thumbnail_id) as
//     an image entry;
//   - left out: drafts, private, pending and trashed posts, attachments,
//     revisions, menus and the other internal types, and posts Yoast SEO
//     or Rank Math mark noindex.
//
// The locs are absolute, on the site's home URL.
func WordPress(ctx context.Context, db *sql.DB, o Options) (Preset, error) {
	d := o.Dialect
	if d == "" {
		var err error
		if d, err = serve.DialectOf(db); err != nil {
			return Preset{}, err
		}
	}
	if d != serve.MySQL {
		return Preset{}, fmt.Errorf("WordPress runs on MySQL or MariaDB; give --db mysql://… (this database is %s)", d)
	}
	prefix := o.Prefix
	switch prefix {
	case "":
		prefix = "wp_"
	case "-":
		prefix = ""
	}
	if _, err := table(prefix, "posts"); err != nil {
		return Preset{}, err
	}
	for _, t := range o.PostTypes {
		if t == "" || strings.Trim(t, "abcdefghijklmnopqrstuvwxyz0123456789_-") != "" {
			return Preset{}, fmt.Errorf("post type %q: a post type is lowercase letters, digits, '_' and '-'", t)
		}
	}
	site, err := wpReadOptions(ctx, db, prefix)
	if err != nil {
		return Preset{}, err
	}
	w := &wpQuery{d: d, p: prefix, s: site, types: append([]string{"post", "page"}, o.PostTypes...)}
	if site.structure != "" && strings.Contains(site.structure, "%category%") {
		// get_permalink's fallback when a post has no category.
		w.defaultCat, err = wpCategoryPath(ctx, db, w, site.defaultCategory)
		if err != nil {
			return Preset{}, err
		}
	}
	q := w.build()
	return Preset{
		Name: "wordpress",
		Query: serve.Query{Query: q, Key: "id", Dialect: d,
			Columns: serve.Columns{Loc: "loc", LastMod: "lastmod", Ext: "ext"},
			Changes: []serve.ChangeTable{{Table: prefix + "posts", Key: "ID"}, {Table: prefix + "postmeta", Key: "post_id"}}},
		Rules: []string{
			"Site: home " + site.home + ", permalink structure " + strconv.Quote(site.structure) + ", front page " + site.showOnFront + ".",
			"Key: the post ID; 0 the home page; 2^62 + term_taxonomy_id a term archive; 2^62 + 2^61 + user ID an author.",
			"Left out: unpublished posts, attachments and internal types, posts Yoast SEO or Rank Math mark noindex,",
			"  empty terms, authors without a published post. Pages nest up to 8 ancestors deep.",
			"Settings are read once, when the preset is loaded: restart after changing the permalinks.",
			"Changes (--install-trigger): triggers on " + prefix + "posts (ID) and " + prefix + "postmeta (post_id) log the post a write touches;",
			"  what other rows make (term and author archives, the home page's lastmod, the children of a page",
			"  whose slug changed) is found by the check of every page serve makes every 10 minutes.",
		},
	}, nil
}

// wpReadOptions reads the site's settings from PREFIXoptions.
func wpReadOptions(ctx context.Context, db *sql.DB, prefix string) (wpSite, error) {
	s := wpSite{showOnFront: "posts"}
	rows, err := db.QueryContext(ctx, "SELECT option_name, option_value FROM `"+prefix+"options` WHERE option_name IN ('home', 'siteurl', 'permalink_structure', 'show_on_front', 'page_on_front', 'default_category', 'category_base', 'tag_base', 'upload_url_path')")
	if err != nil {
		return s, fmt.Errorf("reading the settings (table %soptions; give the table prefix if it is not %s): %w", prefix, prefix, err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			return s, err
		}
		switch name {
		case "home":
			s.home = strings.TrimRight(value, "/")
		case "siteurl":
			s.siteurl = strings.TrimRight(value, "/")
		case "permalink_structure":
			s.structure = value
		case "show_on_front":
			s.showOnFront = value
		case "page_on_front":
			s.pageOnFront, _ = strconv.ParseInt(value, 10, 64)
		case "default_category":
			s.defaultCategory, _ = strconv.ParseInt(value, 10, 64)
		case "category_base":
			s.categoryBase = strings.Trim(value, "/")
		case "tag_base":
			s.tagBase = strings.Trim(value, "/")
		case "upload_url_path":
			s.uploadURL = strings.TrimRight(value, "/")
		}
	}
	if err := rows.Err(); err != nil {
		return s, err
	}
	if s.home == "" {
		return s, errors.New("the options table has no home URL: is this a WordPress database?")
	}
	if s.siteurl == "" {
		s.siteurl = s.home
	}
	if s.uploadURL == "" {
		s.uploadURL = s.siteurl + "/wp-content/uploads"
	}
	if s.categoryBase == "" {
		s.categoryBase = "category"
	}
	if s.tagBase == "" {
		s.tagBase = "tag"
	}
	if s.showOnFront == "page" && s.pageOnFront == 0 {
		s.showOnFront = "posts" // WordPress shows the posts without a page set
	}
	return s, nil
}

// wpCategoryPath is the slug path of category id (its parents first).
func wpCategoryPath(ctx context.Context, db *sql.DB, w *wpQuery, id int64) (string, error) {
	if id == 0 {
		return "", nil
	}
	var path sql.NullString
	q := "SELECT " + w.termPath("tt", "t", "category") + " FROM " + w.t("term_taxonomy") + " tt JOIN " + w.t("terms") + " t ON t.term_id = tt.term_id " +
		w.termParents("tt", "category") + " WHERE tt.taxonomy = 'category' AND tt.term_id = ?"
	err := db.QueryRowContext(ctx, q, id).Scan(&path)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return path.String, err
}

// wpQuery builds the WordPress query.
type wpQuery struct {
	d          serve.Dialect
	p          string // table prefix
	s          wpSite
	types      []string
	defaultCat string // the default category's slug path
}

func (w *wpQuery) t(name string) string { return "`" + w.p + name + "`" }

func (w *wpQuery) lit(s string) string { return quote(w.d, s) }

// trailing reports whether WordPress's links end in '/'
// (user_trailingslashit: the permalink structure does).
func (w *wpQuery) trailing() bool { return strings.HasSuffix(w.s.structure, "/") }

// front is the permalink structure's part before its first tag.
func (w *wpQuery) front() string {
	f, _, _ := strings.Cut(w.s.structure, "%")
	return f
}

// root is "index.php/" for PATHINFO permalinks, "" otherwise.
func (w *wpQuery) root() string {
	if strings.HasPrefix(w.s.structure, "/index.php") {
		return "index.php/"
	}
	return ""
}

// url is the SQL of home_url(user_trailingslashit(path)) for a path made
// of SQL parts.
func (w *wpQuery) url(parts ...string) string {
	all := append([]string{w.lit(w.s.home + "/")}, parts...)
	if w.trailing() {
		all = append(all, "'/'")
	}
	return "CONCAT(" + strings.Join(all, ", ") + ")"
}

// ltrim drops a path's leading slashes (home_url adds one).
func ltrim(s string) string { return strings.TrimLeft(s, "/") }

// ancestors returns the joins of up to wpDepth parents of post alias a
// and the CONCAT_WS of their slugs and a's own (get_page_uri).
func (w *wpQuery) ancestors(a string) (joins, path string) {
	var b strings.Builder
	slugs := []string{a + ".post_name"}
	prev := a
	for i := 1; i <= wpDepth; i++ {
		n := "a" + strconv.Itoa(i)
		fmt.Fprintf(&b, "\nLEFT JOIN %s %s ON %s.post_parent <> 0 AND %s.ID = %s.post_parent", w.t("posts"), n, prev, n, prev)
		slugs = append([]string{n + ".post_name"}, slugs...)
		prev = n
	}
	return b.String(), "CONCAT_WS('/', " + strings.Join(slugs, ", ") + ")"
}

// termParents returns the joins of up to wpDepth parents of the term
// taxonomy row alias tt (aliases tt1…, t1…).
func (w *wpQuery) termParents(tt, tax string) string {
	var b strings.Builder
	prev := tt
	for i := 1; i <= wpDepth; i++ {
		n, tn := tt+strconv.Itoa(i), "t"+tt+strconv.Itoa(i)
		fmt.Fprintf(&b, " LEFT JOIN %s %s ON %s.parent <> 0 AND %s.term_id = %s.parent AND %s.taxonomy = '%s' LEFT JOIN %s %s ON %s.term_id = %s.term_id",
			w.t("term_taxonomy"), n, prev, n, prev, n, tax, w.t("terms"), tn, tn, n)
		prev = n
	}
	return b.String()
}

// termPath is the slug path of term alias t (taxonomy row tt) with the
// parents termParents joined.
func (w *wpQuery) termPath(tt, t, tax string) string {
	slugs := []string{t + ".slug"}
	for i := 1; i <= wpDepth; i++ {
		slugs = append([]string{"t" + tt + strconv.Itoa(i) + ".slug"}, slugs...)
	}
	return "CONCAT_WS('/', " + strings.Join(slugs, ", ") + ")"
}

// postPath is the SQL of a post's permalink path with the structure's
// tags filled in (get_permalink), without home and trailing slash.
func (w *wpQuery) postPath() string {
	st := strings.TrimSuffix(w.s.structure, "/")
	var parts []string
	for st != "" {
		i := strings.IndexByte(st, '%')
		j := -1
		if i >= 0 {
			j = strings.IndexByte(st[i+1:], '%')
		}
		if i < 0 || j < 0 {
			parts = append(parts, w.lit(st))
			break
		}
		if i > 0 {
			parts = append(parts, w.lit(st[:i]))
		}
		tag := st[i+1 : i+1+j]
		st = st[i+2+j:]
		switch tag {
		case "year", "monthnum", "day", "hour", "minute", "second":
			f := map[string]string{"year": "%Y", "monthnum": "%m", "day": "%d", "hour": "%H", "minute": "%i", "second": "%s"}[tag]
			parts = append(parts, "DATE_FORMAT(p.post_date, '"+f+"')")
		case "postname", "pagename":
			parts = append(parts, "p.post_name")
		case "post_id":
			parts = append(parts, "p.ID")
		case "author":
			parts = append(parts, "(SELECT u.user_nicename FROM "+w.t("users")+" u WHERE u.ID = p.post_author)")
		case "category":
			parts = append(parts, "COALESCE((SELECT "+w.termPath("ctt", "ct", "category")+" FROM "+w.t("term_relationships")+" cr JOIN "+w.t("term_taxonomy")+
				" ctt ON ctt.term_taxonomy_id = cr.term_taxonomy_id AND ctt.taxonomy = 'category' JOIN "+w.t("terms")+" ct ON ct.term_id = ctt.term_id"+
				w.termParents("ctt", "category")+" WHERE cr.object_id = p.ID ORDER BY ct.term_id LIMIT 1), "+w.lit(w.defaultCat)+")")
		default:
			parts = append(parts, w.lit("%"+tag+"%")) // a tag of a plugin: left as written
		}
	}
	if len(parts) > 0 {
		parts[0] = strings.Replace(parts[0], "'/", "'", 1) // home_url's ltrim
	}
	return strings.Join(parts, ", ")
}

// build writes the query: a UNION ALL of the home page, the posts, the
// term archives and the author archives.
func (w *wpQuery) build() string {
	plain := w.s.structure == ""
	types := make([]string, len(w.types))
	for i, t := range w.types {
		types[i] = w.lit(t)
	}
	inTypes := strings.Join(types, ", ")
	joins, pagePath := w.ancestors("p")
	var loc string
	if plain {
		loc = "CASE WHEN p.post_type = 'page' THEN CONCAT(" + w.lit(w.s.home+"/?page_id=") + ", p.ID) WHEN p.post_type = 'post' THEN CONCAT(" +
			w.lit(w.s.home+"/?p=") + ", p.ID) ELSE CONCAT(" + w.lit(w.s.home+"/?") + ", p.post_type, '=', " + pagePath + ") END"
	} else {
		front := ltrim(w.front())
		loc = "CASE WHEN p.post_type = 'page' THEN " + w.url(w.lit(w.root()), pagePath) +
			" WHEN p.post_type = 'post' THEN " + w.url(w.postPath()) +
			" ELSE " + w.url(w.lit(front), "p.post_type", "'/'", pagePath) + " END"
	}
	if w.s.showOnFront == "page" {
		loc = "CASE WHEN p.ID = " + strconv.FormatInt(w.s.pageOnFront, 10) + " THEN " + w.lit(w.s.home+"/") + " ELSE " + loc + " END"
	}
	image := "CONCAT(" + w.lit(w.s.uploadURL+"/") + ", img.meta_value)"
	posts := `SELECT p.ID AS id, ` + loc + ` AS loc, p.post_modified_gmt AS lastmod,
  CASE WHEN img.meta_value IS NOT NULL THEN JSON_OBJECT('images', JSON_ARRAY(JSON_OBJECT('loc', ` + image + `))) END AS ext
FROM ` + w.t("posts") + ` p` + joins + `
LEFT JOIN ` + w.t("postmeta") + ` th ON th.post_id = p.ID AND th.meta_key = '_thumbnail_id'
LEFT JOIN ` + w.t("postmeta") + ` img ON img.post_id = CAST(th.meta_value AS UNSIGNED) AND img.meta_key = '_wp_attached_file'
WHERE p.post_type IN (` + inTypes + `) AND p.post_status = 'publish'
  AND NOT EXISTS (SELECT 1 FROM ` + w.t("postmeta") + ` nx WHERE nx.post_id = p.ID
    AND (nx.meta_key = '_yoast_wpseo_meta-robots-noindex' AND nx.meta_value = '1'
      OR nx.meta_key = 'rank_math_robots' AND nx.meta_value LIKE '%noindex%'))`
	var parts []string
	if w.s.showOnFront != "page" {
		parts = append(parts, `SELECT CAST(0 AS UNSIGNED) AS id, `+w.lit(w.s.home+"/")+` AS loc,
  (SELECT MAX(h.post_modified_gmt) FROM `+w.t("posts")+` h WHERE h.post_type = 'post' AND h.post_status = 'publish') AS lastmod, NULL AS ext`)
	}
	parts = append(parts, posts, w.terms(plain), w.authors(plain, inTypes))
	return strings.Join(parts, "\nUNION ALL\n")
}

// terms is the SELECT of the archives of the categories, tags and post
// formats that hold a post (get_term_link).
func (w *wpQuery) terms(plain bool) string {
	front := ltrim(w.front())
	catPath := w.termPath("tt", "t", "category")
	format := "REPLACE(t.slug, 'post-format-', '')"
	var loc string
	if plain {
		loc = "CASE tt.taxonomy WHEN 'category' THEN CONCAT(" + w.lit(w.s.home+"/?cat=") + ", t.term_id) WHEN 'post_tag' THEN CONCAT(" +
			w.lit(w.s.home+"/?tag=") + ", t.slug) ELSE CONCAT(" + w.lit(w.s.home+"/?post_format=") + ", " + format + ") END"
	} else {
		loc = "CASE tt.taxonomy WHEN 'category' THEN " + w.url(w.lit(front+w.s.categoryBase+"/"), catPath) +
			" WHEN 'post_tag' THEN " + w.url(w.lit(front+w.s.tagBase+"/"), "t.slug") +
			" ELSE " + w.url(w.lit(front+"type/"), format) + " END"
	}
	return `SELECT ` + wpTermKey + ` + tt.term_taxonomy_id AS id, ` + loc + ` AS loc, NULL AS lastmod, NULL AS ext
FROM ` + w.t("term_taxonomy") + ` tt JOIN ` + w.t("terms") + ` t ON t.term_id = tt.term_id` + w.termParents("tt", "category") + `
WHERE tt.taxonomy IN ('category', 'post_tag', 'post_format') AND tt.count > 0`
}

// authors is the SELECT of the archives of the authors of a published
// post (get_author_posts_url).
func (w *wpQuery) authors(plain bool, inTypes string) string {
	loc := "CONCAT(" + w.lit(w.s.home+"/?author=") + ", u.ID)"
	if !plain {
		loc = w.url(w.lit(ltrim(w.front())+"author/"), "u.user_nicename")
	}
	return `SELECT ` + wpUserKey + ` + u.ID AS id, ` + loc + ` AS loc, NULL AS lastmod, NULL AS ext
FROM ` + w.t("users") + ` u
WHERE EXISTS (SELECT 1 FROM ` + w.t("posts") + ` ap WHERE ap.post_author = u.ID AND ap.post_status = 'publish' AND ap.post_type IN (` + inTypes + `))`
}
