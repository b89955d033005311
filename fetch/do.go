package fetch

import (
	"context"
	"io"
	"net/http"
)

// Do sends req once and returns the server's response whatever its
// status, as [http.Client.Do] does: for the API clients the project uses
// (the S3 store's SDK), which build, sign, retry and read their own
// requests. What the Client adds is what every request of the project
// gets: its User-Agent (replacing req's), its Scope (the URL is its own
// site: --scope same-site passes, Allow lists and NoPrivate apply), its
// transport and timeouts (connect, response headers, Timeout over the
// request and its whole body, IdleTimeout between two reads of the body)
// and MaxBodyBytes. It follows no redirect (a 3xx is the response) and
// neither retries nor caches.
//
// A URL that is not http(s) or that the Scope refuses is an *Error
// (KindBadURL, KindScope) and nothing is sent; a failed exchange returns
// the transport's error as http.Client.Do does, so that the caller can
// tell what to retry. Close the body of a response.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	u := req.URL.String()
	if e := c.admit(req.URL, u, u); e != nil {
		return nil, e
	}
	deadline := &Error{Kind: KindTimeout, URL: u, Msg: "not done within " + c.o.Timeout.String() + " (per-request deadline)", Err: context.DeadlineExceeded}
	ctx, cancel := context.WithTimeoutCause(req.Context(), c.o.Timeout, deadline)
	ctx = context.WithValue(ctx, policyKey{}, &policy{max: -1, scope: c.scope, site: u})
	r := req.Clone(ctx)
	r.Header.Set("User-Agent", c.o.UserAgent)
	resp, err := c.hc.Do(r)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{idleBody: newIdleBody(resp.Body, c.o.IdleTimeout, ctx, cancel, nil, c.o.MaxBodyBytes), cancel: cancel}
	return resp, nil
}

// cancelBody ends the request's context when its body is closed.
type cancelBody struct {
	*idleBody
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.idleBody.Close()
	b.cancel()
	return err
}

var _ io.ReadCloser = (*cancelBody)(nil)
