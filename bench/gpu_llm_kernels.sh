#!/usr/bin/env bash
# One decode step's device kernels, ours against mlx-lm's on the same checkpoint,
# on the GPU machine after ../shared/GPU.md's install calls, with DIR made here by
# `bench/llm_size.py --prepare DIR ...` and mlx-lm's wheel in .whl:
#   bash .gpu/p3/install.sh && bash bench/gpu_llm_kernels.sh DIR DTYPE
# Unpacks DIR (bench/llm_size.py --run, which also prints its usual table with
# --split), then runs bench/gpu_kernels.py over mlxd-generate and over mlx-lm's
# generation (a 16-token prompt). Results go to $OUT.
set -euo pipefail
source /tmp/gpu/env.sh
DIR=$1
DTYPE=$2
OUT=${OUT:-/tmp/out}
BUILD=/tmp/mlxd-build
WORK=/tmp/llm-size/$(basename "$DIR")
mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/peers .whl/mlx_lm-*.whl
export PYTHONPATH=/tmp/peers:$PYTHONPATH
source bench/gpu_build.sh
gpu_build "$BUILD" "$OUT" mlx_delegate mlxd-generate mlx-cuda
python3 bench/llm_size.py --run "$DIR" --dtypes "$DTYPE" --generate "$BUILD/mlxd-generate" \
  --work "$WORK" --split ${LLM_SIZE_ARGS:-} 2>&1 | tee "$OUT/size.txt"
PROMPT="$(seq 3 7 113 | tr '\n' ' ')"
python3 bench/gpu_kernels.py --label "ours $DTYPE" -- "$BUILD/mlxd-generate" \
  "$WORK/$DTYPE.pte" --device gpu:0 --prompt-ids "$PROMPT" --max-new-tokens '{N}' \
  --ignore-eos --warmup 0 2>&1 | tee "$OUT/kernels_ours.txt"
python3 bench/gpu_kernels.py --label "mlx-lm $DTYPE" --steps-per-token 2 -- python3 \
  bench/llm_size.py --child mlx_lm --child-checkpoint "$WORK/checkpoint" --child-dtype "$DTYPE" \
  --prompt-len 16 --new-tokens '{N}' --group-size 64 --max-seq-len 1024 2>&1 \
  | tee "$OUT/kernels_mlx_lm.txt"
