#!/usr/bin/env bash
# The GPU side of bench/asr.py, on the GPU machine after ../shared/GPU.md's install calls,
# with DIR made here by `.venv/bin/python bench/asr.py --prepare .gpu/asr` and the peer's
# wheels in .whl (mlx-whisper, and tiktoken with what it imports, all --no-deps, Python 3.12):
#   bash .gpu/p3/install.sh && bash bench/gpu_asr.sh .gpu/asr
# Builds the delegate, the CUDA plugin and mlxd-transcribe, then prints the table (ours,
# transformers eager CUDA, mlx-whisper) for each shape and dtype of DIR. Results go to $OUT.
set -euo pipefail
source /tmp/gpu/env.sh
OUT=${OUT:-/tmp/out}
BUILD=/tmp/mlxd-build
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/gpu.txt"
# mlx-whisper's model (mlx_whisper.whisper) imports its decoding and tokenizer modules:
# tiktoken and regex (requests only when tiktoken fetches files, which it does not here).
# The rest of its requirements (numba, scipy, tqdm, huggingface_hub) serve its transcribe
# pipeline, which the bench does not import. Each wheel is installed only when missing.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/peers .whl/mlx_whisper-*.whl
for pair in tiktoken:tiktoken regex:regex requests:requests urllib3:urllib3 idna:idna \
  certifi:certifi charset_normalizer:charset_normalizer; do
  module=${pair%%:*} wheel=${pair##*:}
  if ! python3 -c "import $module" 2>/dev/null; then
    echo "the machine lacks $module: installing .whl/$wheel-*.whl" | tee -a "$OUT/peers.txt"
    python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/peers .whl/$wheel-*.whl
  fi
done
export PYTHONPATH=/tmp/peers:$PYTHONPATH
source bench/gpu_build.sh
gpu_build "$BUILD" "$OUT" mlx_delegate mlxd-transcribe mlx-cuda
python3 bench/asr.py --run "$1" --transcribe "$BUILD/mlxd-transcribe" --work /tmp/asr-bench \
  ${ASR_ARGS:-} 2>&1 | tee "$OUT/asr.txt"
