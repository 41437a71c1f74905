#!/usr/bin/env bash
# The speed table of issue 13 in one run (`make bench`): scanextract against RapidOCR 3.10
# on the same files, back to back, process start-up included.
#
#   Benchmarks/bench.sh BINARY OUT [RAPIDOCR_PYTHON]
#
# RAPIDOCR_PYTHON: a python with rapidocr==3.10.0 and onnxruntime==1.31.1 (default
# /tmp/venv-rapid/bin/python; made by
# `python3 -m venv /tmp/venv-rapid && /tmp/venv-rapid/bin/pip install rapidocr==3.10.0 onnxruntime==1.31.1`).
# Without it the RapidOCR column is left empty.
# Environment: SETS (default "sroie-dev receipts-photo-dev cards-dev"), EVAL_DIR (default
# ../shared/eval), PDF_COPIES (the PDF folder is listed this many times, default 10),
# MEMORY_COPIES (sroie-dev listed this many times for the memory run; default 0: no such run).
# The evaluation data is read in place, never copied.
set -euo pipefail
bin=$(readlink -f "$1"); out=$2; py=${3:-/tmp/venv-rapid/bin/python}
root=$(cd "$(dirname "$0")/.." && pwd)
eval_dir=${EVAL_DIR:-"$root/../shared/eval"}
sets=${SETS:-"sroie-dev receipts-photo-dev cards-dev"}
mkdir -p "$out"
rapid=1
"$py" -c "import rapidocr" 2>/dev/null || { rapid=0; echo "no rapidocr in $py: RapidOCR column left empty" >&2; }
cores=$(nproc)

# wall, cpu, peak KiB of one command, appended as "name wall cpu peak" to $out/times.
timed() { # name command...
    local name=$1; shift
    /usr/bin/time -f "$name %e %U %S %M" -a -o "$out/times" "$@"
}
: > "$out/times"
field() { # name column(2=wall,3=cpu,4=peak KiB)
    awk -v n="$1" -v c="$2" '$1 == n { if (c == 3) print $3 + $4; else if (c == 4) print $5; else print $2 }' "$out/times"
}
per_page() { awk -v a="$1" -v n="$2" 'BEGIN { printf "%.3f", a / n }'; }

cat > "$out/rapid_run.py" <<'PY'
import sys, os, json
from rapidocr import RapidOCR
eng = RapidOCR()
src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for f in sorted(os.listdir(src)):
    if not f.lower().endswith((".jpg", ".jpeg", ".png")):
        continue
    r = eng(os.path.join(src, f))
    txts = list(r.txts) if r.txts is not None else []
    json.dump({"source": f, "pages": [{"observations": [{"text": t} for t in txts]}]},
              open(os.path.join(out, os.path.splitext(f)[0] + ".json"), "w"))
PY

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $cores cores"
declare -A pages
for s in $sets; do
    pages[$s]=$(ls "$eval_dir/$s/img" | grep -ciE '\.(jpe?g|png)$')
    rm -rf "${out:?}/$s" "${out:?}/$s-rapid"
    timed "$s" "$bin" --quiet --output-dir "$out/$s" "$eval_dir/$s/img/" || true
    if [ $rapid = 1 ]; then
        timed "$s-rapid" "$py" "$out/rapid_run.py" "$eval_dir/$s/img" "$out/$s-rapid" > "$out/$s-rapid.log" 2>&1
    fi
done

# Digital PDFs: the text-layer folder listed PDF_COPIES times (links with new names), one run.
pdfs="$out/pdf-in"; rm -rf "$pdfs" "$out/pdf-out"; mkdir -p "$pdfs"
for k in $(seq 1 "${PDF_COPIES:-10}"); do
    for f in "$eval_dir"/invoices-pdf-dev/pdf/*.pdf; do ln -s "$f" "$pdfs/$k-$(basename "$f")"; done
done
timed pdf "$bin" --quiet --output-dir "$out/pdf-out" "$pdfs" || true
pdf_pages=$(python3 -c "
import json, os, sys
d = sys.argv[1]
print(sum(len(json.load(open(os.path.join(d, n))).get('pages', [])) for n in os.listdir(d) if n.endswith('.json')))
" "$out/pdf-out")
# Start-up with no OCR model: one text-layer PDF to stdout, the best of 5 runs (wall, CPU).
one=$(ls "$eval_dir"/invoices-pdf-dev/pdf/*.pdf | head -n 1)
for k in 1 2 3 4 5; do
    /usr/bin/time -f "%e %U %S" "$bin" --quiet "$one" 2>&1 >/dev/null | tail -n 1
done > "$out/startup"
startup=$(sort -n "$out/startup" | head -n 1 | cut -d' ' -f1)
startup_cpu=$(awk '{ print $2 + $3 }' "$out/startup" | sort -n | head -n 1)

if [ "${MEMORY_COPIES:-0}" -gt 0 ]; then
    mem="$out/memory-in"; rm -rf "$mem" "$out/memory-out"; mkdir -p "$mem"
    for k in $(seq 1 "$MEMORY_COPIES"); do
        for f in "$eval_dir"/sroie-dev/img/*; do ln -s "$f" "$mem/$k-$(basename "$f")"; done
    done
    "$root/Benchmarks/memory-slope.sh" "$bin" "$mem" "$out/memory-out" | tee "$out/memory-slope"
    echo "memory $(cat "$out/memory-out.time")" >> "$out/times"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

score_ocr() { python3 "$eval_dir/score_ocr.py" "$1" "$eval_dir/sroie-dev/box" | tail -n 1 | grep -oE '[0-9]+\.[0-9]+' | head -n 1; }
echo
echo "| measure | scanextract | RapidOCR 3.10 | ratio |"
echo "|---|---|---|---|"
for s in $sets; do
    n=${pages[$s]}
    w=$(per_page "$(field "$s" 2)" "$n"); c=$(per_page "$(field "$s" 3)" "$n")
    rw=-; rc=-; ratio=-
    if [ $rapid = 1 ]; then
        rw=$(per_page "$(field "$s-rapid" 2)" "$n"); rc=$(per_page "$(field "$s-rapid" 3)" "$n")
        ratio=$(awk -v a="$w" -v b="$rw" 'BEGIN { printf "%.2f", a / b }')
    fi
    echo "| $s ($n pages): wall s/page, $cores cores | $w | $rw | $ratio |"
    echo "| $s: CPU s/page | $c | $rc | $( [ $rapid = 1 ] && awk -v a="$c" -v b="$rc" 'BEGIN { printf "%.2f", a / b }' || echo -) |"
    echo "| $s: peak memory MiB | $(( $(field "$s" 4) / 1024 )) | $( [ $rapid = 1 ] && echo $(( $(field "$s-rapid" 4) / 1024 )) || echo -) | |"
    case $s in
    sroie-dev)
        echo "| sroie-dev: char3-F1 (score_ocr.py) | $(score_ocr "$out/$s") | $( [ $rapid = 1 ] && score_ocr "$out/$s-rapid" || echo -) | |"
        echo "| sroie-dev: $(python3 "$eval_dir/score_receipts.py" "$out/$s" "$eval_dir/$s/key" | tail -n 1) | | | |" ;;
    receipts-photo-dev)
        python3 "$eval_dir/score_receipts.py" "$out/$s" "$eval_dir/$s/key" | grep -E "^items|receipt-fields" \
            | sed "s/^/| $s: /; s/$/ | | | |/" ;;
    cards-dev)
        echo "| cards-dev: $(python3 "$eval_dir/score_cards.py" "$out/$s" "$eval_dir/cards-dev/gt" | tail -n 1) | | | |" ;;
    esac
done
pw=$(field pdf 2)
echo "| digital PDFs: pages/s, folder run ($pdf_pages text-layer pages, start-up included) | $(awk -v p="$pdf_pages" -v w="$pw" 'BEGIN { printf "%.0f", p / w }') | | |"
echo "| digital PDFs: CPU ms/page | $(awk -v p="$pdf_pages" -v c="$(field pdf 3)" 'BEGIN { printf "%.1f", c * 1000 / p }') | | |"
echo "| digital PDFs: peak memory MiB | $(( $(field pdf 4) / 1024 )) | | |"
echo "| start-up with no OCR (one text-layer PDF, best of 5), wall ms | $(awk -v s="$startup" 'BEGIN { printf "%.0f", s * 1000 }') | | |"
echo "| start-up with no OCR, CPU ms | $(awk -v s="$startup_cpu" 'BEGIN { printf "%.0f", s * 1000 }') | | |"
if [ "${MEMORY_COPIES:-0}" -gt 0 ]; then
    echo "| peak memory, $(( MEMORY_COPIES * ${pages[sroie-dev]:-100} )) sroie-dev files, MiB | $(( $(field memory 4) / 1024 )) | | |"
fi
