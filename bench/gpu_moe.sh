#!/usr/bin/env bash
# The GPU side of bench/moe.py, run on the GPU machine after ../shared/GPU.md's
# install calls, with .gpu/moe made here by `bench/moe.py --prepare-gpu .gpu/moe`:
#   bash .gpu/p3/install.sh && bash bench/gpu_moe.sh [DIR]      (carry .gpu/moe)
# Builds the delegate, the CUDA plugin and mlxd-run, then times the MoE block's
# programs (experts copied per row, GatherMM, int4 GatherQMM) on gpu:0. Results go
# to $OUT/moe_gpu.txt.
set -euo pipefail
source /tmp/gpu/env.sh
DIR=${1:-.gpu/moe}
OUT=${OUT:-/tmp/out}
BUILD=/tmp/mlxd-build
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
source bench/gpu_build.sh
gpu_build "$BUILD" "$OUT" mlx_delegate mlxd-run mlx-cuda | tee -a "$OUT/gpu.txt"
python3 bench/moe.py --gpu "$DIR" --runner "$BUILD/mlxd-run" 2>&1 | tee "$OUT/moe_gpu.txt"
