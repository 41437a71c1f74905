#!/bin/sh
# Cross-validation of the receipt field scores: for each fold, train on the other folds (and on
# any extra sets), then run scanextract on the fold's documents with that model and score them.
#
#   Tools/train-receipt-fields/kfold.sh DOC_DIR KEY_DIR OUT_DIR [FOLDS] [EXTRA_DUMP_DIR EXTRA_KEY_DIR]
#
# DOC_DIR holds Document JSON named <id>.json, KEY_DIR the key files (<id>.json). Every document
# is predicted once, by the model of the fold that left it out; OUT_DIR/pred gets the outputs.
# Needs `swift build -c release --product scanextract --product DumpReceiptFields`, and the scorer
# (SCORER, default ../shared/eval/score_receipts.py).
set -e
docs=$1 keys=$2 out=$3 folds=${4:-5}
extra_dump=$5 extra_keys=$6
bin=${SCANEXTRACT:-.build/release/scanextract}
dump=${DUMP:-.build/release/DumpReceiptFields}
scorer=${SCORER:-../shared/eval/score_receipts.py}
here=$(dirname "$0")
rm -rf "$out/pred"
mkdir -p "$out/pred"
# A dump already there is reused (REDUMP=1 makes it again, as after a change of the features).
if [ -n "$REDUMP" ] || [ ! -f "$out/dump/candidates.jsonl" ]; then "$dump" "$out/dump" "$docs"; fi
k=0
while [ "$k" -lt "$folds" ]; do
    python3 "$here/train.py" "$out/dump" $extra_dump --keys "$keys" $extra_keys --folds "$folds" --fold "$k" \
        --fold-ids "$out/fold-$k.txt" --out "$out/model-$k.json" 2>"$out/train-$k.log" >/dev/null
    files=$(sed "s|.*|$docs/&.json|" "$out/fold-$k.txt")
    SCANEXTRACT_RECEIPT_MODEL="$out/model-$k.json" "$bin" -q -o "$out/pred" $files || true
    echo "fold $k: $(python3 "$scorer" "$out/pred" "$keys" --ids "$out/fold-$k.txt" | tail -1)"
    k=$((k + 1))
done
echo "all folds:"
python3 "$scorer" "$out/pred" "$keys"
