# Incremental fetch: the site of the fetch benchmark (100 gzip sitemaps of
# 50,000 URLs, 5,000,000 URLs) served from 127.0.0.1 by bench/benchserve
# with ETags and index lastmods (-validators), read by
# `sitemap fetch --changes --state`: the first run (every entry added),
# the second with nothing changed, a third after one child changed, and
# a full pass (--full-every 1) with nothing changed; against
# `sitemap fetch` without state on the same site, and
# ultimate-sitemap-parser (pip, 1.8.1, in a venv under bench/out) with
# `sitemap fetch` on the first USP_SITEMAPS children (default 4: on a
# loaded 2-core machine usp reads 5,000,000 URLs in well over an hour),
# in the same run. Bytes are the body bytes the server sent (its /__bytes
# counter), so every tool is measured alike.
# Sourced by run.sh, or run alone: sh bench/run.sh changes
CH_SITE=$OUT/fetch-site
(cd .. && go build -o "$OUT/benchserve" ./bench/benchserve)
"$OUT/benchserve" -gen "$CH_SITE" -sitemaps 100 -urls 50000
# usp_venv: ultimate-sitemap-parser 1.8.1 in a venv under bench/out, from
# pip; where the Python registry cannot be reached, from the source of its
# 1.8.1 tag (USP_SRC, a checkout) with its dependencies (requests,
# python-dateutil) from the system's Python.
usp_venv() {
	"$OUT/usp-venv/bin/python" -c 'import usp.tree' 2>/dev/null && return 0
	python3 -m venv --system-site-packages "$OUT/usp-venv" || return 1
	"$OUT/usp-venv/bin/pip" install -q ultimate-sitemap-parser==1.8.1 && return 0
	[ -d "${USP_SRC:-}/usp" ] || { echo "usp: pip failed; set USP_SRC to a checkout of its 1.8.1 tag" >&2; return 1; }
	sp=$("$OUT/usp-venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
	cp -r "$USP_SRC/usp" "$sp/" && mkdir -p "$sp/ultimate_sitemap_parser-1.8.1.dist-info" &&
		printf 'Metadata-Version: 2.1\nName: ultimate-sitemap-parser\nVersion: 1.8.1\n' >"$sp/ultimate_sitemap_parser-1.8.1.dist-info/METADATA"
}
usp_venv || true
rm -f "$OUT/changes.port" "$OUT/changes.db"
"$OUT/benchserve" -dir "$CH_SITE" -validators -portfile "$OUT/changes.port" &
CH_PID=$!
trap 'kill $CH_PID 2>/dev/null' EXIT
i=0
while [ ! -s "$OUT/changes.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
BASE=http://127.0.0.1:$(cat "$OUT/changes.port")
curl -s "$BASE/__bytes" >/dev/null

# ch_run NAME CMD...: one run; its output lines, wall, bytes served, peak RSS.
ch_run() {
	name=$1; shift
	/usr/bin/time -f "%e %M" -o "$OUT/time.txt" "$@" >"$OUT/$name.out" 2>"$OUT/$name.stderr" || {
		say "| $name | failed (see out/$name.stderr) | | | | |"; curl -s "$BASE/__bytes" >/dev/null; return 0; }
	read -r secs kb <"$OUT/time.txt"
	bytes=$(curl -s "$BASE/__bytes")
	lines=$(wc -l <"$OUT/$name.out")
	case $name in usp*) lines=$(cat "$OUT/$name.out") ;; esac
	echo "$secs $bytes" >"$OUT/$name.time"
	say "| $name | $lines | ${secs}s | $bytes | $((kb / 1024)) MB | $(uptime | sed 's/.*load average: //') |"
	rm -f "$OUT/$name.out"
}

cat >"$OUT/usp_count.py" <<'PY'
import sys
from usp.tree import sitemap_tree_for_homepage
# The first K children of the index, as `sitemap fetch` reads /index-K.xml.
k = int(sys.argv[2])
tree = sitemap_tree_for_homepage(sys.argv[1], recurse_list_callback=lambda urls, level, parents: urls[:k])
print(sum(1 for _ in tree.all_pages()))
PY

say "## fetch --changes: 100 gzip sitemaps × 50,000 URLs with ETags and index lastmods, from 127.0.0.1"
say ""
say "| run | lines out | wall | bytes served | peak RSS | load average |"
say "| --- | --- | --- | --- | --- | --- |"
S="$OUT/sitemap fetch"
K=${USP_SITEMAPS:-4}
ch_run "fetch-no-state" $S --format jsonl --no-dedup "$BASE/sitemap_index.xml"
ch_run "fetch-no-state-${K}x50k" $S --format jsonl --no-dedup "$BASE/index-$K.xml"
ch_run "usp-1.8.1-${K}x50k" "$OUT/usp-venv/bin/python" "$OUT/usp_count.py" "$BASE/" "$K"
C="$S --changes --state $OUT/changes.db --full-every 100"
ch_run "changes-1-first" $C "$BASE/sitemap_index.xml"
ch_run "changes-2-unchanged" $C "$BASE/sitemap_index.xml"
# One child changes: 1,000 lastmods move, 100 URLs go, 100 come.
zcat "$CH_SITE/sitemap-7.xml.gz" | awk '
	/<url>/ { n++ }
	n <= 100 && /<url>/ { next }
	n > 100 && n <= 1100 { sub(/<lastmod>[^<]*</, "<lastmod>2026-12-01T10:00:00+00:00<") }
	/<\/urlset>/ { for (k = 0; k < 100; k++) printf "<url><loc>https://www.example.com/new/item-%d.html</loc></url>\n", k }
	{ print }' | gzip >"$CH_SITE/sitemap-7.xml.gz.tmp" && mv "$CH_SITE/sitemap-7.xml.gz.tmp" "$CH_SITE/sitemap-7.xml.gz"
ch_run "changes-3-one-child" $C "$BASE/sitemap_index.xml"
ch_run "changes-4-full-pass" $S --changes --state "$OUT/changes.db" --full-every 1 "$BASE/sitemap_index.xml"
rm -f "$CH_SITE/sitemap-7.xml.gz" # generated again as it was, next time
first=$(cut -d' ' -f2 "$OUT/changes-1-first.time" 2>/dev/null)
for r in changes-2-unchanged changes-3-one-child changes-4-full-pass; do
	b=$(cut -d' ' -f2 "$OUT/$r.time" 2>/dev/null)
	say "$r: $(awk -v a="$b" -v f="$first" 'BEGIN{ if (f>0) printf "%.3f%%", 100*a/f; else print "n/a"}') of the first run's bytes"
done
kill $CH_PID 2>/dev/null
wait $CH_PID 2>/dev/null || true
trap - EXIT
