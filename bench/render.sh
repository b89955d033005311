# Render: `sitemap crawl --render` of a single-page application of
# $RENDER_PAGES generated routes (bench/spasite, internal/spatest) with 1, 2
# and 4 browser tabs, against the raw crawl of its server-rendered twin
# (the same pages as HTML). Pages per second are pages fetched per second
# of wall time, the browser's start included; peak RSS is the largest sum
# of the resident sizes of the command and every process under it
# (sampled every 100 ms; shared pages count once per process, so it is
# an upper bound); CPU is user + system seconds of the whole tree (the
# browser included), the figure a loaded machine does not distort. The
# load average of the machine is printed with them.
# Sourced by run.sh, or: sh bench/run.sh render
RENDER_PAGES=${RENDER_PAGES:-500}
(cd .. && go build -o "$OUT/spasite" ./bench/spasite)
rm -f "$OUT/spa.port" "$OUT/twin.port"
"$OUT/spasite" -pages "$RENDER_PAGES" -portfile "$OUT/spa.port" &
SPA_PID=$!
"$OUT/spasite" -pages "$RENDER_PAGES" -twin -portfile "$OUT/twin.port" &
TWIN_PID=$!
trap 'kill $SPA_PID $TWIN_PID 2>/dev/null' EXIT
i=0
while { [ ! -s "$OUT/spa.port" ] || [ ! -s "$OUT/twin.port" ]; } && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
SPA=http://127.0.0.1:$(cat "$OUT/spa.port")/
TWIN=http://127.0.0.1:$(cat "$OUT/twin.port")/

# tree_sample PID: the resident KiB of PID and every process under it,
# printed; the CPU ticks (user + system) of each of them appended to
# $OUT/ticks as "pid ticks" lines.
tree_sample() {
	pids=$(ps -eo pid=,ppid= | awk -v root="$1" '{p[$1] = $2}
		END {for (i in p) {j = i; n = 0; while (j != root && (j in p) && n++ < 64) j = p[j]; if (j == root) print i}}')
	kb=0
	for p in $pids; do
		# fields after the command name: state is 1, utime 12, stime 13, rss 22 (pages)
		set -- $(sed 's/.*) //' /proc/$p/stat 2>/dev/null)
		[ $# -ge 22 ] || continue
		echo "$p $((${12} + ${13}))" >>"$OUT/ticks"
		kb=$((kb + ${22} * 4))
	done
	echo $kb
}

# render_run NAME ARGS...: one crawl; prints pages, seconds, pages/s and
# the peak RSS of the process tree.
render_run() {
	name=$1; shift
	rm -f "$OUT/$name.db" "$OUT/ticks"
	start=$(date +%s.%N)
	"$OUT/sitemap" crawl "$@" --dry-run --rate 0 --state "$OUT/$name.db" --json >"$OUT/$name.json" 2>"$OUT/$name.stderr" &
	pid=$!
	peak=0
	while kill -0 $pid 2>/dev/null; do
		kb=$(tree_sample $pid)
		[ "$kb" -gt "$peak" ] && peak=$kb
		sleep 0.1
	done
	wait $pid || true
	end=$(date +%s.%N)
	pages=$(grep -o '"fetched": *[0-9]*' "$OUT/$name.json" | head -1 | tr -dc 0-9)
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	cpu=$(awk -v hz="$(getconf CLK_TCK)" '{if ($2 > t[$1]) t[$1] = $2} END {for (p in t) s += t[p]; print s / hz}' "$OUT/ticks")
	awk -v n="$name" -v p="${pages:-0}" -v s="$start" -v e="$end" -v kb="$peak" -v l="$load" -v c="$cpu" \
		'BEGIN {d = e - s; printf "| %s | %d | %.1fs | %.1f | %.1fs (%.0f ms a page) | %d MB | %s |\n", n, p, d, p / d, c, 1000 * c / p, kb / 1024, l}' | tee -a "$RESULTS"
}

say ""
say "### Rendering ($RENDER_PAGES-route single-page application, $(nproc) cores)"
say ""
say "| run | pages | time | pages/s | CPU | peak RSS (tree) | load average |"
say "| --- | ---: | ---: | ---: | ---: | ---: | --- |"
render_run twin-raw "$TWIN" --concurrency 4
for tabs in 1 2 4; do
	render_run "render-$tabs-tabs" "$SPA" --render --render-concurrency $tabs --concurrency $tabs
done
