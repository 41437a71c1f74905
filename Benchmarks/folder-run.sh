#!/usr/bin/env bash
# Times one folder run of scanextract and prints pages per second and peak memory.
# Usage: Benchmarks/folder-run.sh BINARY FOLDER [extra scanextract options...]
set -euo pipefail
bin=$1; dir=$2; shift 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
# GNU time reports the peak resident set size of the process (all its threads).
/usr/bin/time -f "%M" -o "$out/.rss" "$bin" --quiet --output-dir "$out" "$@" "$dir" || true
end=$(date +%s.%N)
python3 - "$out" "$start" "$end" <<'PY'
import json, os, sys
out, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
pages = docs = 0
for n in os.listdir(out):
    if n.endswith(".json"):
        d = json.load(open(os.path.join(out, n)))
        docs += 1; pages += len(d.get("pages", []))
rss_kb = int(open(os.path.join(out, ".rss")).read().split()[-1])
secs = end - start
print(f"documents: {docs}  pages: {pages}  wall: {secs:.2f} s")
print(f"pages/s: {pages / secs:.3f}  s/page: {secs / max(1, pages):.3f}")
print(f"peak memory: {rss_kb / 1024:.0f} MiB")
PY
