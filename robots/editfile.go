package robots

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/sitemapkit/sitemap/store"
)

// Edit is a change of the Sitemap: lines of a robots.txt file, made by
// [Edit.Apply] on its bytes or by [Edit.File] on a file, every other byte
// kept (RB-13). It is what `sitemap robots add` and `remove` do, and what
// `sitemap generate --robots` does after publishing.
type Edit struct {
	// Add is the URL of a Sitemap: line to add after the groups
	// ([AddSitemap]), unless the file lists it already; "" adds none.
	Add string
	// Remove are the URLs whose Sitemap: lines go, each compared exactly
	// ([RemoveSitemap]), after Add is added.
	Remove []string
}

// Edited is what an [Edit] did.
type Edited struct {
	// Out is the file after the edit (its input when nothing changed).
	Out []byte
	// Added is set when the Add line was added; false when the file
	// listed it already.
	Added bool
	// Removed are the URLs of Edit.Remove that had a line, in order.
	Removed []string
	// Created is set by [Edit.File] when the file did not exist and was
	// written (Add given).
	Created bool
	// Disallowed, after an Add, is the first of the user agents "*",
	// "Googlebot" and "bingbot" for which the file disallows the sitemap's
	// path: crawlers would not fetch it (RB-11). "" when none does.
	Disallowed string
}

// Changed reports whether the edit changed the file.
func (e Edited) Changed() bool { return e.Added || len(e.Removed) > 0 }

// Apply makes the edit on src, the bytes of a robots.txt file (nil for a
// new one). Its errors are those of [AddSitemap] and [RemoveSitemap] (an
// invalid sitemap URL, [ErrUTF16], [ErrBinary], a file that would be too large).
func (e Edit) Apply(src []byte) (Edited, error) {
	ed := Edited{Out: src}
	var err error
	if e.Add != "" {
		if ed.Out, ed.Added, err = AddSitemap(src, e.Add); err != nil {
			return Edited{Out: src}, err
		}
	}
	for _, u := range e.Remove {
		var changed bool
		if ed.Out, changed, err = RemoveSitemap(ed.Out, u); err != nil {
			return Edited{Out: src}, err
		}
		if changed {
			ed.Removed = append(ed.Removed, u)
		}
	}
	if e.Add != "" {
		f := ParseBytes(ed.Out)
		for _, ua := range [...]string{"*", "Googlebot", "bingbot"} {
			if !f.Allowed(ua, e.Add) {
				ed.Disallowed = ua
				break
			}
		}
	}
	return ed, nil
}

// File makes the edit on the robots.txt file path and writes it back
// only when it changed: aside and renamed into place (store.WriteFile),
// with the file's permissions (0644 for a new file). A missing file is
// created when the edit adds a line, and an error otherwise.
//
// An error is a *[FileError] saying which step failed: reading the file
// (its *fs.PathError, or a path that is not a regular file), the edit of
// its content ([Edit.Apply]'s error), or writing it; the file is then as
// it was.
func (e Edit) File(path string) (Edited, error) {
	var mode fs.FileMode = 0o644
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && e.Add != "":
		st = nil
	case err != nil:
		return Edited{}, &FileError{Op: "read", Path: path, Err: err}
	case !st.Mode().IsRegular():
		return Edited{}, &FileError{Op: "read", Path: path, Err: fmt.Errorf("%s is not a regular file (a directory?); give the path of the robots.txt file, such as public/robots.txt", path)}
	default:
		mode = st.Mode().Perm()
	}
	var src []byte
	if st != nil {
		if src, err = os.ReadFile(path); err != nil {
			return Edited{}, &FileError{Op: "read", Path: path, Err: err}
		}
	}
	ed, err := e.Apply(src)
	if err != nil {
		return ed, &FileError{Op: "edit", Path: path, Err: err}
	}
	if !ed.Changed() {
		return ed, nil
	}
	if err := store.WriteFile(path, ed.Out, mode); err != nil {
		return Edited{Out: src}, &FileError{Op: "write", Path: path, Err: err}
	}
	ed.Created = st == nil
	return ed, nil
}

// FileError is an error of [Edit.File]. Op is the step that failed:
// "read", "edit" (the content could not take the edit; Err is
// [Edit.Apply]'s) or "write".
type FileError struct {
	Op   string
	Path string
	Err  error
}

// Error is Err's message; for an edit, after the path ("robots.txt: …").
func (e *FileError) Error() string {
	if e.Op == "edit" {
		return e.Path + ": " + e.Err.Error()
	}
	return e.Err.Error()
}

func (e *FileError) Unwrap() error { return e.Err }
