#!/bin/sh
# Installs the PP-OCR engine's two parts as plain files under .deps/ (no virtualenv,
# no Python dependencies): the PP-OCRv6 ONNX models from the rapidocr wheel and the
# ONNX Runtime C library from the onnxruntime wheel. Idempotent and quiet when both
# are already present. Override the locations with SCANEXTRACT_DEPS (the .deps folder)
# or PYTHON (the interpreter whose pip is used).
#
# usage: install-onnx.sh [--noncjk] [--int8]
#   --int8    also writes the detector with an 8-bit backbone (scripts/quantize-detector.py,
#             calibrated on the project's own Samples/ pages), which the engine runs only when
#             asked (SCANEXTRACT_PPOCR_DETECTOR=int8; Settings.detectorPrecision). It needs
#             the `onnx`, Pillow and packaging packages, pip-installed into .deps/python (not
#             needed at run time). `make int8-detector` does this step; `make test` too.
#   --noncjk  also writes the recognizer with its output layer cut to the scripts below
#             the East Asian blocks (scripts/slice-recognizer.py), which needs the `onnx`
#             package (about 110 MB with its dependencies, pip-installed into .deps/python,
#             not needed at run time). The engine uses that model only when
#             PPOCRRecognizer.Settings.useNonCJKRecognizer is on, which it is not by default,
#             so `make deps` does not do this step; `make noncjk-recognizer` does.
set -eu

noncjk=0
int8=0
for arg in "$@"; do
    case "$arg" in
        --noncjk) noncjk=1 ;;
        --int8) int8=1 ;;
        *) echo "install-onnx: unknown argument '$arg' (usage: install-onnx.sh [--noncjk] [--int8])" >&2; exit 64 ;;
    esac
done

ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
DEPS=${SCANEXTRACT_DEPS:-"$ROOT/.deps"}
PYTHON=${PYTHON:-python3}
RAPIDOCR_VERSION=3.10.0
ONNXRUNTIME_VERSION=1.31.1
ONNX_PACKAGE=onnx==1.23.2
PILLOW_PACKAGE=pillow==12.0.0
PACKAGING_PACKAGE=packaging==26.4

models="$DEPS/rapidocr/rapidocr/models"
runtime="$DEPS/onnxruntime/onnxruntime/capi/libonnxruntime.so.$ONNXRUNTIME_VERSION"

need_models=0
for f in PP-OCRv6_det_small.onnx PP-OCRv6_rec_small.onnx ch_ppocr_mobile_v2.0_cls_mobile.onnx; do
    [ -s "$models/$f" ] || need_models=1
done

pipinstall() { # target [--deps] spec...
    if ! "$PYTHON" -m pip --version >/dev/null 2>&1; then
        echo "install-onnx: '$PYTHON -m pip' is not available; install python3-pip (apt-get install python3-pip)" >&2
        exit 1
    fi
    target=$1; shift
    nodeps=--no-deps; [ "$1" = --deps ] && { nodeps=; shift; }
    rm -rf "$target"
    PIP_ROOT_USER_ACTION=ignore "$PYTHON" -m pip install --quiet --disable-pip-version-check $nodeps --target "$target" "$@"
}

if [ "$need_models" = 1 ]; then
    echo "install-onnx: installing rapidocr==$RAPIDOCR_VERSION (PP-OCRv6 models) into $DEPS/rapidocr"
    pipinstall "$DEPS/rapidocr" "rapidocr==$RAPIDOCR_VERSION"
fi
if [ ! -s "$runtime" ]; then
    echo "install-onnx: installing onnxruntime==$ONNXRUNTIME_VERSION (C library) into $DEPS/onnxruntime"
    pipinstall "$DEPS/onnxruntime" "onnxruntime==$ONNXRUNTIME_VERSION"
fi

needonnx() { # why
    if ! PYTHONPATH="$DEPS/python" "$PYTHON" -c "import onnx, PIL, packaging" >/dev/null 2>&1; then
        echo "install-onnx: installing $ONNX_PACKAGE, $PILLOW_PACKAGE and $PACKAGING_PACKAGE ($1) into $DEPS/python"
        pipinstall "$DEPS/python" --deps "$ONNX_PACKAGE" "$PILLOW_PACKAGE" "$PACKAGING_PACKAGE"
    fi
}

# With --int8: the 8-bit detector, written once from the 32-bit one.
quantized="$models/PP-OCRv6_det_small.int8.onnx"
if [ "$int8" = 1 ] && [ ! -s "$quantized" ]; then
    needonnx "to write the 8-bit detector"
    rm -f "$quantized.tmp"
    log="$quantized.log"
    if ! PYTHONPATH="$DEPS/python:$DEPS/onnxruntime" "$PYTHON" "$ROOT/scripts/quantize-detector.py" \
        "$models/PP-OCRv6_det_small.onnx" "$quantized.tmp" \
        "$ROOT/Samples/receipt.png" "$ROOT/Samples/receipt-upside-down.tif" \
        "$ROOT/Samples/business-card.png" "$ROOT/Samples/business-card-photo.jpg" \
        "$ROOT/Samples/scanned-letter.pdf" "$ROOT/Samples/invoice.pdf" >"$log" 2>&1; then
        cat "$log" >&2
        echo "install-onnx: writing the 8-bit detector failed (log above)" >&2
        rm -f "$quantized.tmp"
        exit 1
    fi
    grep "^quantize-detector:" "$log" || true  # not the quantizer's warnings
    rm -f "$log"
    mv "$quantized.tmp" "$quantized"
fi

# With --noncjk: the recognizer with an output layer for the scripts below the East Asian
# blocks only (Latin, Greek, Cyrillic, symbols), used with Settings.useNonCJKRecognizer
# unless --languages asks for Chinese, Japanese or Korean. Written once by
# scripts/slice-recognizer.py with the `onnx` package, which pip installs into .deps/python.
sliced="$models/PP-OCRv6_rec_small.noncjk.onnx"
if [ "$noncjk" = 1 ] && [ ! -s "$sliced" ]; then
    needonnx "to slice the recognizer's output layer"
    PYTHONPATH="$DEPS/python" "$PYTHON" "$ROOT/scripts/slice-recognizer.py" "$models/PP-OCRv6_rec_small.onnx" "$sliced.tmp"
    mv "$sliced.tmp" "$sliced"
fi

set -- "$models/PP-OCRv6_det_small.onnx" "$models/PP-OCRv6_rec_small.onnx" \
       "$models/ch_ppocr_mobile_v2.0_cls_mobile.onnx" "$runtime"
[ "$noncjk" = 1 ] && set -- "$@" "$sliced"
[ "$int8" = 1 ] && set -- "$@" "$quantized"
for f in "$@"; do
    if [ ! -s "$f" ]; then
        echo "install-onnx: expected $f after installing, but it is missing" >&2
        exit 1
    fi
done
