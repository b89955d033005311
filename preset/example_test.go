package preset_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/sitemapkit/sitemap/preset"
	"github.com/sitemapkit/sitemap/serve"
)

// The MediaWiki preset: the query and URL rule serve.SQL takes, and what
// --print-query shows.
func ExampleMediaWiki() {
	p, err := preset.MediaWiki(preset.Options{ArticlePath: "/$1", Dialect: serve.SQLite})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Query.Key, p.Query.Columns.Loc, p.Query.URL("Zürich_&_Co"))
	// Output: id title /Z%C3%BCrich_%26_Co
}

// A title as MediaWiki writes it into a URL.
func ExampleWikiURLEncode() {
	fmt.Println(preset.WikiURLEncode("AC/DC_(band)?"))
	// Output: AC/DC_(band)%3F
}

// The Drupal preset's query with its rules, as --print-query prints it.
func ExampleDrupal() {
	p, _ := preset.Drupal(preset.Options{Prefix: "d10_", Dialect: serve.Postgres})
	first, _, _ := strings.Cut(p.String(), "\n")
	fmt.Println(first)
	// Output: -- sitemap preset drupal: key nid, loc path, lastmod changed
}

// The presets there are.
func ExampleNames() {
	fmt.Println(preset.Names())
	// Output: [drupal mediawiki wordpress]
}

// A program serves a WordPress site's sitemaps from its database:
// Load reads the site's settings, serve.SQL pages the query.
func ExampleLoad() {
	ctx := context.Background()
	db, err := serve.OpenDB("mysql://wordpress:secret@127.0.0.1:3306/wordpress")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	p, err := preset.Load(ctx, db, "wordpress", preset.Options{})
	if err != nil {
		fmt.Println(err) // not a WordPress database, or not reachable
		return
	}
	src, err := serve.SQL(ctx, db, p.Query)
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := serve.NewHandler(src, serve.Options{BaseURL: "https://blog.example.com/"})
	if err != nil {
		fmt.Println(err)
		return
	}
	http.ListenAndServe(":8080", h)
}

// WordPress reads the settings of the site in db (home URL, permalinks,
// front page) and returns its query.
func ExampleWordPress() {
	var db *sql.DB // opened with serve.OpenDB("mysql://…")
	if db == nil {
		return
	}
	p, err := preset.WordPress(context.Background(), db, preset.Options{Prefix: "wp_", PostTypes: []string{"product"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(p) // the query with its rules as SQL comments
}

// Preset.String is what `sitemap serve --preset NAME --print-query`
// prints: rules as SQL comments, then the query to copy and change.
func ExamplePreset_String() {
	p, _ := preset.MediaWiki(preset.Options{Dialect: serve.MySQL})
	first, _, _ := strings.Cut(p.String(), "\n")
	fmt.Println(first)
	// Output: -- sitemap preset mediawiki: key id, loc title, lastmod touched
}

// Settings open a CMS's database as `sitemap serve --db … --preset
// mediawiki` does; as a serve.Database they are the DB of
// serve.Settings, so serve.Run serves the wiki.
func ExampleSettings_Open() {
	s := preset.Settings{SQLSettings: serve.SQLSettings{DB: "mysql://wiki:secret@127.0.0.1:3306/wiki", Preset: "mediawiki"}, ArticlePath: "/w/$1"}
	if err := s.Check(); err != nil {
		fmt.Println(err)
		return
	}
	src, closeSrc, err := s.Open(context.Background(), os.Stdout, nil)
	if err != nil {
		fmt.Println(err) // names --db or --preset
		return
	}
	defer closeSrc()
	fmt.Println(src.KeyColumn())
}

// Check refuses the preset's flags that do not go together.
func ExampleSettings_Check() {
	s := preset.Settings{SQLSettings: serve.SQLSettings{DB: "wiki.sqlite", Preset: "mediawiki", Table: "page"}}
	fmt.Println(s.Check())
	// Output: --preset gives the query: drop --table, --query, --columns and --key (--print-query shows it, to copy and change)
}
