//go:build !linux

package build

func peakRSSMB() (float64, bool) { return 0, false }
