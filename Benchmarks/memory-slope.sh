#!/usr/bin/env bash
# Whether a folder run's memory stays flat as it goes: runs scanextract over FOLDER into OUT
# and samples its resident memory every 2 s together with the outputs written so far, then
# prints the peak in each quarter of the inputs. Flat means the last quarters peak no higher
# than the first.
#   Benchmarks/memory-slope.sh BINARY FOLDER OUT [extra scanextract options...]
set -euo pipefail
bin=$1; dir=$2; out=$3; shift 3
rm -rf "$out"; mkdir -p "$out"
total=$(find -L "$dir" -maxdepth 1 -type f | wc -l)
samples="$out.rss"; : > "$samples"
/usr/bin/time -f "%e %U %S %M" -o "$out.time" "$bin" --quiet --output-dir "$out" "$@" "$dir" &
timer=$!
sleep 0.5
pid=$(pgrep -P "$timer" | head -n 1 || true)
while kill -0 "$timer" 2>/dev/null; do
    if [ -n "$pid" ] && rss=$(ps -o rss= -p "$pid" 2>/dev/null); then
        echo "$(find "$out" -maxdepth 1 -name '*.json' | wc -l) $rss" >> "$samples"
    fi
    sleep 2
done
wait "$timer" || true
read -r wall user sys peak < "$out.time"
echo "inputs: $total  wall: ${wall} s  CPU: $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') s  peak: $(( peak / 1024 )) MiB"
awk -v n="$total" '
    { q = int(4 * $1 / (n + 1)); if (q > 3) q = 3; if ($2 > peak[q]) peak[q] = $2; seen[q] = 1 }
    END { for (q = 0; q < 4; q++) if (seen[q]) printf "outputs %d-%d%%: peak %d MiB\n", 25 * q, 25 * (q + 1), peak[q] / 1024 }
' "$samples"
