#!/bin/sh
# Sets past memory at scale (issue 26): the whole commands as a user runs
# them, at N million URLs.
#
#   diff:  `sitemap diff OLD NEW` over two directories of gzip sitemaps
#          (bench/benchserve -variant old/new: 0.99·N entries a side, of
#          which 1 % added, 1 % removed and 1 % modified), its text output
#          counted by its first character against what was planted.
#   fetch: `sitemap fetch INDEX` (default flags: txt, --dedup-memory 64MiB,
#          --concurrency 8) of a site served by bench/benchserve from
#          127.0.0.1: about N distinct URLs, 45,000 a sitemap, every tenth
#          followed by a repeat of an earlier one from any sitemap (N/10
#          duplicates, 49,500 entries a sitemap), so exactly the distinct
#          ones must come out.
#
# For each run: wall time, CPU-seconds (user, sys) and per million
# entries, the bytes the process wrote to disk (write_bytes of
# /proc/PID/io, polled every 50 ms; standard output is a pipe, so only
# temporary files count) and per entry, peak RSS (wait4), and whether the
# output is right.
#
#   sh bench/bigsets.sh                   # diff and fetch at 10 M
#   sh bench/bigsets.sh 10 100            # sizes in millions
#   PARTS=diff sh bench/bigsets.sh 10 100 # diff only (PARTS=fetch: fetch only)
#   SITEMAP=path/to/sitemap RESULT=bench/out/before.md sh bench/bigsets.sh 10
#   KEEP=yes sh bench/bigsets.sh 10       # keep the generated inputs
#
# Not a timed test: a Markdown table on standard output and in
# bench/out/bigsets.md (or $RESULT). Inputs go to bench/out (about 850 MB a
# side at 100 M, 1 GB for the fetch site; the sort's temporary files of diff
# about 4 GB a side at 100 M, in bench/out/tmp) and are deleted at the end
# unless KEEP=yes; run it niced on a shared machine. Fetch's dedup alone,
# without HTTP or XML, batches against one URL at a time:
#
#   SITEMAP_BENCH_DEDUP=100 go test -run X -bench DedupScale -benchtime 1x -timeout 2h ./fetch/
set -e
case ${RESULT:-} in "" | /*) ;; *) RESULT=$(pwd)/$RESULT ;; esac
case ${SITEMAP:-} in "" | /*) ;; *) SITEMAP=$(pwd)/$SITEMAP ;; esac
cd "$(dirname "$0")"
OUT=$(pwd)/out
mkdir -p "$OUT" "$OUT/tmp"
SITEMAP=${SITEMAP:-$OUT/sitemap}
[ -n "${SITEMAP##$OUT/*}" ] || (cd .. && CGO_ENABLED=0 go build -o "$OUT/sitemap" ./cmd/sitemap)
(cd .. && go build -o "$OUT/benchserve" ./bench/benchserve)
sizes=${*:-10}
parts=${PARTS:-diff fetch}
RESULT=${RESULT:-$OUT/bigsets.md}

# run NAME ENTRIES EXPECT ARGS...: runs ARGS, its standard output read
# through a pipe and counted by first character, and prints a table row.
# EXPECT is "+N -N ~N" (diff) or "lines=N" (fetch).
cat >"$OUT/bigsets-run.py" <<'PY'
import collections, os, subprocess, sys, threading, time
name, entries, expect = sys.argv[1], int(sys.argv[2]), sys.argv[3]
args = sys.argv[4:]
start = time.monotonic()
p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
counts = collections.Counter()
err = []
def out():
    for line in p.stdout:
        counts[line[:1]] += 1
        counts["lines"] += 1
def errs():
    err.extend(p.stderr.read().decode(errors="replace").splitlines())
ts = [threading.Thread(target=out), threading.Thread(target=errs)]
for t in ts:
    t.start()
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
for t in ts:
    t.join()
code = os.waitstatus_to_exitcode(status)
if expect.startswith("lines="):
    got = "lines=%d" % counts["lines"]
else:
    got = "+%d -%d ~%d" % (counts[b"+"], counts[b"-"], counts[b"~"])
ok = "right" if got == expect else "WRONG: got %s, want %s" % (got, expect)
if code not in (0, 1):
    ok += ", exit %d: %s" % (code, " / ".join(err[-3:]))
cpu = ru.ru_utime + ru.ru_stime
m = entries / 1e6
print("| %s | %.1f s | %.1f s/M | %.1f (%.1f user, %.1f sys) | %.2f | %.2f GB | %.0f B | %d MB | %s |" % (
    name, wall, wall / m, cpu, ru.ru_utime, ru.ru_stime, cpu / m, written / 1e9, written / entries,
    ru.ru_maxrss // 1024, ok))
sys.stdout.flush()
PY

say() { echo "$*" | tee -a "$RESULT"; }
: >"$RESULT"
say "# sets past memory at scale ($(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $SITEMAP)"
say ""
say "| run | wall | wall per M | CPU-s (user, sys) | CPU-s per M | written | per entry | peak RSS | output |"
say "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
SERVE_PID=
trap '[ -z "$SERVE_PID" ] || kill $SERVE_PID 2>/dev/null' EXIT
for m in $sizes; do
	n=$((m * 1000000))
	maps=$((n / 50000))
	for part in $parts; do
		case $part in
		diff)
			old=$OUT/big-${m}m-old new=$OUT/big-${m}m-new
			"$OUT/benchserve" -gen "$old" -sitemaps $maps -urls 50000 -variant old
			"$OUT/benchserve" -gen "$new" -sitemaps $maps -urls 50000 -variant new
			say "load before diff ${m}M: $(cut -d' ' -f1-3 /proc/loadavg)"
			python3 "$OUT/bigsets-run.py" "diff ${m}M" $((n * 2 * 99 / 100)) "+$((n / 100)) -$((n / 100)) ~$((n / 100))" \
				env TMPDIR="$OUT/tmp" "$SITEMAP" diff --tmp-dir "$OUT/tmp" "$old" "$new" | tee -a "$RESULT"
			say "load after diff ${m}M: $(cut -d' ' -f1-3 /proc/loadavg)"
			[ "${KEEP:-no}" = yes ] || rm -rf "$old" "$new"
			;;
		fetch)
			site=$OUT/big-${m}m-site
			fmaps=$((n / 45000)) distinct=$((n / 45000 * 45000))
			"$OUT/benchserve" -gen "$site" -sitemaps $fmaps -urls 45000 -repeat 10
			rm -f "$OUT/bigsets-$$.port"
			"$OUT/benchserve" -dir "$site" -portfile "$OUT/bigsets-$$.port" &
			SERVE_PID=$!
			i=0
			while [ ! -s "$OUT/bigsets-$$.port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
			say "load before fetch ${m}M: $(cut -d' ' -f1-3 /proc/loadavg)"
			python3 "$OUT/bigsets-run.py" "fetch ${m}M+10%" $((distinct + distinct / 10)) "lines=$distinct" \
				env TMPDIR="$OUT/tmp" "$SITEMAP" fetch "http://127.0.0.1:$(cat "$OUT/bigsets-$$.port")/sitemap_index.xml" | tee -a "$RESULT"
			say "load after fetch ${m}M: $(cut -d' ' -f1-3 /proc/loadavg)"
			kill $SERVE_PID 2>/dev/null
			wait $SERVE_PID 2>/dev/null || true
			SERVE_PID=
			[ "${KEEP:-no}" = yes ] || rm -rf "$site"
			;;
		esac
	done
done
