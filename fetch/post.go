package fetch

import (
	"context"
	"strings"
)

// postBody is what a POST sends: the same bytes at every attempt; with
// head set, the request is a HEAD instead (no body).
type postBody struct {
	data        []byte
	contentType string
	head        bool
}

// Post sends data to u with the Content-Type contentType, through the
// same tries, timeouts, Scope, retries (honouring Retry-After) and
// redirect policy as [Client.Get], and returns the response as Get does:
// without GetOptions.AnyStatus anything but a 200 is an *Error. Every
// attempt sends the whole of data again, so use it for requests that
// may be repeated (an IndexNow submission is). GetOptions.Cache is
// ignored: an answer to a POST is never stored or made conditional.
func (c *Client) Post(ctx context.Context, u, contentType string, data []byte, g GetOptions) (*Response, error) {
	g.Cache = false
	resp, retries, actx, cancel, err := c.do(ctx, u, g, cacheMeta{}, false, &postBody{data: data, contentType: contentType})
	if err != nil {
		return nil, err
	}
	r := &Response{Status: resp.StatusCode, URL: u, FinalURL: resp.Request.URL.String(), Header: resp.Header,
		ContentType: resp.Header.Get("Content-Type"), ContentEncoding: resp.Header.Get("Content-Encoding"),
		Retries: retries, cancel: cancel}
	r.body = newIdleBody(resp.Body, c.o.IdleTimeout, actx, cancel, g.Count, c.o.MaxBodyBytes)
	return r, nil
}

// Head asks for u's headers only (HEAD), through the same tries,
// timeouts, Scope, retries and redirect policy as [Client.Get], and
// returns the response as Get does (its body is empty). A server that
// does not allow HEAD answers 405 or 501: the caller asks again with Get.
// GetOptions.Cache is ignored.
func (c *Client) Head(ctx context.Context, u string, g GetOptions) (*Response, error) {
	g.Cache = false
	resp, retries, actx, cancel, err := c.do(ctx, u, g, cacheMeta{}, false, &postBody{head: true})
	if err != nil {
		return nil, err
	}
	r := &Response{Status: resp.StatusCode, URL: u, FinalURL: resp.Request.URL.String(), Header: resp.Header,
		ContentType:     resp.Header.Get("Content-Type"),
		ContentEncoding: strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))),
		ETag:            resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"),
		Retries: retries, cancel: cancel}
	r.body = newIdleBody(resp.Body, c.o.IdleTimeout, actx, cancel, g.Count, c.o.MaxBodyBytes)
	return r, nil
}
