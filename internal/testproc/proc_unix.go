//go:build unix

package testproc

import "syscall"

// alive reports whether a process pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// Attr returns the attributes of a server process: its own process group
// (so it can be ended with everything it started), run as cred when not
// nil, and on Linux sent SIGQUIT when the test binary's thread that
// started it exits.
func Attr(cred *syscall.Credential) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Credential: cred}
	setPdeathsig(a)
	return a
}
