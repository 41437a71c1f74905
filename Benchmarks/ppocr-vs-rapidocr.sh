#!/bin/sh
# Times the PP-OCR engine (PPOCREval, 2 workers x 1 ONNX Runtime thread) and
# RapidOCR 3.10 (Python, same v6 models, its default threads) on the same images,
# back to back, process start-up included, and scores both with score_ocr.py.
#
# usage: Benchmarks/ppocr-vs-rapidocr.sh IMAGE_DIR BOX_DIR OUT [RAPIDOCR_PYTHON]
# RAPIDOCR_PYTHON: a python with rapidocr==3.10.0 and onnxruntime==1.31.1
# (python3 -m venv /tmp/venv-rapid && /tmp/venv-rapid/bin/pip install rapidocr==3.10.0 onnxruntime==1.31.1).
set -eu
IMG=$1; BOX=$2; OUT=$3; PY=${4:-/tmp/venv-rapid/bin/python}
ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
EVAL=${EVAL:-$ROOT/../shared/eval}
mkdir -p "$OUT"
n=$(ls "$IMG" | grep -ciE '\.(jpe?g|png)$')
ls "$IMG" | grep -iE '\.(jpe?g|png)$' | sed 's/\.[^.]*$//' > "$OUT/ids"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

rm -rf "$OUT/ppocr"
/usr/bin/time -f "%e %M %U %S" -o "$OUT/ppocr.time" "$ROOT/.build/release/PPOCREval" "$IMG" "$OUT/ppocr" --workers 2 --threads 1 > "$OUT/ppocr.log"
set -- $(cat "$OUT/ppocr.time")
echo "ppocr (swift): $n pages, wall $1 s, $(echo "$1 $n" | awk '{printf "%.3f", $1/$2}') s/page, peak RSS $(($2 / 1024)) MiB, CPU $(echo "$3 $4 $n" | awk '{printf "%.3f", ($1+$2)/$3}') s/page"
python3 "$EVAL/score_ocr.py" "$OUT/ppocr" "$BOX" --ids "$OUT/ids" | tail -1

cat > "$OUT/rapid_run.py" <<'PY'
import sys, os, json
from rapidocr import RapidOCR
eng = RapidOCR()
src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for f in sorted(os.listdir(src)):
    if not f.lower().endswith((".jpg", ".jpeg", ".png")):
        continue
    p = os.path.join(src, f)
    r = eng(p)
    txts = list(r.txts) if r.txts is not None else []
    json.dump({"source": p, "pages": [{"observations": [{"text": t} for t in txts]}]},
              open(os.path.join(out, os.path.splitext(f)[0] + ".json"), "w"))
PY
rm -rf "$OUT/rapidocr"
/usr/bin/time -f "%e %M %U %S" -o "$OUT/rapidocr.time" "$PY" "$OUT/rapid_run.py" "$IMG" "$OUT/rapidocr" > "$OUT/rapidocr.log" 2>&1
set -- $(cat "$OUT/rapidocr.time")
echo "rapidocr 3.10 (python): $n pages, wall $1 s, $(echo "$1 $n" | awk '{printf "%.3f", $1/$2}') s/page, peak RSS $(($2 / 1024)) MiB, CPU $(echo "$3 $4 $n" | awk '{printf "%.3f", ($1+$2)/$3}') s/page"
python3 "$EVAL/score_ocr.py" "$OUT/rapidocr" "$BOX" --ids "$OUT/ids" | tail -1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
