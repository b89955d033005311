package preset

import (
	"fmt"
	"testing"
	"time"

	"github.com/sitemapkit/sitemap/serve"
)

// The Drupal preset lists the published nodes in their default language
// at their newest published alias in their language (or in none), and
// /node/NID without one, encoded as Drupal's URL generator encodes a
// path, on each engine Drupal runs on, with and without a table prefix.
func TestDrupal(t *testing.T) {
	changed := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC).Unix()
	type node struct {
		nid          int
		lang         string
		status, dflt int
		title        string
	}
	nodes := []node{
		{1, "en", 1, 1, "About us"},
		{2, "en", 1, 1, "Zürich & Co"},
		{3, "en", 0, 1, "A draft"},
		{4, "en", 1, 1, "No alias"},
		{5, "en", 1, 1, "Renamed"},
		{6, "en", 1, 1, "Translated"},
		{6, "de", 1, 0, "Übersetzt"},
		{7, "en", 1, 1, "Alias unpublished"},
		{8, "en", 1, 1, "Question"},
		{9, "de", 1, 1, "German only"},
	}
	aliases := []struct {
		path, alias, lang string
		status            int
	}{
		{"/node/1", "/about-us", "en", 1},
		{"/node/2", "/news/Zürich & Co", "en", 1},
		{"/node/3", "/draft", "en", 1},
		{"/node/5", "/old-name", "en", 1},
		{"/node/5", "/new-name", "en", 1},
		{"/node/6", "/und-path", "und", 1},
		{"/node/6", "/de/uebersetzt", "de", 1},
		{"/node/7", "/hidden", "en", 0},
		{"/node/8", "/a/b/c?x=1 (new)", "en", 1},
		{"/node/9", "/wrong-language", "fr", 1},
	}
	lm := time.Unix(changed, 0).UTC().Format(time.RFC3339)
	want := []string{
		"https://drupal.example.com/about-us\t" + lm,
		"https://drupal.example.com/news/Z%C3%BCrich%20%26%20Co\t" + lm,
		"https://drupal.example.com/node/4\t" + lm,
		"https://drupal.example.com/new-name\t" + lm,
		"https://drupal.example.com/und-path\t" + lm,
		"https://drupal.example.com/node/7\t" + lm,
		"https://drupal.example.com/a/b/c%3Fx=1%20%28new%29\t" + lm,
		"https://drupal.example.com/node/9\t" + lm,
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			for _, prefix := range []string{"", "d10_"} {
				db := e.open(t)
				loadSchema(t, db, "testdata/drupal/schema-"+map[serve.Dialect]string{serve.MySQL: "mysql", serve.Postgres: "postgres", serve.SQLite: "sqlite"}[e.d]+".sql", prefix)
				for _, n := range nodes {
					if _, err := db.Exec(param(e.d, `INSERT INTO `+prefix+`node_field_data (nid, vid, type, langcode, status, uid, title, created, changed, promote, sticky, default_langcode)
						VALUES (?, ?, 'page', ?, ?, 1, ?, ?, ?, 0, 0, ?)`), n.nid, n.nid, n.lang, n.status, n.title, changed-86400, changed, n.dflt); err != nil {
						t.Fatal(err)
					}
				}
				for i, a := range aliases {
					if _, err := db.Exec(param(e.d, `INSERT INTO `+prefix+`path_alias (revision_id, uuid, langcode, path, alias, status) VALUES (?, ?, ?, ?, ?, ?)`),
						i+1, fmt.Sprintf("uuid-%d", i), a.lang, a.path, a.alias, a.status); err != nil {
						t.Fatal(err)
					}
				}
				p, err := Drupal(Options{Prefix: prefix, Dialect: e.d})
				if err != nil {
					t.Fatal(err)
				}
				got := listed(t, db, p, "https://drupal.example.com/")
				w := append([]string(nil), want...)
				sortStrings(w)
				sameList(t, got, w)
			}
		})
	}
}
