#!/usr/bin/env bash
# The GPU side of bench/llm_size.py, on the GPU machine after ../shared/GPU.md's install
# calls, with DIRs made here by `bench/llm_size.py --prepare DIR --shape ...` and mlx-lm's
# wheel downloaded into .whl (pip download --no-deps --python-version 3.12 mlx-lm):
#   bash .gpu/p3/install.sh && bash bench/gpu_llm_size.sh .gpu/size1b [.gpu/size4b ...]
# (LLM_SIZE_ARGS adds options to each run: "--split" for where a decode step's time goes,
# "--repeat 3" for rows that are the median of three runs.)
# Builds the delegate, the CUDA plugin and mlxd-generate, then prints each DIR's table
# (ours, mlx-lm, torch eager CUDA). Results go to $OUT.
set -euo pipefail
source /tmp/gpu/env.sh
OUT=${OUT:-/tmp/out}
BUILD=/tmp/mlxd-build
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
# mlx-lm's own needs (transformers, numpy, ...) are on the machine; mlx is the CUDA wheel's.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/peers .whl/mlx_lm-*.whl
export PYTHONPATH=/tmp/peers:$PYTHONPATH
source bench/gpu_build.sh
gpu_build "$BUILD" "$OUT" mlx_delegate mlxd-generate mlx-cuda
for dir in "$@"; do
  name=$(basename "$dir")
  python3 bench/llm_size.py --run "$dir" --generate "$BUILD/mlxd-generate" \
    --work "/tmp/llm-size/$name" ${LLM_SIZE_ARGS:-} 2>&1 | tee "$OUT/$name.txt"
done
