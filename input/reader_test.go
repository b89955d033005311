package input

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/fetch"
)

func urlset(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "  <url><loc>%s</loc></url>\n", l)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

func index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "  <sitemap><loc>%s</loc></sitemap>\n", l)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

func gz(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// tree writes an index whose children are in sub/ (one gzip) plus one on
// another host, all URLs under site.
func tree(t *testing.T, site string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"sitemap_index.xml":  index(site+"sub/child-1.xml", site+"sub/child-2.xml.gz", "https://other.example.net/child-3.xml"),
		"sub/child-1.xml":    urlset(site+"a", site+"b"),
		"sub/child-2.xml.gz": gz(urlset(site + "c")),
		"child-3.xml":        urlset("https://other.example.net/x"), // read only with AllowOffSite
		"sub/not-listed.xml": urlset(site + "z"),
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// drain reads names into "loc source-base-name" lines and diagnostics:
// with o.Follow through Entries (the walk), else through a Reader.
func drain(t *testing.T, names []string, o Options) (locs []string, diags []string, err error) {
	t.Helper()
	o.OnDiagnostic = func(d sitemap.Diagnostic) {
		diags = append(diags, d.Severity.String()+" "+string(d.Rule)+" "+d.Message)
	}
	if o.Follow {
		err := Entries(names, o)(context.Background(), func(u *sitemap.URL) error {
			locs = append(locs, u.Loc+" "+filepath.Base(u.Source))
			return nil
		})
		return locs, diags, err
	}
	r, err := NewReader(context.Background(), names, o)
	if err != nil {
		return nil, nil, err
	}
	for {
		e, err := r.Next()
		if err == io.EOF {
			return locs, diags, nil
		}
		if err != nil {
			return locs, diags, err
		}
		locs = append(locs, e.URL.Loc+" "+filepath.Base(e.Doc.Name))
	}
}

func TestReaderLocalIndexWithBase(t *testing.T) {
	const site = "https://www.example.com/"
	dir := tree(t, site)
	locs, diags, err := drain(t, []string{filepath.Join(dir, "sitemap_index.xml")}, Options{Base: site, Follow: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{site + "a child-1.xml", site + "b child-1.xml", site + "c child-2.xml.gz"}
	if !slices.Equal(locs, want) {
		t.Errorf("got %q, want %q", locs, want)
	}
	if len(diags) != 1 || !strings.HasPrefix(diags[0], "error I-05 child sitemap https://other.example.net/child-3.xml is on another site than the index (https://www.example.com); ") {
		t.Errorf("diagnostics %q, want one I-05 error", diags)
	}

	// AllowOffSite: the off-site child is mapped like any other (its file
	// name beside the index) and read, after an I-05 warning.
	locs, diags, _ = drain(t, []string{filepath.Join(dir, "sitemap_index.xml")}, Options{Base: site, Follow: true, AllowOffSite: true})
	if len(diags) != 1 || !strings.HasPrefix(diags[0], "warning I-05 ") || !slices.Contains(locs, "https://other.example.net/x child-3.xml") {
		t.Errorf("allow off-site: %q %q", locs, diags)
	}

	// Without --base the children are looked for by file name beside the
	// index: sub/ is not found; the site of the index is unknown, so it is
	// its first child's, and the child on another host is I-05 as with
	// --base (it used to be read: nothing was off-site).
	locs, diags, err = drain(t, []string{filepath.Join(dir, "sitemap_index.xml")}, Options{Follow: true})
	if err != nil || len(locs) != 0 || len(diags) != 3 {
		t.Fatalf("no base: %q %q %v", locs, diags, err)
	}
	// The walk finds I-05 as it reads the index, before it opens the
	// children.
	if !strings.HasPrefix(diags[0], "error I-05 child sitemap https://other.example.net/child-3.xml is on another site than the index's first child (https://www.example.com), ") {
		t.Errorf("no base: %q, want an I-05 error", diags[0])
	}
	for _, d := range diags[1:] {
		if !strings.Contains(d, "error VAL-01 child sitemap "+site+"sub/child-") || !strings.Contains(d, "not found: no file "+dir) {
			t.Errorf("no base: %q", d)
		}
	}

	// Complete: a missing child stops the stream with an error naming it.
	_, _, err = drain(t, []string{filepath.Join(dir, "sitemap_index.xml")}, Options{Follow: true, Complete: true})
	var ce *ChildError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "child-1.xml not found: no file "+filepath.Join(dir, "child-1.xml")) {
		t.Errorf("complete: %v", err)
	}
}

// TestReaderReuseValues: with the decoder's ReuseValues, the Reader
// still follows every child of an index (it copies their locs: the
// decoder overwrites an entry's strings at the next one) and each entry
// is whole when Next returns it.
func TestReaderReuseValues(t *testing.T) {
	const site = "https://www.example.com/"
	dir := tree(t, site)
	name := []string{filepath.Join(dir, "sitemap_index.xml")}
	want, wantDiags, err := drain(t, name, Options{Base: site, Follow: true})
	if err != nil {
		t.Fatal(err)
	}
	got, diags, err := drain(t, name, Options{Base: site, Follow: true, Decoder: sitemap.DecoderOptions{ReuseValues: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || !slices.Equal(diags, wantDiags) {
		t.Errorf("ReuseValues: %q %q, want %q %q", got, diags, want, wantDiags)
	}
}

// TestReaderLoops: a local index that lists itself, a child listed twice,
// and a nested index that lists its parent are each read once, with the
// warnings of the HTTP walk (FETCH-LOOP, FETCH-DUP), however deep the
// walk may go.
func TestReaderLoops(t *testing.T) {
	const site = "https://www.example.com/"
	dir := t.TempDir()
	for name, body := range map[string]string{
		"index.xml":  index(site+"index.xml", site+"a.xml", site+"a.xml", site+"nested.xml"),
		"a.xml":      urlset(site + "a"),
		"nested.xml": index(site+"index.xml", site+"b.xml"),
		"b.xml":      urlset(site + "b"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	locs, diags, err := drain(t, []string{filepath.Join(dir, "index.xml")}, Options{Base: site, Follow: true, MaxDepth: 5})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{site + "a a.xml", site + "b b.xml"}; !slices.Equal(locs, want) {
		t.Errorf("locs %q, want %q", locs, want)
	}
	idx := filepath.Join(dir, "index.xml")
	want := []string{
		"warning FETCH-LOOP " + idx + " lists itself; read once",
		"info FETCH-DUP " + idx + " lists " + site + "a.xml, already read (first listed by " + idx + "); read once",
		"warning I-07 sitemap index listed by the index " + idx + "; indexes must not be nested (I-07); followed anyway",
		"warning FETCH-LOOP " + filepath.Join(dir, "nested.xml") + " lists " + site + "index.xml above it in the tree: a loop between " + filepath.Join(dir, "nested.xml") + " and " + idx + "; read once",
	}
	if !slices.Equal(diags, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(diags, "\n"), strings.Join(want, "\n"))
	}
}

func TestReaderDirectory(t *testing.T) {
	const site = "https://www.example.com/"
	dir := tree(t, site)
	// The directory's files: child-3.xml and the index, whose children
	// in sub/ are not files of the directory, so they are followed.
	locs, diags, err := drain(t, []string{dir}, Options{Base: site, Follow: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"https://other.example.net/x child-3.xml", site + "a child-1.xml", site + "b child-1.xml", site + "c child-2.xml.gz"}
	if !slices.Equal(locs, want) {
		t.Errorf("got %q, want %q (diags %q)", locs, want, diags)
	}
	if _, err := Resolve([]string{t.TempDir()}, Options{}); err == nil || !strings.Contains(err.Error(), "no sitemap file") {
		t.Errorf("empty directory: %v", err)
	}
	// The Base of a directory input is a directory, however it is spelt:
	// without its "/", or as the URL of one of its sitemap files.
	for _, b := range []string{strings.TrimSuffix(site, "/"), site + "sitemap.xml", site} {
		docs, err := Resolve([]string{dir}, Options{Base: b})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if want := site + filepath.Base(d.Path); d.URL != want {
				t.Errorf("--base %s: %s is served at %s, want %s", b, d.Path, d.URL, want)
			}
		}
	}
}

func TestReaderHTTP(t *testing.T) {
	var asked []string
	mux := http.NewServeMux()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()
	site := srv.URL + "/"
	dir := tree(t, site)
	mux.Handle("/", http.FileServer(http.Dir(dir)))
	mux.HandleFunc("/hop.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:1/elsewhere.xml", http.StatusFound)
	})
	client, err := fetch.NewClient(fetch.ClientOptions{HTTPClient: srv.Client(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Follow: true, Client: client}
	locs, diags, err := drain(t, []string{site + "sitemap_index.xml"}, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{site + "a child-1.xml", site + "b child-1.xml", site + "c child-2.xml.gz"}
	if !slices.Equal(locs, want) || len(diags) != 1 || !strings.HasPrefix(diags[0], "error I-05 ") {
		t.Errorf("got %q %q", locs, diags)
	}
	if !slices.Equal(asked, []string{"/sitemap_index.xml", "/sub/child-1.xml", "/sub/child-2.xml.gz"}) {
		t.Errorf("requests %q", asked)
	}

	// A 404 input is an *OpenError wrapping the client's *fetch.Error.
	_, _, err = drain(t, []string{site + "gone.xml"}, o)
	var oe *OpenError
	if !errors.As(err, &oe) || fetch.KindOf(err) != fetch.KindNotFound || err.Error() != site+"gone.xml: HTTP 404 Not Found" {
		t.Errorf("404: %v", err)
	}
	// A child that redirects off-site is refused before the request.
	os.WriteFile(filepath.Join(dir, "hopper.xml"), []byte(index(site+"hop.xml")), 0o644)
	_, diags, _ = drain(t, []string{site + "hopper.xml"}, o)
	if len(diags) != 1 || !strings.Contains(diags[0], "error FETCH-HTTP ") || !strings.Contains(diags[0], "another site than the index (I-05); not followed") {
		t.Errorf("off-site redirect: %q", diags)
	}
}

func TestResolve(t *testing.T) {
	if _, err := Resolve([]string{"-", "-"}, Options{}); err == nil {
		t.Error("stdin twice accepted")
	}
	// An empty name is said to be one: it was taken for an http(s) URL
	// ("needs an HTTP client", or with one a request of "").
	if _, err := Resolve([]string{"a.xml", ""}, Options{}); err == nil || !strings.Contains(err.Error(), "an empty input name") {
		t.Errorf("empty name: %v", err)
	}
	if _, err := Resolve([]string{"a.xml"}, Options{Base: "ftp://x/"}); err == nil {
		t.Error("ftp base accepted")
	}
	// A URL without a host is refused at once: it was requested, and
	// retried three times ("http: no Host in request URL").
	for _, u := range []string{"http://", "https:///sitemap.xml", "http://[::1"} {
		if _, err := Resolve([]string{u}, Options{}); err == nil || !strings.Contains(err.Error(), "not a valid http(s) URL") {
			t.Errorf("%s: %v; want it refused", u, err)
		}
	}
	if _, err := Resolve([]string{"a.xml"}, Options{Base: "www.example.com"}); err == nil || !strings.HasSuffix(err.Error(), "; give the URL the files are served at, such as https://www.example.com/") {
		t.Errorf("a bare host as base: %v; want it refused with the URL to give", err)
	}
	docs, err := Resolve([]string{"dir/a b.xml", "HTTPS://x.example/s.xml", "-"}, Options{Base: "https://www.example.com/maps/"})
	if err != nil {
		t.Fatal(err)
	}
	if docs[0].URL != "https://www.example.com/maps/a%20b.xml" || !docs[1].IsHTTP() || !docs[2].Stdin || docs[2].URL != "https://www.example.com/maps/" {
		t.Errorf("%+v", docs)
	}
	// A site's root without its "/" is that directory, not a file: the
	// file's URL is below it, and its children map to files below the file.
	for _, base := range []string{"https://www.example.com", "https://www.example.com:8443"} {
		docs, err = Resolve([]string{filepath.FromSlash("pub/sitemap.xml"), "-"}, Options{Base: base})
		if err != nil {
			t.Fatal(err)
		}
		if docs[0].URL != base+"/sitemap.xml" || docs[1].URL != base+"/" {
			t.Errorf("base %s: URLs %q, %q; want %s/sitemap.xml and %s/", base, docs[0].URL, docs[1].URL, base, base)
		}
		c, err := Child(&docs[0], base+"/sub/a.xml", false)
		if err != nil || c.Path != filepath.FromSlash("pub/sub/a.xml") {
			t.Errorf("base %s: child %q, %v; want pub/sub/a.xml", base, c.Path, err)
		}
	}
	_, err = Open(context.Background(), &Doc{Name: "nope.xml", Path: "nope.xml"}, Options{})
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != "nope.xml: no such file" {
		t.Errorf("missing file: %v", err)
	}
}

func TestChild(t *testing.T) {
	local := &Doc{Name: "pub/idx.xml", Path: "pub/idx.xml", URL: "https://www.example.com/maps/idx.xml"}
	for _, tc := range []struct {
		parent *Doc
		loc    string
		want   string // Path, or URL for an HTTP child, or "error: ..."
	}{
		{local, "https://www.example.com/maps/sub/a.xml", filepath.FromSlash("pub/sub/a.xml")},
		{local, "https://WWW.example.com:443/maps/a%20b.xml", filepath.FromSlash("pub/a b.xml")},
		{local, "https://www.example.com/other/a.xml", filepath.FromSlash("pub/a.xml")}, // not below: file name
		{local, "https://cdn.example.com/maps/a.xml", "error: " + (&OffSiteError{Loc: "https://cdn.example.com/maps/a.xml", Index: local.URL}).Error()},
		{local, "https://www.example.com/maps/", "error: names no file"},
		{local, "https://www.example.com/maps/%2e%2e/x.xml", "error: leaves the index's directory"},
		{local, "/relative.xml", "error: not an absolute http(s) URL"},
		{&Doc{Name: "i.xml", Path: "i.xml"}, "https://any.example/x/y.xml", "y.xml"},
		{&Doc{Name: "-", Stdin: true}, "https://any.example/y.xml", "error: children of an index read from standard input are not followed; give the index as a file or URL to read them"},
		{&Doc{Name: "https://a.example/i.xml", URL: "https://a.example/i.xml"}, "https://a.example/s/1.xml", "https://a.example/s/1.xml"},
	} {
		c, err := Child(tc.parent, tc.loc, false)
		got := c.Path
		if c.IsHTTP() {
			got = c.URL
		}
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tc.want {
			t.Errorf("Child(%s, %s) = %q, want %q", tc.parent.Name, tc.loc, got, tc.want)
		}
	}
}

// TestChildBesideIndex: a loc mapped below the index whose file is not
// there is the file of its name beside the index when that one exists
// (--base https://www.example.com/maps for public/sitemap.xml served in
// /maps/: its children are in public/, not public/maps/).
func TestChildBesideIndex(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"sitemap-1.xml", "sub/b.xml"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(urlset("https://www.example.com/maps/a")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	parent := &Doc{Name: "idx", Path: filepath.Join(dir, "sitemap.xml"), URL: "https://www.example.com/maps"}
	for loc, want := range map[string]string{
		"https://www.example.com/maps/sitemap-1.xml":    "sitemap-1.xml", // not in maps/: beside the index
		"https://www.example.com/sub/b.xml":             "sub/b.xml",     // below, where it is
		"https://www.example.com/maps/x.xml":            "maps/x.xml",    // nowhere: the mapped path is reported
		"https://www.example.com/maps/..%2Fsub%2Fb.xml": "error",         // a name never leaves the directory
	} {
		c, err := Child(parent, loc, false)
		got := "error"
		if err == nil {
			got, _ = filepath.Rel(dir, c.Path)
			got = filepath.ToSlash(got)
		}
		if got != want {
			t.Errorf("Child(%s) = %s (%v), want %s", loc, got, err, want)
		}
	}
}

// SkipDuplicates returns each loc once across documents and counts the
// rest; without it every entry is returned.
func TestReaderSkipDuplicates(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("https://www.example.com/1\nhttps://www.example.com/2\nhttps://www.example.com/1\n"), 0o644)
	os.WriteFile(b, []byte("https://www.example.com/2\nhttps://www.example.com/3\n"), 0o644)
	for _, skip := range []bool{false, true} {
		r, err := NewReader(context.Background(), []string{a, b}, Options{SkipDuplicates: skip, DedupMemory: 1 << 10})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			e, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.TrimPrefix(e.URL.Loc, "https://www.example.com/"))
		}
		want, dups := []string{"1", "2", "1", "2", "3"}, int64(0)
		if skip {
			want, dups = []string{"1", "2", "3"}, 2
		}
		if !slices.Equal(got, want) || r.Duplicates() != dups {
			t.Errorf("SkipDuplicates %v: got %q with %d duplicates, want %q and %d", skip, got, r.Duplicates(), want, dups)
		}
		r.Close()
	}
}

// TestResolveDirectorySymlinks: a directory's symbolic link to a sitemap
// file is read as the file (a web server serves it; it was skipped without
// a word), a link to a directory or to nothing is not.
func TestResolveDirectorySymlinks(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("https://www.example.com/a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt")
	if err := os.Mkdir(filepath.Join(dir, "d.xml"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"b.xml": "a.txt", "broken.xml": "nowhere.xml", "dir.xml": "d.xml"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	docs, err := Resolve([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, filepath.Base(d.Path))
	}
	if strings.Join(got, " ") != "a.txt b.xml" {
		t.Errorf("files %q; want a.txt b.xml", got)
	}
}

// TestOpenHTTPBodyCutShort: a body that ends before the Content-Length
// the server announced (the connection closed) says so; the reader's bare
// "unexpected EOF" was all validate and parse printed.
func TestOpenHTTPBodyCutShort(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte(urlset("https://www.example.com/a")))
	}))
	defer srv.Close()
	client, err := fetch.NewClient(fetch.ClientOptions{HTTPClient: srv.Client(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	d := &Doc{Name: srv.URL + "/sitemap.xml", URL: srv.URL + "/sitemap.xml"}
	rc, err := Open(context.Background(), d, Options{Client: client})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	_, err = io.ReadAll(rc)
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "the connection closed after ") ||
		!strings.Contains(err.Error(), "bytes, before the end of the body") {
		t.Errorf("err %v; want one saying the connection closed before the end of the body", err)
	}
}

// TestReaderRedirectToRead: a child that redirects to a sitemap read
// already (another child of the index) is read once, with the FETCH-DUP
// note of a child listed twice. It was read again, so every URL of it
// came twice.
func TestReaderRedirectToRead(t *testing.T) {
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	site := srv.URL + "/"
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, index(site+"a.xml", site+"old.xml", site+"b.xml"))
	})
	mux.HandleFunc("/a.xml", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, urlset(site+"a")) })
	mux.HandleFunc("/b.xml", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, urlset(site+"b")) })
	mux.HandleFunc("/old.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/a.xml", http.StatusMovedPermanently)
	})
	client, err := fetch.NewClient(fetch.ClientOptions{HTTPClient: srv.Client(), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	locs, diags, err := drain(t, []string{site + "index.xml"}, Options{Follow: true, Client: client})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{site + "a a.xml", site + "b b.xml"}; !slices.Equal(locs, want) {
		t.Errorf("locs %q, want %q", locs, want)
	}
	want := []string{"info FETCH-DUP " + site + "index.xml lists " + site + "old.xml, which redirects to " + site + "a.xml, already read (first listed by " + site + "index.xml); read once"}
	if !slices.Equal(diags, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(diags, "\n"), strings.Join(want, "\n"))
	}
}

// TestIsSiteStart: a homepage or robots.txt URL is a site; a directory
// below the root is a document (a WordPress feed is at /feed/).
func TestIsSiteStart(t *testing.T) {
	for name, want := range map[string]bool{
		"https://www.example.com/":            true,
		"https://www.example.com":             true,
		"http://www.example.com:8080/":        true,
		"https://www.example.com/robots.txt":  true,
		"https://www.example.com/ROBOTS.TXT":  true,
		"https://www.example.com/?q=1":        true,
		"https://www.example.com/feed/":       false,
		"https://www.example.com/sitemap.xml": false,
		"www.example.com":                     false,
		"robots.txt":                          false,
		"-":                                   false,
		"":                                    false,
	} {
		if got := IsSiteStart(name); got != want {
			t.Errorf("IsSiteStart(%q) = %v, want %v", name, got, want)
		}
	}
}
