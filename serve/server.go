package serve

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"time"
)

// ServerOptions configure [ListenAndServe].
type ServerOptions struct {
	// Addr is the HOST:PORT the site is served on.
	Addr string
	// AdminAddr is the HOST:PORT of /healthz and /metrics; "" serves them
	// on Addr, to loopback clients only (403 for any other).
	AdminAddr string
	// Handler, when the site is one, is kept current (Handler.Run) while
	// the server runs; /healthz answers 503 while it is stale, /metrics
	// holds its figures and Drops'.
	Handler *Handler
	Drops   *DropLog
	// AccessLog receives a line per request (nil: none); /metrics holds
	// the request counts either way.
	AccessLog io.Writer
	// ReadTimeout bounds reading a request (its header too), WriteTimeout
	// sending an answer, ShutdownTimeout the answers in progress when ctx
	// is done.
	ReadTimeout, WriteTimeout, ShutdownTimeout time.Duration
	// Listening, when set, is told the addresses listened on (admin nil
	// without AdminAddr) once both serve; the handler is kept current
	// only after it returns.
	Listening func(site, admin net.Addr)
	// Stopping, when set, is told when ctx is done, before the answers in
	// progress are waited for.
	Stopping func()
	// Stop, when set, ends the server at once with the first error sent
	// on it, returned in a *StopError (a change feed that failed before
	// it started).
	Stop <-chan error
	// Listener and AdminListener, when set, are served on instead of
	// listening on Addr and AdminAddr ([Listen] opens them), so a
	// program learns before long work that an address cannot be used;
	// ListenAndServe closes them.
	Listener, AdminListener net.Listener
}

// Listen opens the listeners of o.Addr and, when set, o.AdminAddr, for
// ServerOptions.Listener and AdminListener; an address that cannot be
// listened on (in use, not HOST:PORT, a port below 1024 without the
// right) is a [*ListenError], and nothing is left open.
func (o ServerOptions) Listen() (site, admin net.Listener, err error) {
	site, err = net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, nil, &ListenError{Addr: o.Addr, Err: err}
	}
	if o.AdminAddr != "" {
		if admin, err = net.Listen("tcp", o.AdminAddr); err != nil {
			site.Close()
			return nil, nil, &ListenError{Addr: o.AdminAddr, Admin: true, Err: err}
		}
	}
	return site, admin, nil
}

// ListenError is the error of [ListenAndServe] when an address could not
// be listened on: nothing was served.
type ListenError struct {
	Addr  string
	Admin bool // AdminAddr, not Addr
	Err   error
}

func (e *ListenError) Error() string { return e.Addr + ": " + e.Err.Error() }
func (e *ListenError) Unwrap() error { return e.Err }

// StopError is an error received on ServerOptions.Stop.
type StopError struct{ Err error }

func (e *StopError) Error() string { return e.Err.Error() }
func (e *StopError) Unwrap() error { return e.Err }

// ErrAnswersCut is returned by [ListenAndServe] when answers still in
// progress after ShutdownTimeout were cut.
var ErrAnswersCut = errors.New("answers still in progress after the shutdown timeout were cut")

// ListenAndServe serves site on o.Addr, with /healthz and /metrics (see
// ServerOptions.AdminAddr) and a request log, until ctx is done; then it
// stops listening, lets the answers in progress finish within
// o.ShutdownTimeout, and returns nil. It is `sitemap serve` around a
// Handler or a Dir. An error of a listener ends it at once.
func ListenAndServe(ctx context.Context, site http.Handler, o ServerOptions) error {
	rl := NewRequestLog(o.AccessLog)
	admin := adminMux(o.Handler, o.Drops, rl)
	mux := http.NewServeMux()
	if o.AdminAddr == "" {
		// On the public listener, for loopback clients only.
		mux.Handle("/healthz", LoopbackOnly(admin))
		mux.Handle("/metrics", LoopbackOnly(admin))
	}
	mux.Handle("/", site)
	ln, aln := o.Listener, o.AdminListener
	if ln == nil {
		var err error
		if ln, aln, err = o.Listen(); err != nil {
			return err
		}
	}
	srv := o.server(ctx, rl.Wrap(mux))
	done := make(chan error, 2)
	var adminAddr net.Addr
	if aln != nil {
		asrv := o.server(ctx, admin)
		defer asrv.Close()
		go func() {
			if err := asrv.Serve(aln); !errors.Is(err, http.ErrServerClosed) {
				done <- err
			}
		}()
		adminAddr = aln.Addr()
	}
	go func() { done <- srv.Serve(ln) }()
	if o.Listening != nil {
		o.Listening(ln.Addr(), adminAddr)
	}
	ran := make(chan struct{})
	defer func() { <-ran }()
	rctx, stopRun := context.WithCancel(ctx)
	defer stopRun() // before waiting for it: a failed Serve returns with ctx still live
	if o.Handler != nil {
		go func() { o.Handler.Run(rctx); close(ran) }()
	} else {
		close(ran)
	}
	select {
	case err := <-done:
		return err
	case err := <-o.Stop:
		srv.Close()
		return &StopError{err}
	case <-ctx.Done():
	}
	return o.shutdown(srv, done)
}

// shutdown lets the answers in progress finish, within ShutdownTimeout.
func (o *ServerOptions) shutdown(srv *http.Server, done <-chan error) error {
	if o.Stopping != nil {
		o.Stopping()
	}
	sctx, cancel := context.WithTimeout(context.Background(), o.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		return ErrAnswersCut
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// server is an HTTP server of hd with the timeouts of o.
func (o *ServerOptions) server(ctx context.Context, hd http.Handler) *http.Server {
	return &http.Server{
		Handler:           hd,
		ReadHeaderTimeout: o.ReadTimeout,
		ReadTimeout:       o.ReadTimeout,
		WriteTimeout:      o.WriteTimeout,
		IdleTimeout:       2 * time.Minute,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
}

// adminMux answers /healthz (503 while h is stale) and /metrics.
func adminMux(h *Handler, drops *DropLog, rl *RequestLog) *http.ServeMux {
	admin := http.NewServeMux()
	admin.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if h != nil {
			if err := h.Err(); err != nil {
				http.Error(w, "stale: "+err.Error(), http.StatusServiceUnavailable)
				return
			}
		}
		io.WriteString(w, "ok\n")
	})
	admin.HandleFunc("/metrics", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		if h != nil {
			h.WriteMetrics(w)
			if drops != nil {
				drops.WriteMetrics(w)
			}
		}
		rl.WriteMetrics(w)
	})
	return admin
}

// LoopbackOnly answers 403 to a client that is not on this machine, and
// passes the others' requests to next (the admin endpoints of a server
// without ServerOptions.AdminAddr). A request a proxy forwarded (it has
// X-Forwarded-For, X-Real-IP or Forwarded) is not taken for a loopback
// client: behind a proxy on the same machine every client comes from
// loopback.
func LoopbackOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		ip := net.ParseIP(host)
		forwarded := r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("X-Real-Ip") != "" || r.Header.Get("Forwarded") != ""
		if err != nil || ip == nil || !ip.IsLoopback() || forwarded {
			http.Error(w, "forbidden: /metrics and /healthz answer loopback clients only; give --admin-addr to serve them elsewhere", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}
