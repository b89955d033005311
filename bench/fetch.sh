# Fetch: a local site of gzip sitemaps served from 127.0.0.1 by
# bench/benchserve, read end to end by `sitemap fetch --format jsonl`
# (sourced by run.sh). 100 × 50,000 URLs and 20 × 50,000 URLs, with URL
# dedup (8-byte hash per URL) and without (--no-dedup), to show what grows
# with the number of URLs and what does not; with dedup held to 16 MiB of
# memory (--dedup-memory 16MiB: 20 × 50,000 fits, 100 × 50,000 spills to a
# temporary file), to show that peak RSS then stays flat; then ours against sitemapper
# (npm) on 4 × 50,000 URLs, same concurrency, same run.
peers
FETCH_CONC=${FETCH_CONC:-8}
SITE=$OUT/fetch-site
(cd .. && go build -o "$OUT/benchserve" ./bench/benchserve)
"$OUT/benchserve" -gen "$SITE" -sitemaps 100 -urls 50000
rm -f "$OUT/fetch.port"
"$OUT/benchserve" -dir "$SITE" -portfile "$OUT/fetch.port" &
SERVE_PID=$!
trap 'kill $SERVE_PID 2>/dev/null' EXIT
i=0
while [ ! -s "$OUT/fetch.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
PORT=$(cat "$OUT/fetch.port")
BASE=http://127.0.0.1:$PORT

# fetch_run NAME URLS CMD...: one run; wall, CPU, URLs/s, peak RSS.
fetch_run() {
	name=$1; urls=$2; shift 2
	/usr/bin/time -f "%e %M %U %S" -o "$OUT/time.txt" "$@" >"$OUT/$name.out" 2>"$OUT/$name.stderr" || {
		say "| $name | failed (see out/$name.stderr) | | | | |"; return 0; }
	read -r secs kb usr sys <"$OUT/time.txt"
	got=$(wc -l <"$OUT/$name.out")
	case $name in sitemapper*) got=$(cat "$OUT/$name.out") ;; esac
	echo "$secs $kb" >"$OUT/$name.time"
	say "| $name | $got | ${secs}s | $(awk -v u="$usr" -v s="$sys" 'BEGIN{printf "%.1fs", u+s}') | $(awk -v n="$got" -v s="$secs" 'BEGIN{ if (s>0) printf "%.0f", n/s; else print "n/a"}') | $((kb / 1024)) MB |"
	rm -f "$OUT/$name.out"
}

say "## fetch: gzip sitemaps of 50,000 URLs from 127.0.0.1, concurrency $FETCH_CONC, JSONL to a file"
say ""
say "| run | URLs out | wall | CPU (user+sys) | URLs/s | peak RSS |"
say "| --- | --- | --- | --- | --- | --- |"
F="$OUT/sitemap fetch --format jsonl --concurrency $FETCH_CONC --per-host $FETCH_CONC"
fetch_run "sitemap-fetch-100x50k" 5000000 $F "$BASE/sitemap_index.xml"
fetch_run "sitemap-fetch-20x50k" 1000000 $F "$BASE/index-20.xml"
fetch_run "sitemap-fetch-100x50k-no-dedup" 5000000 $F --no-dedup "$BASE/sitemap_index.xml"
fetch_run "sitemap-fetch-20x50k-no-dedup" 1000000 $F --no-dedup "$BASE/index-20.xml"
fetch_run "sitemap-fetch-100x50k-dedup-16MiB" 5000000 $F --dedup-memory 16MiB "$BASE/sitemap_index.xml"
fetch_run "sitemap-fetch-20x50k-dedup-16MiB" 1000000 $F --dedup-memory 16MiB "$BASE/index-20.xml"
say ""
say "## fetch against sitemapper: 4 × 50,000 URLs, concurrency $FETCH_CONC, best of 3"
say ""
say "| run | URLs out | wall | CPU (user+sys) | URLs/s | peak RSS |"
say "| --- | --- | --- | --- | --- | --- |"
for k in 1 2 3; do
	fetch_run "sitemap-fetch-4x50k-$k" 200000 $F "$BASE/index-4.xml"
	fetch_run "sitemapper-4x50k-$k" 200000 node "$BENCH/sitemapper.mjs" "$BASE/index-4.xml" "$FETCH_CONC"
done
bestof() { for k in 1 2 3; do cut -d' ' -f1 "$OUT/$1-$k.time" 2>/dev/null; done | sort -n | head -1; }
ours=$(bestof sitemap-fetch-4x50k)
js=$(bestof sitemapper-4x50k)
say ""
say "best wall: ours ${ours:-n/a}s, sitemapper ${js:-n/a}s; speed-up $(awk -v a="$js" -v b="$ours" 'BEGIN{ if (b>0 && a>0) printf "%.1fx", a/b; else print "n/a"}')"
say "peak RSS grows with URLs only through dedup: compare the 100x and 20x rows with and without --no-dedup;"
say "with --dedup-memory 16MiB it stays flat (the 100x run spills hashes to a temporary file, read with pread)."
kill $SERVE_PID 2>/dev/null
wait $SERVE_PID 2>/dev/null || true
trap - EXIT
