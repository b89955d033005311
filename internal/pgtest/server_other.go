//go:build !unix

package pgtest

import "errors"

type server struct{ url string }

func (*server) stop() {}

func start() (*server, error) {
	return nil, errors.New("the PostgreSQL test harness runs on Unix only; set " + EnvURL + " to use an existing server")
}
