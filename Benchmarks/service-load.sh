#!/usr/bin/env bash
# Load on `scanextract serve`, on loopback only, with Debian's wrk (apt-get install wrk):
#   1. the HTTP overhead of a synchronous extraction over the command line's time, same page;
#   2. CLIENTS connections posting receipts (async) for DURATION: statuses seen (only 202, 429
#      and 503 are allowed), no job lost (every 202 is a job in the store that ends), and the
#      peak memory of the server with its workers;
#   3. at the same time, /healthz latency (p50/p99) from one more connection while the workers
#      are saturated; and again while they drain the queue with no client pushing.
# Usage: Benchmarks/service-load.sh BINARY [DURATION (wrk syntax, default 2m)] [CLIENTS (50)] [DRAIN_SECONDS (600)] [RECEIPT]
# Everything it starts stops by itself (wrk runs for DURATION; the server is stopped at the end).
set -euo pipefail
bin=$(realpath "$1")
duration=${2:-2m}
clients=${3:-50}
drain=${4:-600}
receipt=$(realpath "${5:-$(dirname "$0")/../Samples/receipt.png}")
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 69; }
work=$(mktemp -d)
server=""
server1=""
sampler=""
cleanup() {
    [ -n "$server1" ] && kill -TERM "$server1" 2>/dev/null || true
    [ -n "$sampler" ] && kill "$sampler" 2>/dev/null || true
    [ -n "$server" ] && kill -TERM "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# Starts `scanextract serve ARGS...` on a free loopback port: sets started_pid and started_port.
start_server() { # log args...
    local log=$1; shift
    "$bin" serve --host 127.0.0.1 --port 0 "$@" 2> "$log" &
    started_pid=$!
    for _ in $(seq 1 600); do
        started_port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$log" | grep -o '[0-9]*$' || true)
        [ -n "$started_port" ] && return 0
        sleep 0.1
    done
    echo "the server did not start:" >&2; cat "$log" >&2; exit 1
}
echo "receipt $(basename "$receipt"), $(stat -c %s "$receipt") bytes"

# --- 1. Sync overhead, like for like: a server with one worker (whose engine then gets every
# core, as the command line's does for one file) against the command line's own time for the
# page once its models are loaded, (time for 6 copies - time for 1 copy) / 5 with `--jobs 1`.
# Medians of 7 requests after one warm-up; Server-Timing says how the server's share splits.
start_server "$work/server1.log" --data-dir "$work/data1" --workers 1
server1=$started_pid; port1=$started_port
curl -s -o /dev/null --data-binary @"$receipt" "http://127.0.0.1:$port1/v1/extractions"
http=(); run=()
for _ in 1 2 3 4 5 6 7; do
    curl -s -o /dev/null -D "$work/headers" -w '%{time_total}\n' --data-binary @"$receipt" \
        "http://127.0.0.1:$port1/v1/extractions" > "$work/total"
    http+=("$(cat "$work/total")")
    run+=("$(grep -i '^server-timing' "$work/headers" | grep -o 'run;dur=[0-9.]*' | cut -d= -f2)")
done
kill -TERM "$server1"; wait "$server1" 2>/dev/null || true
mkdir -p "$work/one" "$work/six"
ext=${receipt##*.}
ln -s "$receipt" "$work/one/page-1.$ext"
for i in 1 2 3 4 5 6; do ln -s "$receipt" "$work/six/page-$i.$ext"; done
seconds() { local s e; s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
pages=()
for _ in 1 2 3; do
    t1=$(seconds "$bin" --quiet --jobs 1 "$work/one")
    t6=$(seconds "$bin" --quiet --jobs 1 "$work/six")
    pages+=("$(echo "($t6 - $t1) / 5" | bc -l)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
http_ms=$(echo "$(median "${http[@]}") * 1000" | bc -l); run_ms=$(median "${run[@]}")
page_ms=$(echo "$(median "${pages[@]}") * 1000" | bc -l)
printf 'sync extraction, one worker: HTTP median %.1f ms (worker run %.1f ms); CLI page median %.1f ms (models loaded)\n' \
    "$http_ms" "$run_ms" "$page_ms"
printf 'HTTP overhead over the CLI page: %.1f ms; the server around its worker: %.1f ms\n' \
    "$(echo "$http_ms - $page_ms" | bc -l)" "$(echo "$http_ms - $run_ms" | bc -l)"

# --- 2 and 3. Load, with /healthz probed beside it and memory sampled every 0.5 s.
start_server "$work/server.log" --data-dir "$work/data" --workers 2 --max-queued 200
server=$started_pid; base="http://127.0.0.1:$started_port"
echo "server pid $server on $base"
cat > "$work/post.lua" <<'LUA'
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
    counts = {}
    local f = assert(io.open(os.getenv("RECEIPT"), "rb"))
    wrk.body = f:read("*a")
    f:close()
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/octet-stream"
end
function response(status, headers, body)
    counts[status] = (counts[status] or 0) + 1
end
function done(summary, latency, requests)
    local total = {}
    for _, t in ipairs(threads) do
        for status, n in pairs(t:get("counts")) do total[status] = (total[status] or 0) + n end
    end
    local out = assert(io.open(os.getenv("COUNTS"), "w"))
    for status, n in pairs(total) do
        io.write(string.format("status %d: %d\n", status, n))
        out:write(string.format("%d %d\n", status, n))
    end
    out:close()
end
LUA

( peak=0
  while true; do
      total=$(ps -o rss= -p "$server" --ppid "$server" 2>/dev/null | awk '{s += $1} END {print s + 0}')
      [ "$total" -gt "$peak" ] && peak=$total && echo "$peak" > "$work/peak"
      sleep 0.5
  done ) &
sampler=$!

RECEIPT="$receipt" COUNTS="$work/counts" wrk -t2 -c"$clients" -d"$duration" -s "$work/post.lua" \
    "$base/v1/extractions?async=true&type=receipt" > "$work/load.txt" &
load=$!
sleep 2  # the queue fills and the workers are busy
wrk -t1 -c1 -d"$duration" --latency "$base/healthz" > "$work/healthz.txt" || true
wait "$load" || true
echo "--- $clients clients posting receipts for $duration (async):"
grep -E "Requests/sec|requests in|Non-2xx|Socket errors|status " "$work/load.txt" || cat "$work/load.txt"
echo "--- /healthz from one more connection meanwhile:"
grep -E "^ +(50|90|99)%|Requests/sec" "$work/healthz.txt" || cat "$work/healthz.txt"

bad=$(awk '$1 != 202 && $1 != 429 && $1 != 503 {s += $2} END {print s + 0}' "$work/counts")
accepted=$(awk '$1 == 202 {s += $2} END {print s + 0}' "$work/counts")
echo "responses other than 202/429/503: $bad"

# No lost job: right after the load, the store holds every accepted job ;
# then, for at most DRAIN_SECONDS, the queue is left to drain and what ended is counted.
metric() { curl -s "$base/metrics" | awk -v s="scanextract_jobs{state=\"$1\"}" '$1 == s {print $2}'; }
stored() { echo $(( $(metric queued) + $(metric running) + $(metric succeeded) + $(metric failed) + $(metric canceled) )); }
echo "jobs accepted (202) under load: $accepted; jobs in the store: $(stored)"
# While the queue drains, the workers are saturated and no client is pushing: /healthz alone.
if [ $(( $(metric queued) )) -gt 20 ]; then
    wrk -t1 -c1 -d20s --latency "$base/healthz" > "$work/healthz-drain.txt" || true
    echo "--- /healthz while the workers drain the queue (20 s, no other client):"
    grep -E "^ +(50|90|99)%|Requests/sec" "$work/healthz-drain.txt" || cat "$work/healthz-drain.txt"
fi
for _ in $(seq 1 "$drain"); do
    [ $(( $(metric queued) + $(metric running) )) -eq 0 ] && break
    sleep 1
done
echo "after draining (at most ${drain}s): succeeded $(metric succeeded), failed $(metric failed), still queued or running $(( $(metric queued) + $(metric running) ))"
echo "peak memory, server + workers: $(( $(cat "$work/peak" 2>/dev/null || echo 0) / 1024 )) MiB"
