# Graph: `sitemap graph` on the sitemaps of 100,000 URLs (40 sections of 50
# topics: 2,041 sections, 2,000 drawn) to HTML, SVG, DOT and JSON, and of
# 1,000,000 URLs (100 x 100: 10,101 sections, aggregated to 2,000) to HTML,
# with wall time and peak RSS (flat memory: the 1 M run should peak about
# where the 100,000 one does); Graphviz dot on the same 100,000-URL DOT
# for comparison (skipped when dot is missing; apt-get install graphviz);
# then the HTML map's time to interactive in Chromium (a Go benchmark:
# navigation start to the map drawn and answering events). Sourced by
# run.sh, or `sh bench/run.sh graph`.
for n in 100000 1000000; do
	s=40 t=50
	[ $n = 1000000 ] && s=100 t=100
	[ -f "$OUT/graph-urls-$n.txt" ] || awk -v n=$n -v s=$s -v t=$t 'BEGIN{for(i=0;i<n;i++) printf "https://www.example.com/section-%d/topic-%d/page-%d.html\n", i%s, int(i/s)%t, i}' >"$OUT/graph-urls-$n.txt"
	rm -rf "$OUT/graph-$n"
	"$OUT/sitemap" generate --base-url https://www.example.com/ --out "$OUT/graph-$n" "$OUT/graph-urls-$n.txt" 2>/dev/null
done
# gmeasure NAME CMD...: wall seconds, CPU seconds (user + system: the
# fair figure on a shared machine) and peak RSS of one run.
gmeasure() {
	name=$1; shift
	/usr/bin/time -f "%e %U %S %M" -o "$OUT/time.txt" "$@" >/dev/null 2>"$OUT/$name.stderr" || {
		say "| $name | failed (see out/$name.stderr) | | |"; return 0; }
	read -r secs u s kb <"$OUT/time.txt"
	say "| $name | ${secs}s | $(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2fs", u+s}') | $((kb / 1024)) MB |"
}
say "## graph: sitemaps of 100,000 and 1,000,000 URLs drawn (load average $(cut -d' ' -f1 /proc/loadavg))"
say ""
say "| run | wall | CPU | peak RSS |"
say "| --- | --- | --- | --- |"
for f in html svg dot json; do
	gmeasure "graph-100k-$f" "$OUT/sitemap" graph "$OUT/graph-100000/sitemap.xml" -o "$OUT/graph-100k.$f"
done
gmeasure "graph-1M-html" "$OUT/sitemap" graph "$OUT/graph-1000000/sitemap.xml" -o "$OUT/graph-1m.html"
if command -v dot >/dev/null 2>&1; then
	gmeasure "graphviz-dot-100k-svg" timeout 600 dot -Tsvg -o "$OUT/graph-100k-dot.svg" "$OUT/graph-100k.dot"
else
	say "| graphviz-dot-100k-svg | skipped: dot not installed | | |"
fi
say ""
say "sizes: $(ls -l "$OUT"/graph-100k.html "$OUT"/graph-100k.svg "$OUT"/graph-100k.dot "$OUT"/graph-1m.html | awk '{printf "%s %.1f MB; ", $9, $5/1048576}' | sed "s|$OUT/||g")"
say ""
(cd .. && go test -run '^$' -bench 'HTML100k|SVG100k|DOT100k|HTML1M|HTMLMapInteractive100k' -benchtime 3x ./graph/) | grep '^Benchmark' | while read -r line; do say "    $line"; done
