# Go micro-benchmarks (sourced by run.sh).
say "## Go benchmarks"
say '```'
(cd .. && go test -run='^$' -bench=. -benchmem -benchtime=1s -count=1 ./... 2>&1 | grep -E '^(Benchmark|ok|PASS)' | grep -v '^ok' ) | tee -a "$RESULTS"
say '```'
