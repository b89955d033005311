//go:build unix && !linux

package testproc

import "syscall"

func setPdeathsig(*syscall.SysProcAttr) {}
