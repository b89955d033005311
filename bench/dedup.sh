#!/bin/sh
# Duplicate skipping at scale (issue 26): `sitemap generate --gzip` over N
# distinct URLs plus 10 % repeats (each tenth line repeats an earlier URL
# picked at random), from a file and from a pipe (`cat FILE |`), with the
# default --dedup-memory; then the slow producer: 2,000,000 URLs printed
# by a Python loop into `generate -`, against the same file read directly.
# For each run: wall time, CPU-seconds (user + system) per million URLs,
# the bytes the process wrote to disk (write_bytes of /proc/PID/io, the
# sitemaps published included; their size is given beside), peak RSS.
#
#   sh bench/dedup.sh               # 10 M and 30 M
#   sh bench/dedup.sh 10 30 100     # sizes in millions
#   SITEMAP=path/to/sitemap sh bench/dedup.sh 10
#   FEEDS=file SLOW=no sh bench/dedup.sh 10 100   # file input only, no slow producer
#   RESULT=bench/out/base.md sh bench/dedup.sh 10  # the table goes there
#
# Not a timed test: it reports, in a Markdown table on standard output
# (and bench/out/dedup.md, or $RESULT). Inputs go to bench/out (a 100 M input is
# about 7 GB); run it niced on a shared machine.
set -e
cd "$(dirname "$0")"
OUT=$(pwd)/out
mkdir -p "$OUT"
SITEMAP=${SITEMAP:-$OUT/sitemap}
[ -n "${SITEMAP##$OUT/*}" ] || (cd .. && CGO_ENABLED=0 go build -o "$OUT/sitemap" ./cmd/sitemap)
sizes=${*:-10 30}
feeds=${FEEDS:-file pipe}
RESULT=${RESULT:-$OUT/dedup.md}

# run NAME URLS STDIN-COMMAND|- ARGS...: runs sitemap with ARGS (its
# standard input from STDIN-COMMAND through a pipe, or nothing for -) and
# prints a table row. The process is watched from outside: CPU time and
# peak RSS from wait4, write_bytes polled every 50 ms until it exits.
cat >"$OUT/dedup-run.py" <<'PY'
import os, subprocess, sys, time, shutil
name, urls, feed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
args = sys.argv[4:]
outdir = args[args.index("--out") + 1]
shutil.rmtree(outdir, ignore_errors=True)
prod = None
stdin = subprocess.DEVNULL
if feed != "-":
    prod = subprocess.Popen(feed, shell=True, stdout=subprocess.PIPE)
    stdin = prod.stdout
start = time.monotonic()
p = subprocess.Popen(args, stdin=stdin, stdout=subprocess.DEVNULL, stderr=open(outdir + ".stderr", "w"))
if prod:
    prod.stdout.close()
written = 0
while True:
    try:
        with open("/proc/%d/io" % p.pid) as f:
            for line in f:
                if line.startswith("write_bytes:"):
                    written = int(line.split()[1])
    except OSError:
        pass
    pid, status, ru = os.wait4(p.pid, os.WNOHANG)
    if pid:
        break
    time.sleep(0.05)
wall = time.monotonic() - start
if prod:
    prod.wait()
cpu = ru.ru_utime + ru.ru_stime
out = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(outdir) for f in fs)
code = os.waitstatus_to_exitcode(status)
print("| %s | %.1f s | %.1f (%.1f user, %.1f sys) | %.2f | %.2f GB (sitemaps %.2f GB) | %d MB |%s" % (
    name, wall, cpu, ru.ru_utime, ru.ru_stime, cpu / (urls / 1e6), written / 1e9, out / 1e9,
    ru.ru_maxrss // 1024, "" if code in (0, 1) else " exit %d" % code))
sys.stdout.flush()
PY

say() { echo "$*" | tee -a "$RESULT"; }
: >"$RESULT"
say "# dedup at scale ($(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
say ""
say "| run | wall | CPU-s (user, sys) | CPU-s per M URLs | written to disk | peak RSS |"
say "| --- | --- | --- | --- | --- | --- |"
for m in $sizes; do
	n=$((m * 1000000))
	in=$OUT/dedup-${m}m.txt
	# N distinct URLs; after every tenth, a repeat of an earlier one.
	[ -f "$in" ] || awk -v n=$n 'BEGIN { srand(26); for (i = 1; i <= n; i++) {
		printf "https://www.example.com/products/category-%d/item-%d.html\n", i % 97, i
		if (i % 10 == 0) { j = int(rand() * i) + 1; printf "https://www.example.com/products/category-%d/item-%d.html\n", j % 97, j } } }' >"$in"
	lines=$((n + n / 10))
	for feed in $feeds; do
		say "load before ${m}M $feed: $(cut -d' ' -f1-3 /proc/loadavg)"
		if [ "$feed" = file ]; then
			python3 "$OUT/dedup-run.py" "${m}M+10% file" $lines - "$SITEMAP" generate --base-url https://www.example.com/ --gzip --out "$RESULT.out" "$in" | tee -a "$RESULT"
		else
			python3 "$OUT/dedup-run.py" "${m}M+10% pipe" $lines "cat $in" "$SITEMAP" generate --base-url https://www.example.com/ --gzip --out "$RESULT.out" - | tee -a "$RESULT"
		fi
		say "load after ${m}M $feed: $(cut -d' ' -f1-3 /proc/loadavg)"
	done
done
[ "${SLOW:-yes}" = yes ] || { rm -rf "$RESULT.out"; exit 0; }
# The slow producer: a Python loop printing 2,000,000 URLs.
cat >"$OUT/dedup-gen.py" <<'PY'
import sys
for i in range(int(sys.argv[1])):
    print("https://www.example.com/products/category-%d/item-%d.html" % (i % 97, i))
PY
slow=$OUT/dedup-slow-2m.txt
[ -f "$slow" ] || python3 "$OUT/dedup-gen.py" 2000000 >"$slow"
python3 "$OUT/dedup-run.py" "2M from a file" 2000000 - "$SITEMAP" generate --base-url https://www.example.com/ --gzip --out "$RESULT.out" "$slow" | tee -a "$RESULT"
python3 "$OUT/dedup-run.py" "2M, a python3 loop piped in" 2000000 "python3 $OUT/dedup-gen.py 2000000" "$SITEMAP" generate --base-url https://www.example.com/ --gzip --out "$RESULT.out" - | tee -a "$RESULT"
rm -rf "$RESULT.out"
