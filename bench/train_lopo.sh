#!/usr/bin/env bash
# Leave-one-print-out symbol models for `bench/vision_accuracy.py --cells lopo --lopo DIR`: for each
# print family P of vision.art.style.PRINTS, a symbol model trained on every family but P
# (DIR/ono-symbols-without-P.npz). One model is about 8000 samples x 20 epochs: minutes each on a
# shared CPU. Usage: bench/train_lopo.sh DIR [P ...]   (no P: every family)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:?usage: bench/train_lopo.sh DIR [PRINT ...]}
shift
mkdir -p "$DIR"
if ! .venv/bin/tableref train --help | grep -q -- --exclude-print; then
    echo "train_lopo.sh: this tableref train has no --exclude-print yet" >&2
    exit 2
fi
if [ $# -eq 0 ]; then
    set -- $(.venv/bin/python -c 'from vision.art.style import PRINTS; print(" ".join(PRINTS))')
fi
for P in "$@"; do
    out="$DIR/ono-symbols-without-$P.npz"
    if [ -f "$out" ]; then echo "have $out"; continue; fi
    echo "training $out"
    .venv/bin/tableref train --deck ono --samples 8000 --epochs 20 --seed 1 --exclude-print "$P" --out "$out"
done
