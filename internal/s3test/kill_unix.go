//go:build unix

package s3test

import "syscall"

func killGroup(pid int) { syscall.Kill(-pid, syscall.SIGKILL) }
