package input

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"time"

	"github.com/sitemapkit/sitemap/fetch"
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

// RobotsListOptions are the options of [ListRobots], as `sitemap robots
// list` takes them.
type RobotsListOptions struct {
	// Format is text, json or jsonl (robots.List.Write).
	Format string
	// Timeout is the time limit of reading a URL, above 0.
	Timeout time.Duration
	// MaxBytes is read at most (robots.WithMaxBytes).
	MaxBytes int
	// MaxPerRule is the most warnings of one rule written (0: all).
	MaxPerRule int
	// UserAgent and Scope are those of the HTTP client of a URL.
	UserAgent string
	Scope     fetch.Scope
	// Stdin is what "-" reads.
	Stdin io.Reader
}

// ListRobots is `sitemap robots list` as one call: the robots.txt name
// gives ([ReadRobots]: a URL within o.Timeout, "-" or a file) written to
// out as robots.List in o.Format, its warnings on diag (capped per
// rule). A URL that answers 4xx is said on diag (and written as an empty
// list in json). It reports whether the file has problems: none there,
// a Sitemap: line that is wrong, or a file cut at MaxBytes. The errors
// name the flag or the file; a failed write is "writing output: …".
func ListRobots(ctx context.Context, name string, o RobotsListOptions, out, diag io.Writer) (problems bool, err error) {
	switch o.Format {
	case "text", "json", "jsonl":
	default:
		return false, fmt.Errorf("--format %q: want text, json or jsonl", o.Format)
	}
	if o.Timeout <= 0 {
		return false, fmt.Errorf("--timeout %v: use a positive duration, such as 30s", o.Timeout)
	}
	in := Options{Stdin: o.Stdin}
	if urlnorm.IsHTTP(name) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
		if in.Client, err = fetch.NewClient(fetch.ClientOptions{UserAgent: o.UserAgent, Timeout: o.Timeout, RobotsMaxBytes: o.MaxBytes, Scope: o.Scope}); err != nil {
			return false, err
		}
		defer in.Client.CloseIdleConnections()
	}
	rt, err := ReadRobots(ctx, name, in, o.MaxBytes)
	if err != nil {
		return false, err
	}
	if rt.File == nil {
		l := robots.NotFound(rt.Name, rt.Status)
		fmt.Fprintf(diag, "%s: %s\n", rt.Name, l.Warnings[0].Message)
		if o.Format == "json" { // the same document shape as for any other answer
			if err := l.Write(out, "json"); err != nil {
				return true, fmt.Errorf("writing output: %v", err)
			}
		}
		return true, nil
	}
	l, swarn := robots.ListOf(rt.File, rt.Name, rt.Base)
	l.WriteWarnings(diag, o.MaxPerRule)
	if err := l.Write(out, o.Format); err != nil {
		return true, fmt.Errorf("writing output: %v", err)
	}
	return len(swarn) > 0 || rt.File.Truncated(), nil
}
