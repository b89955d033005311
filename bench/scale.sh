# Scale (sourced by run.sh; `sh bench/run.sh scale`): three sharded generate
# runs of about 1,000,000 URLs each (one 3,000,000-URL input, --shard-by
# hash) into an S3 bucket on moto_server, `sitemap index` over them, and the
# checks of the proof: one index over every child, every file xmllint-valid,
# the same URL set as one run; then generate of 1,000,000 URLs to S3 against
# to disk, the Go benchmark of Stamp on PostgreSQL, and the crawl shared by
# 1, 2 and 4 `crawl --worker` processes (BenchmarkCrawlWorkers: a 1,021-page
# site on 127.0.0.1 answering at once and after 50 ms; PostgreSQL from
# internal/pgtest, or SITEMAP_TEST_POSTGRES).
#
# moto_server is started on a free port unless SITEMAP_TEST_S3_ENDPOINT
# names a service (with AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY).
n3=3000000
[ -f "$OUT/urls-3m.txt" ] || awk -v n=$n3 'BEGIN{for(i=1;i<=n;i++) printf "https://www.example.com/products/category-%d/item-%d.html\n", i%97, i}' >"$OUT/urls-3m.txt"
[ -f "$OUT/urls-1m.txt" ] || awk -v n=1000000 'BEGIN{for(i=1;i<=n;i++) printf "https://www.example.com/products/category-%d/item-%d.html\n", i%97, i}' >"$OUT/urls-1m.txt"
motopid=
if [ -z "$SITEMAP_TEST_S3_ENDPOINT" ]; then
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	moto=$(command -v moto_server || echo "$HOME/.pyenv/shims/moto_server")
	setsid "$moto" -H 127.0.0.1 -p "$port" >"$OUT/moto.log" 2>&1 &
	motopid=$!
	trap '[ -n "$motopid" ] && kill -- -$motopid 2>/dev/null' EXIT
	export AWS_ENDPOINT_URL=http://127.0.0.1:$port AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
	for i in $(seq 100); do curl -s -o /dev/null "$AWS_ENDPOINT_URL/" && break; sleep 0.1; done
else
	export AWS_ENDPOINT_URL=$SITEMAP_TEST_S3_ENDPOINT
fi
bucket=sitemap-bench-$$
python3 - "$bucket" <<'PY'
import boto3, os, sys
boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"]).create_bucket(Bucket=sys.argv[1])
PY
say "## scale: sharded generate into S3 (moto_server), index, checks"
say ""
say "| step | wall | peak RSS |"
say "| --- | --- | --- |"
for k in 1 2 3; do
	measure "shard-$k-of-3-to-s3" "$OUT/sitemap" generate --shard $k/3 --base-url https://www.example.com/ --out "s3://$bucket/maps" --gzip "$OUT/urls-3m.txt"
done
measure "index-over-3-shards" "$OUT/sitemap" index --shards 3 --base-url https://www.example.com/ --out "s3://$bucket/maps"
# The checks: download, xmllint every file, compare the URL set with one run.
rm -rf "$OUT/scale-s3" "$OUT/scale-one"; mkdir -p "$OUT/scale-s3" "$OUT/scale-one"
python3 - "$bucket" "$OUT/scale-s3" <<'PY'
import boto3, os, sys
s3 = boto3.client("s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
for page in s3.get_paginator("list_objects_v2").paginate(Bucket=sys.argv[1], Prefix="maps/"):
    for o in page.get("Contents", []):
        s3.download_file(sys.argv[1], o["Key"], os.path.join(sys.argv[2], o["Key"].split("/")[-1]))
PY
"$OUT/sitemap" generate --base-url https://www.example.com/ --out "$OUT/scale-one" --gzip "$OUT/urls-3m.txt" 2>/dev/null
xsd=$(cd .. && pwd)/testdata/xsd
children=$(grep -o '<loc>[^<]*</loc>' "$OUT/scale-s3/sitemap.xml" | sed 's|<loc>https://www.example.com/||; s|</loc>||')
nchild=$(echo "$children" | wc -l)
missing=0; for c in $children; do [ -f "$OUT/scale-s3/$c" ] || missing=$((missing+1)); done
valid=yes
XML_CATALOG_FILES=$xsd/catalog.xml xmllint --noout --nonet --schema "$xsd/siteindex.xsd" "$OUT/scale-s3/sitemap.xml" 2>/dev/null || valid=no
(cd "$OUT/scale-s3" && XML_CATALOG_FILES=$xsd/catalog.xml xmllint --noout --nonet --schema "$xsd/sitemap.xsd" $children 2>/dev/null) || valid=no
"$OUT/sitemap" parse --format txt "$OUT/scale-s3"/sitemap-[123]-*.xml.gz 2>/dev/null | sort >"$OUT/scale-s3.urls"
"$OUT/sitemap" parse --format txt "$OUT/scale-one"/sitemap-*.xml.gz 2>/dev/null | sort >"$OUT/scale-one.urls"
same=no; cmp -s "$OUT/scale-s3.urls" "$OUT/scale-one.urls" && same=yes
say ""
say "index lists $nchild children ($missing missing); xmllint-valid: $valid; URLs: $(wc -l <"$OUT/scale-s3.urls") in the shards, $(wc -l <"$OUT/scale-one.urls") in one run, same set: $same"
say ""
say "| generate 1,000,000 URLs (gzip) | wall | peak RSS |"
say "| --- | --- | --- |"
rm -rf "$OUT/scale-disk"
measure "to-disk" "$OUT/sitemap" generate --base-url https://www.example.com/ --out "$OUT/scale-disk" --gzip "$OUT/urls-1m.txt"
measure "to-s3" "$OUT/sitemap" generate --base-url https://www.example.com/ --out "s3://$bucket/one" --gzip "$OUT/urls-1m.txt"
say ""
say "Stamp on PostgreSQL (StampMany, batches of 5,000; 100,000 URLs twice):"
(cd .. && go test -run '^$' -bench 'BenchmarkPostgresStampMany' -benchtime=3x ./state/) | grep -o '[0-9.]* stamps/s' | tail -1 | while read -r l; do say "$l"; done
if [ -n "$motopid" ]; then kill -- -"$motopid" 2>/dev/null; motopid=; fi
say ""
say "Crawl pages/s, 1,021-page site, --concurrency 4 per process, no rate limit (median of 3; workers 0: one process without --worker):"
say ""
say "| site latency | workers | pages/s |"
say "| --- | --- | --- |"
(cd .. && go test -run '^$' -bench 'BenchmarkCrawlWorkers' -benchtime=1x -count=3 ./cmd/sitemap/) |
	sed -n 's|^BenchmarkCrawlWorkers/latency=\([^/]*\)/workers=\([0-9]*\)-[0-9]* .* \([0-9.]*\) pages/s$|\1 \2 \3|p' |
	sort -k1,1 -k2,2n -k3,3n | awk '{k=$1" "$2; v[k]=v[k]" "$3; n[k]++} END{for (k in v) {split(v[k], a, " "); split(k, kk, " "); print "| " kk[1] " | " kk[2] " | " a[int((n[k]+1)/2)] " |"}}' | sort -t'|' -k2,2 -k3,3n |
	while read -r l; do say "$l"; done
