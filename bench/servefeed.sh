# Servefeed (sourced by run.sh; `sh bench/run.sh servefeed`): `sitemap serve
# --feed logical` on a PostgreSQL table of SERVEFEED_ROWS rows (default
# 10,000,000) receiving 100 changes a second for 60 s (inserts, renames,
# lastmod updates, each its own transaction) while 8 clients read pages:
# COMMIT to the page's new ETag, COMMIT to the IndexNow POST at a fake
# endpoint, page times from the cache, serve's RSS, and the CPU of serve, of
# PostgreSQL and of the WAL sender that decodes the feed. bench/servefeed
# starts its own PostgreSQL (initdb, wal_level=logical) in out/servefeed;
# the figures go to results.md and out/servefeed.md. At 10^7 rows it takes
# about half an hour and 3 GB of disk. SERVEFEED_ARGS adds flags of
# bench/servefeed (-duration 10s, -indexnow=false, …).
rows=${SERVEFEED_ROWS:-10000000}
(cd .. && go build -o "$OUT/servefeed" ./bench/servefeed)
if "$OUT/servefeed" -sitemap "$OUT/sitemap" -rows "$rows" -work "$OUT/servefeed" -report "$OUT/servefeed.md" $SERVEFEED_ARGS 2>"$OUT/servefeed.stderr" >/dev/null; then
	cat "$OUT/servefeed.md" >>"$RESULTS"
	cat "$OUT/servefeed.md"
else
	say "## servefeed: failed (see out/servefeed.stderr)"
fi
