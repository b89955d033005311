# Parse: one 50,000-URL sitemap (uncompressed and gzip), ours (`sitemap
# parse --format jsonl`) against sitemap.js (`sitemap --parse`), same file,
# same run (sourced by run.sh). Each tool runs 5 times; the best wall time
# counts.
peers
f=$OUT/parse-50k.xml
if [ ! -f "$f" ]; then
	{
		printf '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n'
		awk 'BEGIN{for(i=1;i<=50000;i++) printf "<url><loc>https://www.example.com/products/category-%d/item-%d.html?a=1&amp;b=2</loc><lastmod>2026-10-%02dT10:00:00+00:00</lastmod><changefreq>weekly</changefreq><priority>0.%d</priority><image:image><image:loc>https://cdn.example.com/img/%d.jpg</image:loc></image:image></url>\n", i%97, i, 1+i%28, i%10, i}'
		printf '</urlset>\n'
	} >"$f"
	gzip -kf "$f"
fi
size=$(wc -c <"$f")
say "## parse: 50,000 URLs, $((size / 1024 / 1024)) MB of XML"
say ""
say "| tool | best wall of 5 | peak RSS |"
say "| --- | --- | --- |"
best() {
	name=$1; shift
	b=""; rss=0
	for i in 1 2 3 4 5; do
		/usr/bin/time -f "%e %M" -o "$OUT/time.txt" "$@" >/dev/null 2>"$OUT/$name.stderr" || { say "| $name | failed | |"; return 0; }
		read -r secs kb <"$OUT/time.txt"
		if [ -z "$b" ] || awk -v a="$secs" -v c="$b" 'BEGIN{exit !(a<c)}'; then b=$secs; rss=$kb; fi
	done
	echo "$b $rss" >"$OUT/$name.time"
	say "| $name | ${b}s | $((rss / 1024)) MB |"
}
best "sitemap-parse-xml" "$OUT/sitemap" parse --format jsonl "$f"
best "sitemap.js-parse-xml" node "$BENCH/node_modules/sitemap/dist/esm/cli.js" --parse "$f"
best "sitemap-parse-gz" "$OUT/sitemap" parse --format jsonl "$f.gz"
ours=$(cut -d' ' -f1 "$OUT/sitemap-parse-xml.time" 2>/dev/null || echo 0)
js=$(cut -d' ' -f1 "$OUT/sitemap.js-parse-xml.time" 2>/dev/null || echo 0)
say ""
say "speed-up over sitemap.js (whole process, JSONL written): $(awk -v a="$js" -v b="$ours" 'BEGIN{ if (b>0) printf "%.1fx", a/b; else print "n/a"}')"
