package validate

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CheckTrustedHost checks a value of Options.TrustedHosts (--trusted-host):
// a host name or IP address, compared with a loc's host. A URL, a port or
// a path never matches one, so it is refused rather than ignored, with
// the host to give when there is one.
func CheckTrustedHost(h string) error {
	if net.ParseIP(h) != nil || strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") && net.ParseIP(h[1:len(h)-1]) != nil {
		return nil
	}
	if h != "" && !strings.ContainsAny(h, "/:@?#% \t\r\n") {
		return nil
	}
	msg := fmt.Sprintf("--trusted-host %q is not a host name; give the host alone, such as cdn.example.net", h)
	u, err := url.Parse(h)
	if err != nil || u.Host == "" {
		u, err = url.Parse("//" + h)
	}
	if err == nil && u.Hostname() != "" && u.Hostname() != h {
		msg = fmt.Sprintf("--trusted-host %q is not a host name; give the host alone: %s", h, u.Hostname())
	}
	return errors.New(msg)
}
