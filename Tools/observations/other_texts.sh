#!/bin/bash
# Collects plain-text documents that are neither receipts nor business cards, from what a
# Debian machine ships: manual pages, license texts and configuration files. They become
# "other" training documents for the classifier:
#
#   Tools/observations/other_texts.sh /tmp/other-txt
#   Tools/observations/to_document.py text /tmp/other-txt /tmp/other-docs
#
# Nothing collected here is committed; only the weights learned from it are.
set -euo pipefail
out=${1:?usage: other_texts.sh OUT_DIR}
mkdir -p "$out"
# Manual pages (prose, option lists): every 60th page of section 1, up to 80.
n=0
for page in $(ls /usr/share/man/man1 | sed 's/\.1.*//' | sort -u | awk 'NR % 60 == 0'); do
    text=$(MANWIDTH=95 man -P cat "$page" 2>/dev/null | col -b || true)
    [ "$(printf '%s\n' "$text" | wc -l)" -ge 12 ] || continue
    printf '%s\n' "$text" > "$out/man_$page.txt"
    n=$((n + 1)); [ $n -lt 80 ] || break
done
# License texts (legal prose).
for f in /usr/share/common-licenses/*; do
    [ -f "$f" ] && cp "$f" "$out/license_$(basename "$f").txt"
done
# Configuration files (key-value forms, tables).
for f in /etc/*.conf /etc/services /etc/protocols /etc/mime.types; do
    [ -f "$f" ] && [ -r "$f" ] && grep -v '^\s*#' "$f" | grep -v '^\s*$' > "$out/conf_$(basename "$f").txt" || true
done
find "$out" -name '*.txt' -size -200c -delete
ls "$out" | wc -l
