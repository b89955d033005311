#!/bin/sh
# Benchmarks: the Go micro-benchmarks, then each end-to-end comparison with
# the peer tools from the npm registry, on the same input in the same run.
# Figures go to bench/out/results.md (and standard output). Nothing here
# fails a build on a time: it reports.
#
#   sh bench/run.sh            # everything
#   sh bench/run.sh generate   # one section: go, startup, generate, parse, fetch, changes, crawl, audit, graph, scale, servefeed, render cms
set -e
cd "$(dirname "$0")"
BENCH=$(pwd)
OUT=$BENCH/out
mkdir -p "$OUT"
RESULTS=$OUT/results.md
sections=${*:-$(for s in go startup generate parse fetch changes crawl audit graph scale servefeed render cms; do [ -f "$s.sh" ] && printf "%s " $s; done)}

say() { echo "$*" | tee -a "$RESULTS"; }

# measure NAME CMD...: runs CMD, records wall seconds and peak RSS (MB).
measure() {
	name=$1; shift
	/usr/bin/time -f "%e %M" -o "$OUT/time.txt" "$@" >/dev/null 2>"$OUT/$name.stderr" || {
		say "| $name | failed (see out/$name.stderr) | | |"; return 0; }
	read -r secs kb <"$OUT/time.txt"
	echo "$secs $kb" >"$OUT/$name.time"
	say "| $name | ${secs}s | $((kb / 1024)) MB |"
}

peers() {
	[ -x node_modules/.bin/sitemap ] || npm install --no-audit --no-fund --silent >/dev/null 2>&1 || npm install --no-audit --no-fund
}

build() {
	(cd .. && CGO_ENABLED=0 go build -o "$OUT/sitemap" ./cmd/sitemap)
}

: >"$RESULTS"
say "# Benchmark results ($(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(go version | cut -d' ' -f3), node $(node --version))"
build
for s in $sections; do
	[ -f "$BENCH/$s.sh" ] || { echo "no section $s" >&2; exit 2; }
	say ""
	. "$BENCH/$s.sh"
done
echo "results in $RESULTS"
