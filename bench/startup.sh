# Start-up and whole-process reading of a plain 50,000-URL sitemap (about
# 4.5 MB: one <url> per line, loc and lastmod), against a hello-world Go
# binary built the same way (sourced by run.sh). Each command runs 21
# times; the median wall time counts (the machine may be shared).
hello=$OUT/hello
if [ ! -x "$hello" ]; then
	mkdir -p "$OUT/hello.src"
	printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$OUT/hello.src/main.go"
	printf 'module hello\n' >"$OUT/hello.src/go.mod"
	(cd "$OUT/hello.src" && CGO_ENABLED=0 go build -o "$hello" .)
fi
f=$OUT/plain-50k.xml
if [ ! -f "$f" ]; then
	{
		printf '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
		awk 'BEGIN{for(i=0;i<50000;i++) printf "<url><loc>https://www.example.com/page-%d.html</loc><lastmod>2024-%02d-%02d</lastmod></url>\n", i, i%12+1, i%28+1}'
		printf '</urlset>\n'
	} >"$f"
fi
size=$(wc -c <"$f")
say "## start-up, and parse/validate of a plain 50,000-URL sitemap ($((size / 1000)) kB)"
say ""
say "| command | median wall of 21 | MB/s, whole process |"
say "| --- | --- | --- |"
(cd .. && go build -o "$OUT/runmedian" ./bench/runmedian)
# median NAME BYTES CMD...: the median wall time of 21 runs of CMD, and
# BYTES read per second when BYTES is not 0.
median() {
	name=$1 bytes=$2; shift 2
	ms=$("$OUT/runmedian" -n 21 "$@" 2>"$OUT/$name.stderr") || { say "| $name | failed (see out/$name.stderr) | |"; return 0; }
	say "| $name | $ms ms | $(awk -v s="$bytes" -v m="$ms" 'BEGIN{ if (s > 0) printf "%.0f", s/m/1e3 }') |"
}
median "hello-world" 0 "$hello"
median "sitemap-version" 0 "$OUT/sitemap" version
median "sitemap-parse-txt" "$size" "$OUT/sitemap" parse --format txt "$f"
median "sitemap-parse-jsonl" "$size" "$OUT/sitemap" parse --format jsonl "$f"
median "sitemap-validate" "$size" "$OUT/sitemap" validate "$f"
