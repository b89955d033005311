// Command runmedian runs a command several times and prints the median wall
// time in milliseconds (the benchmarks' start-up section: a shell loop
// around date or /usr/bin/time adds its own process start-ups, or counts
// only hundredths).
//
//	runmedian -n 21 sitemap version
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

func main() {
	n := flag.Int("n", 21, "runs")
	flag.Parse()
	if flag.NArg() == 0 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: runmedian [-n RUNS] COMMAND [ARG...]")
		os.Exit(2)
	}
	walls := make([]time.Duration, 0, *n)
	for range *n {
		c := exec.Command(flag.Arg(0), flag.Args()[1:]...)
		c.Stderr = os.Stderr
		t := time.Now()
		if err := c.Run(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				fmt.Fprintln(os.Stderr, "runmedian:", err)
				os.Exit(2)
			}
		}
		walls = append(walls, time.Since(t))
	}
	slices.Sort(walls)
	fmt.Printf("%.1f\n", float64(walls[len(walls)/2].Microseconds())/1000)
}
