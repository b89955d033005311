package input

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	sitemap "github.com/sitemapkit/sitemap"
	"github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/rules"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// OffSiteError is a child loc on another scheme, host or port than its
// index (I-05): not followed unless [Options.AllowOffSite].
type OffSiteError struct {
	Loc   string // the child's loc
	Index string // the index's URL, or its first child's loc when Inferred
	// Inferred is set when the index is a local file whose URL is unknown
	// (no Base): its site is then the site of its first child.
	Inferred bool
}

func (e *OffSiteError) Error() string { return e.message(false) }

func (e *OffSiteError) message(followed bool) string {
	hint := check.OffSiteHint(e.Loc, followed, "", false)
	if e.Inferred {
		return check.OffSiteInferred(e.Loc, e.Index, hint)
	}
	return check.OffSite(e.Loc, e.Index, hint)
}

// Diagnostic is the I-05 report of the off-site child: an error that
// says it was not followed, or, when followed (AllowOffSite), a warning.
func (e *OffSiteError) Diagnostic(followed bool) sitemap.Diagnostic {
	sev := sitemap.SeverityError
	if followed {
		sev = sitemap.SeverityWarning
	}
	return sitemap.Diagnostic{Rule: rules.I05, Severity: sev, Message: e.message(followed)}
}

// Child maps the loc of an entry of the index parent to the document to
// read, by the rule of the package comment. The error is an
// [*OffSiteError] for a loc on another site than the index (unless
// allowOffSite; for a local index without a known URL, the site of the
// first child Child was called with, so call it in the index's order), else says why the loc names no document: not an absolute
// http(s) URL, an index read from standard input, a path that names no
// file or leaves the index's directory.
func Child(parent *Doc, loc string, allowOffSite bool) (Doc, error) {
	u, err := url.Parse(loc)
	if err != nil || !urlnorm.IsHTTP(loc) || u.Host == "" {
		return Doc{}, errors.New("not an absolute http(s) URL")
	}
	child := Doc{Name: loc, URL: loc, Index: parent.URL, Loc: loc, Depth: parent.Depth + 1}
	if child.Index == "" {
		child.Index = parent.Name
	}
	if err := offSite(parent, loc); err != nil && !allowOffSite {
		return Doc{}, err
	}
	switch {
	case parent.Stdin:
		return Doc{}, errors.New("children of an index read from standard input are not followed; give the index as a file or URL to read them")
	case parent.Path == "":
		child.indexURL = parent.URL
		return child, nil
	}
	p, err := childPath(parent, u)
	if err != nil {
		return Doc{}, err
	}
	child.Name, child.Path = p, p
	return child, nil
}

// offSite returns the *OffSiteError of loc, a child of parent, when it is
// on another site than parent. A local index whose URL is unknown (no
// Base) takes the site of the first child it is asked about: the children
// of one index are on one site (I-05), so a second site among them is
// reported the same way with or without Base.
func offSite(parent *Doc, loc string) *OffSiteError {
	if parent.URL != "" {
		if !urlnorm.SameSite(parent.URL, loc) {
			return &OffSiteError{Loc: loc, Index: parent.URL}
		}
		return nil
	}
	if parent.Path == "" {
		return nil
	}
	if parent.firstChild == "" {
		parent.firstChild = loc
		return nil
	}
	if !urlnorm.SameSite(parent.firstChild, loc) {
		return &OffSiteError{Loc: loc, Index: parent.firstChild, Inferred: true}
	}
	return nil
}

// childPath is the local file of the child u of the local index parent.
func childPath(parent *Doc, u *url.URL) (string, error) {
	if strings.HasSuffix(u.EscapedPath(), "/") || u.EscapedPath() == "" {
		return "", errors.New("names no file")
	}
	rel := ""
	if parent.URL != "" && urlnorm.SameSite(parent.URL, u.String()) {
		// The directory of the index's URL: its path up to the last '/'
		// (not the last '/' of the whole URL, which may be in its query).
		if pu, err := url.Parse(parent.URL); err == nil {
			dir := pu.EscapedPath()
			dir = dir[:strings.LastIndexByte(dir, '/')+1]
			if dir != "" && strings.HasPrefix(u.EscapedPath(), dir) {
				rel = strings.TrimPrefix(u.EscapedPath(), dir)
			}
		}
	}
	if rel == "" {
		rel = path.Base(u.EscapedPath())
	}
	rel, err := url.PathUnescape(rel)
	if last := rel[strings.LastIndexByte(rel, '/')+1:]; err != nil || last == "" || last == "." {
		// "", "/", ".", "//." and an escaped "/" at the end (".%2f",
		// "a%2F") name a directory, not a file.
		return "", errors.New("names no file")
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." {
			return "", errors.New("leaves the index's directory")
		}
	}
	dir := filepath.Dir(parent.Path)
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if strings.Contains(rel, "/") {
		// Mapped below the index: when no file is there but one of the
		// loc's file name is beside the index, that is the child (a Base
		// that names the index's directory without its "/", a copy of
		// the sitemaps in one directory).
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			name, err := url.PathUnescape(path.Base(u.EscapedPath()))
			if err == nil && name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\\") {
				if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
					return filepath.Join(dir, name), nil
				}
			}
		}
	}
	return p, nil
}

// NotFound is the message for a local child file that does not exist:
// which file was looked for, and how children map to files.
func NotFound(child *Doc) string {
	return fmt.Sprintf("child sitemap %s not found: no file %s (a child is looked for beside the index, by its path under --base or else by its file name)", child.Loc, child.Path)
}
