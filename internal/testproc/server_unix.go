//go:build unix

package testproc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// Server is a server process a harness started in a directory of its
// own (internal/pgtest's postgres, internal/mariatest's mariadbd).
type Server struct {
	Dir  string // the temporary directory: the data, the log, owner.pid
	Port int    // the TCP port of 127.0.0.1 it listens on
	Cred *syscall.Credential
	cmd  *exec.Cmd
	done chan struct{} // closed when cmd has exited
}

// NewDir sweeps the directories named prefix* of dead test binaries and
// makes a new one. Run as root, the server runs as the system user
// sysUser (a database server refuses root), which must reach the
// directory: it is made under /tmp ($TMPDIR may be under root's home)
// and given to that user.
func NewDir(prefix, sysUser string) (*Server, error) {
	base := "" // the system's temporary directory
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		base = "/tmp"
		u, err := user.Lookup(sysUser)
		if err != nil {
			return nil, fmt.Errorf("running as root and no %q user to run the server as (%v); create one, or run the tests as another user", sysUser, err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	Sweep(base, prefix)
	dir, err := MkdirTemp(base, prefix)
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, Cred: cred}
	if err := s.Chown(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// Chown gives path to the server's user, when it runs as another.
func (s *Server) Chown(path string) error {
	if s.Cred == nil {
		return nil
	}
	return os.Chown(path, int(s.Cred.Uid), int(s.Cred.Gid))
}

// Command is a command of the server's programs (initdb,
// mariadb-install-db) run in its directory as its user.
func (s *Server) Command(name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.SysProcAttr = Attr(s.Cred)
	c.Dir = s.Dir
	return c
}

// Start starts the server on a free port, its output in the file log of
// its directory: args gives its command line for a port, ready tells
// when it answers. A port taken between the probe and the server's bind
// (or a server that does not answer) is tried again, 5 times in all.
// On an error, the directory is removed.
func (s *Server) Start(name, log string, args func(port int) []string, ready func(ctx context.Context, port int) error) error {
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := FreePort()
		if err != nil {
			break
		}
		logf, err := os.Create(filepath.Join(s.Dir, log))
		if err != nil {
			lastErr = err
			break
		}
		a := args(port)
		s.cmd = s.Command(a[0], a[1:]...)
		s.cmd.Stdout, s.cmd.Stderr = logf, logf
		s.done = make(chan struct{})
		if err := s.cmd.Start(); err != nil {
			logf.Close()
			lastErr = fmt.Errorf("%s: %v", name, err)
			break
		}
		logf.Close()
		go func(c *exec.Cmd, done chan struct{}) { c.Wait(); close(done) }(s.cmd, s.done)
		if err := WaitReady(s.done, name, port, func(ctx context.Context) error { return ready(ctx, port) }); err != nil {
			s.Kill()
			b, _ := os.ReadFile(filepath.Join(s.Dir, log))
			lastErr = fmt.Errorf("%s did not start: %v: %s", name, err, Tail(string(b)))
			continue
		}
		s.Port = port
		return nil
	}
	os.RemoveAll(s.Dir)
	return lastErr
}

// Stop sends the server sig (its clean shutdown), waits up to grace for
// it to exit, then kills its process group and removes its directory.
func (s *Server) Stop(sig os.Signal, grace time.Duration) {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(sig)
		select {
		case <-s.done:
		case <-time.After(grace):
		}
	}
	s.Kill()
	os.RemoveAll(s.Dir)
}

// Kill ends the server's process group at once and waits for it.
func (s *Server) Kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}
