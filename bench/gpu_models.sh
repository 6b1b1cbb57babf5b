#!/usr/bin/env bash
# The GPU side of bench/models.py, run on the GPU machine after ../shared/GPU.md's
# install calls, with .gpu/models made here by `bench/models.py --prepare-gpu .gpu/models`:
#   bash .gpu/p3/install.sh && bash bench/gpu_models.sh [DIR]      (carry .gpu/models)
# Builds the delegate, the CUDA plugin and mlxd-run, then times the llama-like block
# at four sizes: ours through mlxd-run on gpu:0 (compile on and off), torch eager CUDA
# fp32 and bf16, MLX (CUDA) compiled and not, on the same weights, and where a call of
# ours goes (--split). Results go to $OUT:
# models_gpu.txt (the log), models_gpu.md (the table), models_gpu.json, and
# models_gpu.png when matplotlib imports (DIR/wheels from --with-matplotlib).
set -euo pipefail
source /tmp/gpu/env.sh
DIR=${1:-.gpu/models}
OUT=${OUT:-/tmp/out}
BUILD=/tmp/mlxd-build
mkdir -p "$OUT"
start=$(date +%s)
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
source bench/gpu_build.sh
gpu_build "$BUILD" "$OUT" mlx_delegate mlxd-run mlx-cuda | tee -a "$OUT/gpu.txt"
if compgen -G "$DIR/wheels/*.whl" >/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/mpl "$DIR"/wheels/*.whl \
    && export PYTHONPATH=/tmp/mpl:$PYTHONPATH || echo "matplotlib: install failed, no plot"
fi
python3 bench/models.py --gpu "$DIR" --runner "$BUILD/mlxd-run" --out "$OUT" --work /tmp/models-work \
  --warmup 10 --repeat 100 --max-seconds 3 --split 2>&1 | tee "$OUT/models_gpu.txt"
echo "whole GPU side: $(($(date +%s) - start)) s" | tee -a "$OUT/gpu.txt"
