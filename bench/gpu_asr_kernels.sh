#!/usr/bin/env bash
# The device kernels of one 30 s window's transcription, ours against mlx-whisper's, on the
# GPU machine after bench/gpu_asr.sh DIR (which builds mlxd-transcribe, installs mlx-whisper and
# unpacks DIR's programs and checkpoints):
#   bash bench/gpu_asr_kernels.sh DIR/SHAPE DTYPE
# bench/gpu_kernels.py --once over each, one token decoded (the encoder's kernels dominate):
# each with its warm-up (two windows: the first moves the weights into the GPU's memory).
# Results go to $OUT.
set -euo pipefail
source /tmp/gpu/env.sh
DIR=$1
DTYPE=$2
OUT=${OUT:-/tmp/out}
SHAPE=$(basename "$DIR")
WORK=/tmp/asr-bench/$SHAPE
mkdir -p "$OUT"
export PYTHONPATH=/tmp/peers:$PYTHONPATH
python3 bench/gpu_kernels.py --once 2 --label "ours $SHAPE $DTYPE" -- \
  /tmp/mlxd-build/mlxd-transcribe "$WORK/$DTYPE.pte" --features "$DIR/features.bin" \
  --prompt-ids "$(cat "$DIR/prompt.txt")" --device gpu:0 --warmup 1 --ignore-eos \
  --max-new-tokens 1 2>&1 | tee "$OUT/kernels_ours_${SHAPE}_$DTYPE.txt"
python3 bench/gpu_kernels.py --once 2 --label "mlx-whisper $SHAPE $DTYPE" -- \
  python3 bench/asr.py --child mlx-whisper --checkpoint "$WORK/checkpoint" \
  --features "$DIR/features.bin" --dtypes "$DTYPE" --tokens 1 --device gpu:0 2>&1 \
  | tee "$OUT/kernels_mlx_whisper_${SHAPE}_$DTYPE.txt"
