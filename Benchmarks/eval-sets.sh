#!/usr/bin/env bash
# Runs scanextract over the evaluation sets in ../shared/eval and prints every figure the
# pipeline is judged by, so two builds can be compared in one run:
#   Benchmarks/eval-sets.sh OUT BINARY [extra scanextract options...]
# Figures: receipt photos (fields, items), cards (all, photo half, flat half), sroie-dev
# (fields, OCR char-trigram F1), with wall time, CPU time and peak memory per set.
# The evaluation data is read in place, never copied.
set -euo pipefail
out=$1; bin=$2; shift 2
eval_dir=${EVAL_DIR:-"$(cd "$(dirname "$0")/../.." && pwd)/shared/eval"}
sets=${SETS:-"receipts-photo-dev cards-dev sroie-dev"}
mkdir -p "$out"
: > "$out/times.txt"
for s in $sets; do
    rm -rf "${out:?}/$s"; mkdir -p "$out/$s"
    /usr/bin/time -f "$s: wall %e s, cpu %U+%S s, peak %M KiB" -a -o "$out/times.txt" \
        "$bin" --quiet --output-dir "$out/$s" "$@" "$eval_dir/$s/img/" || true
done
# The cards' photo half (JPEG) and flat half (PNG), scored apart through ground-truth links.
halves=$(mktemp -d); trap 'rm -rf "$halves"' EXIT
mkdir -p "$halves/photo" "$halves/flat"
for f in "$eval_dir"/cards-dev/img/*; do
    b=$(basename "$f"); id=${b%.*}
    case $b in *.jpg|*.jpeg) h=photo ;; *) h=flat ;; esac
    ln -s "$eval_dir/cards-dev/gt/$id.json" "$halves/$h/$id.json"
done
cat "$out/times.txt"
for s in $sets; do
    case $s in
    cards-dev)
        echo "cards-dev all:   $(python3 "$eval_dir/score_cards.py" "$out/$s" "$eval_dir/cards-dev/gt" | tail -n 1)"
        echo "cards-dev photo: $(python3 "$eval_dir/score_cards.py" "$out/$s" "$halves/photo" | tail -n 1)"
        echo "cards-dev flat:  $(python3 "$eval_dir/score_cards.py" "$out/$s" "$halves/flat" | tail -n 1)" ;;
    sroie-dev)
        echo "sroie-dev: $(python3 "$eval_dir/score_receipts.py" "$out/$s" "$eval_dir/$s/key" | tail -n 1)"
        echo "sroie-dev: $(python3 "$eval_dir/score_ocr.py" "$out/$s" "$eval_dir/$s/box" | tail -n 1)" ;;
    *)
        python3 "$eval_dir/score_receipts.py" "$out/$s" "$eval_dir/$s/key" | grep -E "^items|receipt-fields" | sed "s/^/$s: /" ;;
    esac
done
