package robots

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	chk "github.com/sitemapkit/sitemap/internal/check"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// SitemapURL returns u as `sitemap robots add` writes it on a Sitemap:
// line: in its normal form (urlnorm.Normalize, L-18), the one `sitemap
// generate --robots` writes, so the two never list one sitemap twice,
// with what the normal form changed (0: nothing). The error says why u
// cannot be on a Sitemap: line ([CheckSitemapURL], or why it is no URL).
func SitemapURL(u string) (string, urlnorm.Changes, error) {
	n, ch, err := urlnorm.Normalize(u)
	if err != nil {
		if err := CheckSitemapURL(u); err != nil {
			return u, 0, err
		}
		if _, pr := chk.URL(u); !pr.OK() { // it refuses every URL without a normal form
			return u, 0, fmt.Errorf("sitemap URL %q %s (%s)", chk.EscapeControls(u), pr.Text(), pr.Rule)
		}
		return u, 0, fmt.Errorf("sitemap URL %v", err)
	}
	return n, ch, CheckSitemapURL(n)
}

// Change is one `sitemap robots add` or `remove`: the Sitemap: line of
// URL added to a robots.txt, or its lines removed.
type Change struct {
	// Remove removes the lines of URL instead of adding one.
	Remove bool
	// URL is the sitemap's URL, written as it is (see [SitemapURL]).
	URL string
}

// Changed is what a [Change] did.
type Changed struct {
	Edited
	Change
}

// Do makes the change through edit ([Edit.Apply] on bytes, or
// [Edit.File] on a file). A Remove that finds no line of URL removes
// those of its normal form (the line an add wrote for it), and Changed's
// URL is then that form.
func (c Change) Do(edit func(Edit) (Edited, error)) (Changed, error) {
	if !c.Remove {
		ed, err := edit(Edit{Add: c.URL})
		return Changed{ed, c}, err
	}
	ed, err := edit(Edit{Remove: []string{c.URL}})
	if n, ch, nerr := urlnorm.Normalize(c.URL); err == nil && !ed.Changed() && nerr == nil && ch != 0 {
		if ed, err = edit(Edit{Remove: []string{n}}); ed.Changed() {
			c.URL = n
		}
	}
	return Changed{ed, c}, err
}

// WriteText says what the change did to the robots.txt name, in one
// line ("robots.txt: added Sitemap: URL"), and warns (RB-11) when the
// file disallows the path of an added sitemap for a crawler.
func (c Changed) WriteText(w io.Writer, name string) {
	switch {
	case !c.Remove && !c.Changed():
		fmt.Fprintf(w, "%s: already lists Sitemap: %s; unchanged\n", name, c.URL)
	case !c.Remove && c.Created:
		fmt.Fprintf(w, "%s: created with Sitemap: %s\n", name, c.URL)
	case !c.Remove:
		fmt.Fprintf(w, "%s: added Sitemap: %s\n", name, c.URL)
	case !c.Changed():
		fmt.Fprintf(w, "%s: no Sitemap line lists %s; unchanged\n", name, c.URL)
	default:
		fmt.Fprintf(w, "%s: removed Sitemap: %s\n", name, c.URL)
	}
	if ua := c.Disallowed; ua != "" {
		fmt.Fprintf(w, "%s: warning RB-11: this robots.txt disallows %s for %s; crawlers will not fetch it\n", name, PathOf(c.URL), ua)
	}
}

// Run is `sitemap robots add|remove` as one call: c made to the
// robots.txt target, a file (written aside and renamed, [Edit.File]) or
// "-" (stdin read, the edited file written to stdout), then what was
// done said on diag ([Changed.WriteText]). An added URL is written in its
// normal form ([SitemapURL]), the rewrite said on diag first, so `add`
// and `generate --robots` never list one sitemap twice. A target that is
// an http(s) URL is refused: the file is edited where it is. The errors
// name the file and say what failed ("robots.txt: no such file").
func (c Change) Run(target string, stdin io.Reader, stdout, diag io.Writer) error {
	if urlnorm.IsHTTP(target) {
		action := map[bool]string{false: "add", true: "remove"}[c.Remove]
		return fmt.Errorf("%s: %s edits a local file; download it, edit it, and upload it", target, action)
	}
	if !c.Remove {
		n, changes, err := SitemapURL(c.URL)
		if changes != 0 {
			fmt.Fprintf(diag, "sitemap URL %q written as %q (%s; L-18)\n", chk.EscapeControls(c.URL), n, changes)
			c.URL = n
		}
		if err != nil {
			return err
		}
	}
	name := target
	edit := func(e Edit) (Edited, error) { return e.File(name) }
	if name == "-" {
		name = "<stdin>" // what every command calls it (input.StdinName)
		src, err := io.ReadAll(stdin)
		if err != nil {
			return fmt.Errorf("reading standard input: %v", err)
		}
		edit = func(e Edit) (Edited, error) { return e.Apply(src) }
	}
	done, err := c.Do(edit)
	if err := editError(name, err); err != nil {
		return err
	}
	if target == "-" {
		if _, err := stdout.Write(done.Out); err != nil {
			return fmt.Errorf("writing output: %v", err)
		}
	}
	done.WriteText(diag, name)
	return nil
}

// editError is the error of an edit of the robots.txt name that failed
// (nil for none), worded by the step that failed: a file that cannot be
// read as every command says it ("robots.txt: no such file"), without
// Go's "open NAME:".
func editError(name string, err error) error {
	var fe *FileError
	var pe *fs.PathError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &fe):
		return fmt.Errorf("%s: %v", name, err) // the content of standard input
	case fe.Op == "edit":
		return fmt.Errorf("%s: %v", name, fe.Err)
	case fe.Op == "read" && errors.As(fe.Err, &pe):
		if errors.Is(pe.Err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no such file", name)
		}
		return fmt.Errorf("%s: %v", name, pe.Err)
	case fe.Op == "write":
		return fmt.Errorf("%v; %s was left as it was: give a robots.txt in a directory you can write to", fe.Err, name)
	}
	return fe.Err // not a regular file
}
