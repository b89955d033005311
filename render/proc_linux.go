package render

import (
	"os/exec"
	"sync/atomic"
	"syscall"
)

// procAttr starts the browser in a process group of its own (so Close can
// end every process of it at once, and a terminal's Ctrl-C reaches the
// program, not the browser first) with SIGKILL as its parent-death signal
// (the program killed, the browser goes too). The group's id is the
// browser's pid, stored by start once the browser runs.
func procAttr(*atomic.Int64) func(*exec.Cmd) {
	return func(cmd *exec.Cmd) {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = new(syscall.SysProcAttr)
		}
		cmd.SysProcAttr.Setpgid = true
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	}
}

// killGroup sends SIGKILL to the process group pgid (0: none).
func killGroup(pgid int64) {
	if pgid > 0 {
		_ = syscall.Kill(-int(pgid), syscall.SIGKILL)
	}
}
