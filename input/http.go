package input

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/sitemapkit/sitemap/internal/site"
)

// Request is one GET of an http(s) document.
type Request struct {
	// URL is the document to get.
	URL string
	// SameSite, when set, is the URL of the index that listed this one: a
	// redirect to another scheme, host or port than SameSite's must be
	// refused before it is requested (I-05), with an error that says so.
	SameSite string
}

// Getter fetches http(s) documents for [Open]. Get returns the body of a
// 200 response (the bytes as sent: gzip is sniffed by the reader) or an
// error; a response with another status is a [*StatusError].
type Getter interface {
	Get(ctx context.Context, req Request) (io.ReadCloser, error)
}

// StatusError is an HTTP response other than 200 OK.
type StatusError struct {
	URL    string
	Code   int
	Status string // "404 Not Found"
}

func (e *StatusError) Error() string { return "GET " + e.URL + ": HTTP " + e.Status }

// OffSiteRedirect is the error of a refused redirect of an index's child
// to another site (I-05).
type OffSiteRedirect struct {
	To string // the redirect's target, redacted
}

func (e *OffSiteRedirect) Error() string {
	return "redirected to " + e.To + ", another site than the index (I-05); not followed"
}

// HTTPGetter is a [Getter] over an *http.Client.
type HTTPGetter struct {
	// Client sends the requests (nil: http.DefaultClient). Its
	// CheckRedirect, if any, still applies to same-site redirects.
	Client *http.Client
	// UserAgent is sent with every request when not empty.
	UserAgent string
}

// Get implements [Getter].
func (g HTTPGetter) Get(ctx context.Context, r Request) (io.ReadCloser, error) {
	client := g.Client
	if client == nil {
		client = http.DefaultClient
	}
	if r.SameSite != "" {
		client = sameSiteRedirects(client, r.SameSite)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return nil, err
	}
	if g.UserAgent != "" {
		req.Header.Set("User-Agent", g.UserAgent)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, &StatusError{URL: r.URL, Code: resp.StatusCode, Status: resp.Status}
	}
	return resp.Body, nil
}

// sameSiteRedirects returns a copy of client (sharing its transport) that
// follows redirects only to the site of index.
func sameSiteRedirects(client *http.Client, index string) *http.Client {
	c := *client
	prev := client.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if !site.Same(index, req.URL.String()) {
			return &OffSiteRedirect{To: req.URL.Redacted()}
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
