//go:build !linux

package build

func peakRSSMB() (float64, bool) { return 0, false }

func threadCPU() (float64, bool)  { return 0, false }
func processCPU() (float64, bool) { return 0, false }
