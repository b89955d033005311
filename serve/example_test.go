package serve_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/serve"
	_ "modernc.org/sqlite"
)

// fetch asks h for path as a crawler would and prints the status and body.
func fetch(h http.Handler, path string) {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "https://www.example.com"+path, nil))
	b, _ := io.ReadAll(w.Result().Body)
	fmt.Printf("%s %d %s\n%s", path, w.Code, w.Header().Get("Content-Type"), b)
}

// A table of pages served as sitemaps from a program's own server: the
// index and pages of at most PerPage URLs, cut by keyset on the loc, each
// page's lastmod the newest of its rows. A loc stored relative is resolved
// against BaseURL. With PostgreSQL, open db with pgx's database/sql driver
// ("pgx"); the Query is the same. Handler.Run keeps the pages current in
// the background (what `sitemap serve --db` does); Options.CacheDir keeps
// them on disk for a large table.
func ExampleSQL() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	db, err := sql.Open("sqlite", filepath.Join(dir, "site.sqlite"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	db.Exec(`CREATE TABLE pages (url TEXT PRIMARY KEY, updated_at TEXT)`)
	db.Exec(`INSERT INTO pages VALUES ('https://www.example.com/', '2026-11-02 10:00:00'),
		('https://www.example.com/about', '2026-10-01 08:00:00'), ('/blog', '2026-11-20 12:30:00')`)

	src, err := serve.SQL(ctx, db, serve.Query{Table: "pages", Columns: serve.Columns{Loc: "url", LastMod: "updated_at"}})
	if err != nil {
		fmt.Println(err) // a wrong table or column name is found here
		return
	}
	h, err := serve.NewHandler(src, serve.Options{BaseURL: "https://www.example.com/", PerPage: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := h.Refresh(ctx); err != nil { // build the pages before the first request
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle("/", h) // or under a prefix: the handler answers by the last path segment
	fetch(mux, "/sitemap.xml")
	fetch(mux, "/sitemap-2.xml")
	// Output:
	// /sitemap.xml 200 application/xml; charset=utf-8
	// <?xml version="1.0" encoding="UTF-8"?>
	// <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <sitemap><loc>https://www.example.com/sitemap-1.xml</loc><lastmod>2026-11-20T12:30:00Z</lastmod></sitemap>
	// <sitemap><loc>https://www.example.com/sitemap-2.xml</loc><lastmod>2026-10-01T08:00:00Z</lastmod></sitemap>
	// </sitemapindex>
	// /sitemap-2.xml 200 application/xml; charset=utf-8
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <url><loc>https://www.example.com/about</loc><lastmod>2026-10-01T08:00:00Z</lastmod></url>
	// </urlset>
}

// Entries a program holds (or computes) served through an iterator sorted
// by loc, which the handler ranges over again for every page. version
// says when they changed; nil means never.
func ExampleSeq() {
	pages := []sitemap.URL{
		{Loc: "https://www.example.com/b"},
		{Loc: "https://www.example.com/a", ChangeFreq: sitemap.Weekly},
	}
	slices.SortFunc(pages, func(x, y sitemap.URL) int { return strings.Compare(x.Loc, y.Loc) })
	seq := func(yield func(*sitemap.URL, error) bool) {
		for i := range pages {
			if !yield(&pages[i], nil) {
				return
			}
		}
	}
	h, err := serve.NewHandler(serve.Seq(seq, nil), serve.Options{BaseURL: "https://www.example.com/"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fetch(h, "/sitemap-1.xml")
	fetch(h, "/sitemap-2.xml") // past the last page
	// Output:
	// /sitemap-1.xml 200 application/xml; charset=utf-8
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <url><loc>https://www.example.com/a</loc><changefreq>weekly</changefreq></url>
	// <url><loc>https://www.example.com/b</loc></url>
	// </urlset>
	// /sitemap-2.xml 404 text/plain; charset=utf-8
	// 404 page not found
}

// A directory that `sitemap generate` (or generate.Run) published, served
// as a site should serve it: only the files a site publishes, with the
// right types, validators and 304s.
func ExampleDir() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "sitemap.xml"), []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.example.com/</loc></url>
</urlset>
`), 0o644)
	os.WriteFile(filepath.Join(dir, ".sitemap.xml.tmp"), []byte("half written"), 0o644)
	h, err := serve.Dir(dir, serve.DirOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fetch(h, "/sitemap.xml")
	fetch(h, "/.sitemap.xml.tmp")
	// Output:
	// /sitemap.xml 200 application/xml; charset=utf-8
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <url><loc>https://www.example.com/</loc></url>
	// </urlset>
	// /.sitemap.xml.tmp 404 text/plain; charset=utf-8
	// 404 page not found
}

// A server's log: one line per event, whatever the values hold.
func ExampleLogger() {
	l := serve.NewLogger(os.Stdout, "sitemap serve: ")
	l.Printf("listening on %s", "127.0.0.1:8080")
	l.Printf("entry left out: %s", "loc a\nb") // a newline in a value
	// Output:
	// sitemap serve: listening on 127.0.0.1:8080
	// sitemap serve: "entry left out: loc a\nb"
}

// Options.Log: what a handler tells its operator, through a Logger.
func ExampleOptions_Log() {
	var o serve.Options
	o.Log(serve.NewLogger(os.Stdout, "sitemap serve: ").Printf, nil, 2*time.Second)
	o.CheckError(errors.New("dial tcp 127.0.0.1:5432: connection refused"))
	o.CheckError(nil)
	// Output:
	// sitemap serve: dial tcp 127.0.0.1:5432: connection refused; serving the pages of the last check that succeeded until one does
	// sitemap serve: the source is read again: serving what it holds
}

// All walks a source once, in key order, with relative locs resolved:
// what `sitemap generate --db` writes sitemaps from.
func ExampleAll() {
	src := serve.Entries(func(ctx context.Context, yield func(*sitemap.URL) error) error {
		for _, loc := range []string{"/a", "/b"} {
			if err := yield(&sitemap.URL{Loc: loc}); err != nil {
				return err
			}
		}
		return nil
	}, nil)
	serve.All(src, "https://www.example.com/")(context.Background(), func(u *sitemap.URL) error {
		fmt.Println(u.Loc)
		return nil
	})
	// Output:
	// https://www.example.com/a
	// https://www.example.com/b
}

// DialectOf tells the SQL a database speaks from its driver.
func ExampleDialectOf() {
	db, _ := sql.Open("sqlite", ":memory:")
	defer db.Close()
	d, err := serve.DialectOf(db)
	fmt.Println(d, err)
	// Output: sqlite <nil>
}
