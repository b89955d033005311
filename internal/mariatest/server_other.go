//go:build !unix

package mariatest

import "errors"

type server struct{ url string }

func (*server) stop() {}

func start() (*server, error) {
	return nil, errors.New("the MariaDB test harness runs on Unix only; set " + EnvURL + " to use an existing server")
}
