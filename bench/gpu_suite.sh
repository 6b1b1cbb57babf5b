#!/usr/bin/env bash
# The GPU side of the CUDA suite (testbench/cuda_suite): the op suite and
# the model zoo through mlxd-run on gpu:0, in fp32, bf16 and fp16, against the
# eager outputs recorded here by
#   .venv/bin/python -m testbench.cuda_suite export .gpu/cuda-suite
# which also packs .gpu/cuda-suite.tar.gz. On the GPU machine, after
# ../shared/GPU.md's three install calls, in a call of its own carrying the archive:
#   bash .gpu/p3/install.sh && bash bench/gpu_suite.sh .gpu/cuda-suite.tar.gz
# Builds the delegate, mlxd-run and the CUDA and CPU plugins into /tmp, runs every
# item (-j $PROCS runner processes share the GPU) and writes the pass tables and
# the failures (cuda_suite.txt), the results (cuda_suite.json) and the build and
# runner logs to $OUT.
#
# Environment: OUT (/tmp/out), BUILD (/tmp/mlxd-build), DEVICE (gpu:0), PROCS (4),
# GPU_ENV (/tmp/gpu/env.sh), TARGETS (the CMake targets), MLX_ENABLE_TF32 (0: the
# fp32 tolerance, 1e-4, is for full fp32 matmuls; MLX's CUDA default is TF32).
# Tested here with a fake GPU_ENV, TARGETS without mlx-cuda and DEVICE=cpu.
set -euo pipefail
SUITE=$(realpath "${1:?usage: bash bench/gpu_suite.sh SUITE_DIR|SUITE.tar.gz}")
cd "$(dirname "${BASH_SOURCE[0]}")/.."  # the repository root
source "${GPU_ENV:-/tmp/gpu/env.sh}"
OUT=${OUT:-/tmp/out}
BUILD=${BUILD:-/tmp/mlxd-build}
DEVICE=${DEVICE:-gpu:0}
PROCS=${PROCS:-4}
TARGETS=${TARGETS:-mlx_delegate mlxd-run mlx-cuda mlx-cpu}
export MLX_ENABLE_TF32=${MLX_ENABLE_TF32:-0}
mkdir -p "$OUT"
start=$(date +%s)
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
fi

source bench/gpu_build.sh
# shellcheck disable=SC2086  # TARGETS is a list
gpu_build "$BUILD" "$OUT" $TARGETS

status=0
python3 -m testbench.cuda_suite run "$SUITE" --runner "$BUILD/mlxd-run" \
  --device "$DEVICE" -j "$PROCS" --work /tmp/cuda-suite-run --results "$OUT/cuda_suite.json" \
  2>&1 | tee "$OUT/cuda_suite.txt" || status=$?
tar -czf "$OUT/runner_logs.tar.gz" -C /tmp/cuda-suite-run --exclude outputs --exclude suite .
echo "gpu_suite: done in $(($(date +%s) - start)) s (run side exit status $status)" \
  | tee -a "$OUT/cuda_suite.txt"
exit "$status"
