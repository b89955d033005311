package input

import (
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sitemapkit/sitemap/urlnorm"
)

// sameOrigin is the I-05 reference: net/url's scheme, host (as the scope
// rules compare it) and port (a number; the scheme's default when absent).
func sameOrigin(a, b string) bool {
	o := func(raw string) (string, bool) {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return "", false
		}
		s := strings.ToLower(u.Scheme)
		port := strings.TrimLeft(u.Port(), "0")
		switch {
		case u.Port() != "" && port == "":
			port = "0"
		case port == "" && s == "http":
			port = "80"
		case port == "" && s == "https":
			port = "443"
		}
		return s + "://" + urlnorm.Host(u.Hostname()) + ":" + port, s == "http" || s == "https"
	}
	oa, ok1 := o(a)
	ob, ok2 := o(b)
	return ok1 && ok2 && oa == ob
}

// FuzzChild maps any loc of an index to its child document, for an index
// read from a local file (with and without a Base URL), over HTTP and from
// standard input. It never panics; a local child is a file below the
// index's own directory, never the directory itself, an absolute path
// elsewhere or a path through ".."; a loc on another site than a known
// index URL is an *OffSiteError, never a document (unless allowOffSite),
// and every loc on the index's site is mapped or refused for a reason of
// its own; a child of standard input is never followed.
func FuzzChild(f *testing.F) {
	for _, s := range [][2]string{
		{"https://www.example.com/sub/a.xml", "https://www.example.com/sitemap.xml"},
		{"https://www.example.com/%2e%2e/x.xml", "https://www.example.com/sitemap.xml"},
		{"https://www.example.com/a/..%2f..%2fetc%2fpasswd", "https://www.example.com/"},
		{"https://www.example.com//etc/passwd", "https://www.example.com/"},
		{"https://www.example.com/sub/../../x.xml", "https://www.example.com/sub/"},
		{"https://www.example.com/a%00.xml", ""},
		{"https://evil.example/a.xml", "https://www.example.com/sitemap.xml"},
		{"https://www.example.com:0443/a.xml", "https://www.example.com/"},
		{"https://www.example.com./a.xml", "https://www.example.com/"},
		{"https://www.example.com/x/%2F%2Fa.xml", "https://www.example.com/x/idx.xml?q=/a/"},
		{"https://www.example.com/a\\..\\..\\b.xml", ""},
		{"https://www.example.com/x/idx.xml2/c.xml", "https://www.example.com/x/idx.xml?q=/"},
	} {
		f.Add(s[0], s[1], uint8(0))
	}
	f.Fuzz(func(t *testing.T, loc, base string, sel uint8) {
		dir := filepath.Join("pub", "sub")
		parents := []Doc{
			{Name: filepath.Join(dir, "sitemap.xml"), Path: filepath.Join(dir, "sitemap.xml"), URL: base},
			{Name: filepath.Join(dir, "sitemap.xml"), Path: filepath.Join(dir, "sitemap.xml")},
			{Name: base, URL: base},
			{Name: "-", Stdin: true, URL: base},
		}
		parent := parents[int(sel)%len(parents)]
		if parent.Path == "" && !parent.Stdin && !urlnorm.IsHTTP(base) {
			return // an index over HTTP has an http(s) URL
		}
		allow := sel&0x80 != 0
		child, err := Child(&parent, loc, allow)
		var off *OffSiteError
		if errors.As(err, &off) {
			if allow || parent.URL == "" || sameOrigin(parent.URL, loc) || off.Loc != loc || off.Index != parent.URL {
				t.Fatalf("Child(%+v, %q, %v): %v", parent, loc, allow, err)
			}
			return
		}
		if parent.URL != "" && !allow && !sameOrigin(parent.URL, loc) {
			if u, perr := url.Parse(loc); perr == nil && urlnorm.IsHTTP(loc) && u.Host != "" {
				t.Fatalf("Child(%+v, %q): %v, %+v; the loc is on another site", parent, loc, err, child)
			}
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if parent.Stdin {
			t.Fatalf("child %+v of standard input", child)
		}
		if child.Loc != loc || child.Depth != parent.Depth+1 {
			t.Fatalf("child %+v of loc %q", child, loc)
		}
		if parent.Path == "" {
			if child.Path != "" || child.URL != loc {
				t.Fatalf("child %+v of an HTTP index", child)
			}
			return
		}
		p := child.Path
		rel, rerr := filepath.Rel(dir, p)
		if rerr != nil || !filepath.IsLocal(rel) || rel == "." || filepath.IsAbs(p) {
			t.Fatalf("Child(%q under %q) = %q, outside %s (rel %q)", loc, base, p, dir, rel)
		}
		for _, seg := range strings.Split(filepath.ToSlash(p), "/") {
			if seg == ".." {
				t.Fatalf("Child(%q) = %q with ..", loc, p)
			}
		}
		// The rule of the package comment: a loc below the directory of the
		// index's URL is that path below the index file's directory.
		bu, err1 := url.Parse(parent.URL)
		lu, err2 := url.Parse(loc)
		if parent.URL == "" || err1 != nil || err2 != nil || !sameOrigin(parent.URL, loc) {
			return
		}
		bdir := bu.EscapedPath()
		bdir = bdir[:strings.LastIndexByte(bdir, '/')+1]
		if rest, ok := strings.CutPrefix(lu.EscapedPath(), bdir); ok && bdir != "" && rest != "" {
			if r, err := url.PathUnescape(rest); err == nil {
				if want := filepath.Join(dir, filepath.FromSlash(r)); p != want {
					t.Fatalf("Child(%q) under %q = %q, want %q", loc, parent.URL, p, want)
				}
			}
		}
	})
}

// TestChildPortNumber: a loc whose port is the index's written with
// leading zeros is on the index's site, as the validator's scope rule
// says; it was an *OffSiteError, so the child went unread while no I-05
// error said why (found by FuzzChild).
func TestChildPortNumber(t *testing.T) {
	parent := Doc{Name: "pub/sitemap.xml", Path: "pub/sitemap.xml", URL: "https://www.example.com/sitemap.xml"}
	child, err := Child(&parent, "https://www.example.com:0443/sub/c.xml", false)
	if err != nil || child.Path != filepath.Join("pub", "sub", "c.xml") {
		t.Fatalf("Child = %+v, %v; want pub/sub/c.xml", child, err)
	}
	if _, err := Child(&parent, "https://www.example.com:4430/c.xml", false); !errors.As(err, new(*OffSiteError)) {
		t.Fatalf("port 4430: %v, want an *OffSiteError", err)
	}
}

// TestChildIndexURLWithQuery: the directory of the index's URL is that of
// its path. It was taken up to the URL's last '/', which may be in the
// query: under https://www.example.com/x/idx.xml?q=/ the loc
// https://www.example.com/x/idx.xml2/c.xml became 2/c.xml (found by
// FuzzChild).
func TestChildIndexURLWithQuery(t *testing.T) {
	for _, tc := range []struct{ base, loc, want string }{
		{"https://www.example.com/x/idx.xml?q=/", "https://www.example.com/x/idx.xml2/c.xml", "idx.xml2/c.xml"},
		{"https://www.example.com/x/idx.php?type=index/a", "https://www.example.com/x/sub/c.xml", "sub/c.xml"},
		{"https://www.example.com/x/idx.xml#a/b", "https://www.example.com/x/sub/c.xml", "sub/c.xml"},
		{"https://www.example.com", "https://www.example.com/sub/c.xml", "c.xml"},
	} {
		parent := Doc{Name: "pub/sitemap.xml", Path: "pub/sitemap.xml", URL: tc.base}
		child, err := Child(&parent, tc.loc, false)
		if want := filepath.Join("pub", filepath.FromSlash(tc.want)); err != nil || child.Path != want {
			t.Errorf("Child(%q) under %q = %q, %v; want %q", tc.loc, tc.base, child.Path, err, want)
		}
	}
}
