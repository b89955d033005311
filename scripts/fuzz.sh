#!/bin/sh
# Runs every fuzz target of the module for a short while each (default
# 3000 executions; a count rather than a duration, see the Makefile): a
# smoke test that the seeds pass and that a little mutation finds nothing.
set -e
t=${1:-3000x}
for f in $(grep -rl --include='*_test.go' '^func Fuzz' . | sort); do
	dir=$(dirname "$f")
	for name in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$f"); do
		echo "fuzz $dir $name ($t)"
		# Minimising a new interesting input is capped too: on a slow
		# target it could otherwise stall the run for a minute at a time.
		go test -run='^$' -fuzz="^${name}\$" -fuzztime="$t" -fuzzminimizetime=200x "$dir"
	done
done
