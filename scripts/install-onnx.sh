#!/bin/sh
# Installs the PP-OCR engine's two parts as plain files under .deps/ (no virtualenv,
# no Python dependencies): the PP-OCRv6 ONNX models from the rapidocr wheel and the
# ONNX Runtime C library from the onnxruntime wheel. Idempotent and quiet when both
# are already present. Override the locations with SCANEXTRACT_DEPS (the .deps folder)
# or PYTHON (the interpreter whose pip is used).
#
# usage: install-onnx.sh [--noncjk]
#   --noncjk  also writes the recognizer with its output layer cut to the scripts below
#             the East Asian blocks (scripts/slice-recognizer.py), which needs the `onnx`
#             package (about 110 MB with its dependencies, pip-installed into .deps/python,
#             not needed at run time). The engine uses that model only when
#             PPOCRRecognizer.Settings.useNonCJKRecognizer is on, which it is not by default,
#             so `make deps` does not do this step; `make noncjk-recognizer` does.
set -eu

noncjk=0
for arg in "$@"; do
    case "$arg" in
        --noncjk) noncjk=1 ;;
        *) echo "install-onnx: unknown argument '$arg' (usage: install-onnx.sh [--noncjk])" >&2; exit 64 ;;
    esac
done

ROOT=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
DEPS=${SCANEXTRACT_DEPS:-"$ROOT/.deps"}
PYTHON=${PYTHON:-python3}
RAPIDOCR_VERSION=3.10.0
ONNXRUNTIME_VERSION=1.31.1
ONNX_PACKAGE=onnx==1.23.2

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

# With --noncjk: the recognizer with an output layer for the scripts below the East Asian
# blocks only (Latin, Greek, Cyrillic, symbols), used with Settings.useNonCJKRecognizer
# unless --languages asks for Chinese, Japanese or Korean. Written once by
# scripts/slice-recognizer.py with the `onnx` package, which pip installs into .deps/python.
sliced="$models/PP-OCRv6_rec_small.noncjk.onnx"
if [ "$noncjk" = 1 ] && [ ! -s "$sliced" ]; then
    if ! PYTHONPATH="$DEPS/python" "$PYTHON" -c "import onnx" >/dev/null 2>&1; then
        echo "install-onnx: installing $ONNX_PACKAGE (to slice the recognizer's output layer) into $DEPS/python"
        pipinstall "$DEPS/python" --deps "$ONNX_PACKAGE"
    fi
    PYTHONPATH="$DEPS/python" "$PYTHON" "$ROOT/scripts/slice-recognizer.py" "$models/PP-OCRv6_rec_small.onnx" "$sliced.tmp"
    mv "$sliced.tmp" "$sliced"
fi

set -- "$models/PP-OCRv6_det_small.onnx" "$models/PP-OCRv6_rec_small.onnx" \
       "$models/ch_ppocr_mobile_v2.0_cls_mobile.onnx" "$runtime"
[ "$noncjk" = 1 ] && set -- "$@" "$sliced"
for f in "$@"; do
    if [ ! -s "$f" ]; then
        echo "install-onnx: expected $f after installing, but it is missing" >&2
        exit 1
    fi
done
