# Generate: 1,000,000 URLs from a text file to gzip sitemaps plus index,
# ours against sitemap.js (`sitemap --gzip --index`), then ours on 10,000,000
# URLs to show that peak RSS does not grow with the input (sourced by run.sh).
# Ours runs twice each: as by default, skipping duplicate locs in bounded
# memory, and with --keep-duplicates, which is what sitemap.js does.
peers
n1=1000000
n10=10000000
[ -f "$OUT/urls-1m.txt" ] || awk -v n=$n1 'BEGIN{for(i=1;i<=n;i++) printf "https://www.example.com/products/category-%d/item-%d.html\n", i%97, i}' >"$OUT/urls-1m.txt"
say "## generate: $n1 URLs, text in, gzip sitemaps + index out"
say ""
say "| tool | wall | peak RSS |"
say "| --- | --- | --- |"
rm -rf "$OUT/gen-ours" "$OUT/gen-js"; mkdir -p "$OUT/gen-ours" "$OUT/gen-js"
measure "sitemap-generate-1M" "$OUT/sitemap" generate --base-url https://www.example.com/ --out "$OUT/gen-ours" --gzip "$OUT/urls-1m.txt"
rm -rf "$OUT/gen-ours"; mkdir -p "$OUT/gen-ours"
measure "sitemap-generate-1M-keep-duplicates" "$OUT/sitemap" generate --base-url https://www.example.com/ --out "$OUT/gen-ours" --gzip --keep-duplicates "$OUT/urls-1m.txt"
(cd "$OUT/gen-js" && measure "sitemap.js-1M" sh -c "node '$BENCH/node_modules/sitemap/dist/esm/cli.js' --gzip --index --index-base-url https://www.example.com/ < '$OUT/urls-1m.txt' > sitemap-index.xml.gz")
ours=$(cut -d' ' -f1 "$OUT/sitemap-generate-1M.time" 2>/dev/null || echo 0)
js=$(cut -d' ' -f1 "$OUT/sitemap.js-1M.time" 2>/dev/null || echo 0)
say ""
say "ours: $(awk -v n=$n1 -v s="$ours" 'BEGIN{ if (s>0) printf "%.0f URLs/s", n/s; else print "n/a"}'); sitemap.js: $(awk -v n=$n1 -v s="$js" 'BEGIN{ if (s>0) printf "%.0f URLs/s", n/s; else print "n/a"}'); speed-up $(awk -v a="$js" -v b="$ours" 'BEGIN{ if (b>0) printf "%.1fx", a/b; else print "n/a"}')"
if [ "${BENCH_SKIP_10M:-0}" != 1 ]; then
	[ -f "$OUT/urls-10m.txt" ] || awk -v n=$n10 'BEGIN{for(i=1;i<=n;i++) printf "https://www.example.com/products/category-%d/item-%d.html\n", i%97, i}' >"$OUT/urls-10m.txt"
	rm -rf "$OUT/gen-ours-10m"; mkdir -p "$OUT/gen-ours-10m"
	say ""
	say "| tool | wall | peak RSS |"
	say "| --- | --- | --- |"
	measure "sitemap-generate-10M" "$OUT/sitemap" generate --base-url https://www.example.com/ --out "$OUT/gen-ours-10m" --gzip "$OUT/urls-10m.txt"
	rm -rf "$OUT/gen-ours-10m"; mkdir -p "$OUT/gen-ours-10m"
	measure "sitemap-generate-10M-keep-duplicates" "$OUT/sitemap" generate --base-url https://www.example.com/ --out "$OUT/gen-ours-10m" --gzip --keep-duplicates "$OUT/urls-10m.txt"
	# Dedup at 10 M distinct URLs (target: at least 1 M URLs/s under 100 MB):
	# URLs/s of wall and of CPU time (user + system; the fair figure on a
	# shared machine) and peak RSS, from /usr/bin/time -v.
	for mode in dedup keep-duplicates; do
		rm -rf "$OUT/gen-ours-10m"; mkdir -p "$OUT/gen-ours-10m"
		flag=; [ $mode = keep-duplicates ] && flag=--keep-duplicates
		/usr/bin/time -v "$OUT/sitemap" generate --base-url https://www.example.com/ --out "$OUT/gen-ours-10m" --gzip $flag "$OUT/urls-10m.txt" >/dev/null 2>"$OUT/gen-10m-$mode.time"
		say "$(awk -v n=$n10 -v mode=$mode -F': ' '/User time/{u=$2} /System time/{s=$2} /Elapsed/{split($2,t,":"); w=(length(t)==3)?t[1]*3600+t[2]*60+t[3]:t[1]*60+t[2]} /Maximum resident/{r=$2} END{printf "10 M URLs, %s: %.0f URLs/s wall (%.1f s), %.0f URLs/s of CPU (%.1f s), peak RSS %d MB", mode, n/w, w, n/(u+s), u+s, r/1024}' "$OUT/gen-10m-$mode.time")"
	done
	rm -rf "$OUT/gen-ours-10m" "$OUT/urls-10m.txt"
fi
