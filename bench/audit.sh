# Audit: the synthetic site of bench/crawlsite with AUDIT_PAGES pages
# (default 10,000) served from 127.0.0.1, its /sitemap.xml (an index of
# sitemaps listing every page, plus a redirect and a 404 every 100 pages)
# audited by `sitemap audit` at --rate 0 and --concurrency AUDIT_CONC; then
# the same audit with --crawl, and `sitemap crawl` alone on the same site,
# so the audit's crawl side can be compared with the crawler's (sourced by
# run.sh; or `sh bench/run.sh audit`). Pages per second are the requests
# the site served per second of wall time.
AUDIT_PAGES=${AUDIT_PAGES:-10000}
AUDIT_CONC=${AUDIT_CONC:-4}
(cd .. && go build -o "$OUT/crawlsite" ./bench/crawlsite)
rm -f "$OUT/audit.port"
"$OUT/crawlsite" -pages "$AUDIT_PAGES" -portfile "$OUT/audit.port" &
AUDIT_SITE_PID=$!
trap 'kill $AUDIT_SITE_PID 2>/dev/null' EXIT
i=0
while [ ! -s "$OUT/audit.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
ABASE=http://127.0.0.1:$(cat "$OUT/audit.port")

# audit_run NAME CMD...: one run, timed; the site's request counter is
# reset first.
audit_run() {
	name=$1; shift
	curl -s "$ABASE/_reset" >/dev/null
	rm -rf "$OUT/audit-state.db"* "$OUT/audit-crawl"
	rc=0
	/usr/bin/time -f "%e %M %U %S" -o "$OUT/time.txt" "$@" >"$OUT/$name.out" 2>"$OUT/$name.stderr" || rc=$?
	read -r secs kb usr sys <<EOT
$(tail -n 1 "$OUT/time.txt")
EOT
	reqs=$(curl -s "$ABASE/_stats")
	records=$(wc -l <"$OUT/$name.out")
	say "| $name | $reqs | $records | ${secs}s | $(awk -v u="$usr" -v s="$sys" 'BEGIN{printf "%.1fs", u+s}') | $(awk -v n="$reqs" -v s="$secs" 'BEGIN{ if (s>0) printf "%.0f", n/s; else print "n/a"}') | $((kb / 1024)) MB | $rc |"
}

say "## audit: $AUDIT_PAGES-page synthetic site on 127.0.0.1, its sitemaps audited, concurrency $AUDIT_CONC, --rate 0"
say ""
say "| run | requests | records | wall | CPU (user+sys) | requests/s | peak RSS | exit |"
say "| --- | --- | --- | --- | --- | --- | --- | --- |"
for k in 1 2; do
	audit_run "sitemap-audit-$k" "$OUT/sitemap" audit "$ABASE/sitemap.xml" --format jsonl --rate 0 --concurrency "$AUDIT_CONC" --state "$OUT/audit-state.db"
done
# --history: two runs over one state (the second compares); the state's
# size after them beside the plain audit's.
rm -f "$OUT/audit-history.db"*
for k in 1 2; do
	curl -s "$ABASE/_reset" >/dev/null
	/usr/bin/time -f "%e %M %U %S" -o "$OUT/time.txt" "$OUT/sitemap" audit "$ABASE/sitemap.xml" --history --format jsonl --rate 0 --concurrency "$AUDIT_CONC" --state "$OUT/audit-history.db" >"$OUT/sitemap-audit-history-$k.out" 2>/dev/null || true
	read -r secs kb usr sys <<EOT
$(tail -n 1 "$OUT/time.txt")
EOT
	say "| sitemap-audit-history-$k | $(curl -s "$ABASE/_stats") | $(wc -l <"$OUT/sitemap-audit-history-$k.out") | ${secs}s | $(awk -v u="$usr" -v s="$sys" 'BEGIN{printf "%.1fs", u+s}') | | $((kb / 1024)) MB | state $(cat "$OUT/audit-history.db"* | wc -c) bytes |"
done
for k in 1 2; do
	audit_run "sitemap-audit-crawl-$k" "$OUT/sitemap" audit "$ABASE/sitemap.xml" --crawl --crawl-max-depth 0 --format jsonl --rate 0 --concurrency "$AUDIT_CONC" --state "$OUT/audit-state.db"
done
for k in 1 2; do
	audit_run "sitemap-crawl-$k" "$OUT/sitemap" crawl "$ABASE/" --out "$OUT/audit-crawl" --max-depth 0 --rate 0 --concurrency "$AUDIT_CONC" --state "$OUT/audit-state.db" --report -
done
say ""
say "exit 1 is expected: the sitemaps list noindex pages, canonical duplicates, redirects and 404s. The audit's crawl side is the difference between the runs with and without --crawl; records are JSONL lines (for the crawl, its --report lines)."
kill $AUDIT_SITE_PID 2>/dev/null
wait $AUDIT_SITE_PID 2>/dev/null || true
trap - EXIT
