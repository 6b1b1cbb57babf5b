#!/usr/bin/env bash
# The GPU side of bench/llm.py, run on the GPU machine after ../shared/GPU.md's
# install calls, with .gpu/llm made here by `bench/llm.py --prepare-gpu .gpu/llm`:
#   bash .gpu/p3/install.sh && bash bench/gpu_llm.sh
# Builds the delegate, the CUDA and CPU plugins and mlxd-generate, checks greedy
# tokens on gpu:0 against transformers, times ours vs torch eager CUDA vs the MLX
# loop, and checks MLX's microscaled formats on the GPU. Results go to $OUT.
set -euo pipefail
source /tmp/gpu/env.sh
OUT=${OUT:-/tmp/out}
BUILD=/tmp/mlxd-build
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
source bench/gpu_build.sh
gpu_build "$BUILD" "$OUT" mlx_delegate mlxd-generate mlx-cuda mlx-cpu
python3 bench/llm.py --gpu .gpu/llm --generate "$BUILD/mlxd-generate" --work /tmp/llm-work \
  --dtypes fp32,bf16,int8,int4 2>&1 | tee "$OUT/llm_gpu.txt"
python3 - <<'PY' 2>&1 | tee "$OUT/microscaled_gpu.txt"
import mlx.core as mx, numpy as np
print("default device:", mx.default_device())
np.random.seed(0)
w = mx.array(np.random.randn(64, 128).astype(np.float32))
x = mx.array(np.random.randn(4, 128).astype(np.float32))
for mode in ("affine", "mxfp4", "nvfp4", "mxfp8"):
    try:
        wq, s, *rest = mx.quantize(w, mode=mode)
        d = mx.dequantize(wq, s, *rest, mode=mode)
        y = mx.quantized_matmul(x, wq, s, *rest, transpose=True, mode=mode)
        err = float(mx.abs(y - x @ d.T).max())
        print(f"{mode}: quantize, dequantize and quantized_matmul on the GPU; max |y - x@deq.T| {err:.3g}")
    except Exception as e:  # noqa: BLE001 - the evidence is the message
        print(f"{mode}: {type(e).__name__}: {e}")
PY
