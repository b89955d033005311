package input

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"

	"github.com/sitemapkit/sitemap/robots"
	"github.com/sitemapkit/sitemap/urlnorm"
)

// RobotsTxt is a robots.txt as [ReadRobots] read it.
type RobotsTxt struct {
	// File is the parsed file; nil when a URL answered 4xx: no
	// robots.txt, so no rules and no sitemaps (RFC 9309 §2.3.1.3).
	File *robots.File
	// Name is what messages call it: the URL that answered, StdinName or
	// the file's name.
	Name string
	// Base is the URL that answered (relative Sitemap: values resolve
	// against it); nil for a file or standard input.
	Base *url.URL
	// Status is the HTTP status of the answer (0 for a file).
	Status int
}

// ReadRobots reads the robots.txt name gives, at most maxBytes of it
// (robots.WithMaxBytes: at least robots.DefaultMaxBytes): an http(s) URL through o.Client (a site's URL
// stands for its /robots.txt, fetch.Client.RobotsTxt: the client's
// RobotsMaxBytes applies), "-" for o.Stdin, else a file. A URL that
// answers 4xx is no error: File is nil. The errors say what could not be
// read, in one line ("robots.txt: no such file").
func ReadRobots(ctx context.Context, name string, o Options, maxBytes int) (RobotsTxt, error) {
	popt := robots.WithMaxBytes(maxBytes)
	switch {
	case urlnorm.IsHTTP(name):
		if o.Client == nil {
			return RobotsTxt{}, errors.New("http(s) input needs an HTTP client (input.Options.Client)")
		}
		r, err := o.Client.RobotsTxt(ctx, name)
		if r == nil {
			return RobotsTxt{}, err
		}
		final, perr := url.Parse(r.FinalURL)
		if perr != nil {
			final, _ = url.Parse(r.URL)
		}
		// Parse read one byte past the limit to notice truncation; the
		// rest of an endless body is never read.
		return RobotsTxt{File: r.File, Name: final.String(), Base: final, Status: r.Status}, err
	case name == "-":
		f, err := robots.Parse(o.Stdin, popt)
		if err != nil {
			return RobotsTxt{}, fmt.Errorf("reading standard input: %v", err)
		}
		return RobotsTxt{File: f, Name: StdinName}, nil
	}
	fh, err := os.Open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if errors.Is(err, fs.ErrNotExist) {
			return RobotsTxt{}, fmt.Errorf("%s: no such file", name)
		}
		return RobotsTxt{}, fmt.Errorf("%s: %v", name, err)
	}
	defer fh.Close()
	if st, err := fh.Stat(); err == nil && st.IsDir() {
		return RobotsTxt{}, fmt.Errorf("%s: is a directory; give a robots.txt file", name)
	}
	f, err := robots.Parse(fh, popt)
	if err != nil {
		return RobotsTxt{}, fmt.Errorf("reading %s: %v", name, err)
	}
	return RobotsTxt{File: f, Name: name}, nil
}
