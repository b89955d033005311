//go:build !linux

package render

import (
	"os/exec"
	"sync/atomic"
)

// procAttr leaves the command as it is: chromedp kills the browser and
// what still uses its profile directory.
func procAttr(*atomic.Int64) func(*exec.Cmd) { return func(*exec.Cmd) {} }

func killGroup(int64) {}
