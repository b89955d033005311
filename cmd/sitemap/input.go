package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The INPUTs of "sitemap parse" and "sitemap validate": a file, "-" for
// standard input, or an http(s) URL; and the children of an index they
// read (I-07).

// docInput is one document to read.
type docInput struct {
	name string // for diagnostics: the path, "-" or the URL
	url  string // where it is served: the scope base ("" = unknown)
	path string // local file ("" for stdin and URLs)
	std  bool   // standard input
	// origin, when set, is the URL of the index this child came from: an
	// HTTP redirect to another scheme, host or port than it is refused
	// (I-05: the index's children are on its own site).
	origin string
}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// inputFor turns a command-line INPUT into a docInput, applying --base to
// local files.
func inputFor(arg, base string) (docInput, error) {
	switch {
	case arg == "-":
		return docInput{name: "-", url: base, std: true}, nil
	case isURL(arg):
		return docInput{name: arg, url: arg}, nil
	}
	in := docInput{name: arg, path: arg}
	if base != "" {
		if !isURL(base) {
			return in, fmt.Errorf("--base %q is not an http(s) URL", base)
		}
		if strings.HasSuffix(base, "/") {
			in.url = base + url.PathEscape(filepath.Base(arg))
		} else {
			in.url = base
		}
	}
	return in, nil
}

// docInputs turns the INPUT arguments into documents, applying --base to
// local files; standard input may be given once.
func docInputs(args []string, base string) ([]docInput, error) {
	var inputs []docInput
	stdin := 0
	for _, a := range args {
		in, err := inputFor(a, base)
		if err != nil {
			return nil, cannotRun("%v", err)
		}
		if in.std {
			if stdin++; stdin > 1 {
				return nil, cannotRun("standard input (-) given more than once")
			}
		}
		inputs = append(inputs, in)
	}
	return inputs, nil
}

// readInputs reads each top-level INPUT with doc, in order, stopping at the
// first that cannot run; then flushes the output, whose failure is
// reported as "writing WHAT: ..." (exit 2) unless an earlier error stands.
// An interrupted run returns ctx.Err() whatever else went wrong.
func readInputs(ctx context.Context, inputs []docInput, doc func(docInput) error, flush func() error, what string) error {
	var runErr error
	for _, in := range inputs {
		if runErr = doc(in); runErr != nil {
			break
		}
	}
	if err := flush(); err != nil && runErr == nil {
		runErr = cannotRun("writing %s: %v", what, err)
	}
	if runErr != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return runErr
}

// open returns the bytes of in. HTTP inputs need a 200 response.
func open(ctx context.Context, client *http.Client, in docInput, stdin io.Reader) (io.ReadCloser, error) {
	switch {
	case in.std:
		return io.NopCloser(stdin), nil
	case in.path != "":
		f, err := os.Open(in.path)
		if err != nil {
			return nil, err
		}
		if st, err := f.Stat(); err == nil && st.IsDir() {
			f.Close()
			return nil, errors.New("is a directory; give a sitemap file")
		}
		return f, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, in.name, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "sitemap-validate (+https://github.com/sitemapkit/sitemap)")
	if in.origin != "" {
		client = sameSiteRedirects(client, in.origin)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("GET %s: HTTP %s", in.name, resp.Status)
	}
	return resp.Body, nil
}

// childInput maps the loc of an index entry to the document to read: the
// URL itself when the index came from HTTP, else a local file beside the
// index (the loc's part under the index's directory URL, or its file name).
func childInput(parent docInput, loc string) (docInput, error) {
	u, err := url.Parse(loc)
	if err != nil || !isURL(loc) {
		return docInput{}, fmt.Errorf("not an absolute http(s) URL")
	}
	if parent.path == "" {
		if parent.std {
			return docInput{}, fmt.Errorf("children of an index read from standard input are not followed")
		}
		return docInput{name: loc, url: loc}, nil
	}
	dir := filepath.Dir(parent.path)
	rel := ""
	if parent.url != "" {
		if i := strings.LastIndexByte(parent.url, '/'); i >= 0 {
			if pre := parent.url[:i+1]; strings.HasPrefix(loc, pre) {
				rel = strings.TrimPrefix(u.EscapedPath(), mustPath(pre))
			}
		}
	}
	if rel == "" {
		rel = path.Base(u.EscapedPath())
	}
	rel, err = url.PathUnescape(rel)
	if err != nil || rel == "" || rel == "/" || rel == "." {
		return docInput{}, fmt.Errorf("names no file")
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." {
			return docInput{}, fmt.Errorf("leaves the index's directory")
		}
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	return docInput{name: p, url: loc, path: p}, nil
}

func mustPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.EscapedPath()
}

// unwrapPath drops the "open NAME: " prefix of a *fs.PathError, since the
// caller already names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(err, fs.ErrNotExist) {
			return errors.New("no such file")
		}
		return pe.Err
	}
	return err
}

// sameOrigin reports whether the http(s) URLs a and b have the same
// scheme, host and effective port (I-05's "same site"; the directory,
// I-06, is not compared).
func sameOrigin(a, b string) bool {
	ua, err := url.Parse(a)
	if err != nil {
		return false
	}
	ub, err := url.Parse(b)
	if err != nil {
		return false
	}
	return originOf(ua) == originOf(ub)
}

// originOf is scheme://host:port with the scheme and host lower case, a
// trailing dot of the host dropped and the default port made explicit.
func originOf(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + host + ":" + port
}

// sameSiteRedirects returns a copy of client (sharing its transport) that
// follows redirects only to the origin of index's URL.
func sameSiteRedirects(client *http.Client, index string) *http.Client {
	c := *client
	prev := client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !sameOrigin(index, req.URL.String()) {
			return fmt.Errorf("redirected to %s, another site than the index (I-05); not followed", req.URL.Redacted())
		}
		if prev != nil {
			return prev(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}
