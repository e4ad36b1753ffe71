#!/usr/bin/env bash
# Leave-one-print-out symbol networks beside bench/train_lopo.sh's HOG classifiers, for
# `bench/vision_accuracy.py --cells lopo --lopo DIR` (which reads each family P with
# DIR/ono-symbols-without-P.npz and, where it exists, DIR/ono-symbols-net-without-P.onnx).
# The glyphs are rendered once (DIR/glyphs.npz, every family, tagged by family) and each network is
# trained on them less P. Usage: bench/train_lopo_net.sh DIR [P ...]   (no P: every family)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:?usage: bench/train_lopo_net.sh DIR [PRINT ...]}
shift
mkdir -p "$DIR"
SAMPLES=${SAMPLES:-60000}
EPOCHS=${EPOCHS:-8}
if [ ! -f "$DIR/glyphs.npz" ]; then
    .venv/bin/python -m vision.read.train_net render --samples "$SAMPLES" --seed 3 --out "$DIR/glyphs.npz"
fi
if [ $# -eq 0 ]; then
    set -- $(.venv/bin/python -c 'from vision.art.style import PRINTS; print(" ".join(PRINTS))')
fi
for P in "$@"; do
    out="$DIR/ono-symbols-net-without-$P.onnx"
    if [ -f "$out" ]; then echo "have $out"; continue; fi
    echo "training $out"
    .venv/bin/python -m vision.read.train_net fit --data "$DIR/glyphs.npz" --epochs "$EPOCHS" --seed 0 \
        --exclude-print "$P" --out "$out"
done
