#!/usr/bin/env bash
# Issues 12 and 25 on a machine with two GPUs, in one device call after ../shared/GPU.md's
# three install calls (kind nvidia-h100-x2 or nvidia-h200-x2), carrying a .pte and its
# inputs made here:
#   bash .gpu/p3/install.sh && bash bench/gpu_multi.sh MODEL.pte IN.bin [TP_DIR]
# (e.g. `python -m mlx_delegate demo --out .gpu/multi/transformer.pte` and its inputs
# written with mlx_delegate.formats.tensor_bin.write_tensors). Builds the host, the delegate,
# mlxd-run and the CUDA plugin into /tmp, then prints:
#   1. the listing: backends.list(), device_count("gpu"), device("gpu:1") (python3 +
#      ctypes through mlx_delegate.host.backends; no torch, no ExecuTorch Python needed);
#   2. memory per device (active, peak, limit) before and after a builtin matmul on
#      gpu:1 only;
#   3. MODEL.pte through mlxd-run on DEV0 and on DEV1, and whether the outputs match;
#   4. serving throughput: N independent programs as N processes, one a GPU, each
#      behind mlxd-run --batch (CUDA_VISIBLE_DEVICES), in runs/s summed: one process
#      on GPU 0, two on GPU 0, one on each GPU; the ratio two GPUs / one (target 1.8);
#   5. whether MLX's build has a distributed backend (mx.distributed.is_available(
#      backend=...), MLX 0.32.4's call; TP=2 below runs on nccl);
#   6. with TP_DIR (bench/tp.py --prepare TP_DIR --shape ..., made here): decode
#      tokens/s at TP=1 and TP=2 and each GPU's peak memory, per shape.
# Everything goes to $OUT/gpu_multi.txt too.
#
# Environment: OUT (/tmp/out), BUILD (/tmp/mlxd-build), DEV0 (gpu:0), DEV1 (gpu:1),
# REPEAT (200), SERVE_REPEAT (5000), GPU_ENV (/tmp/gpu/env.sh), TARGETS (the CMake targets), SKIP_BUILD
# (1: use BUILD as it is), TP_ARGS (options for bench/tp.py --run). Tested here on the
# CPU with a fake GPU_ENV, SKIP_BUILD=1, BUILD=build/runtime, DEV0=DEV1=cpu:0 and
# TP_ARGS="--device cpu --new-tokens 8".
set -euo pipefail
MODEL=$(realpath "${1:?usage: bash bench/gpu_multi.sh MODEL.pte IN.bin}")
INPUTS=$(realpath "${2:?usage: bash bench/gpu_multi.sh MODEL.pte IN.bin}")
cd "$(dirname "${BASH_SOURCE[0]}")/.."  # the repository root
source "${GPU_ENV:-/tmp/gpu/env.sh}"
OUT=${OUT:-/tmp/out}
BUILD=$(realpath -m "${BUILD:-/tmp/mlxd-build}")
DEV0=${DEV0:-gpu:0}
DEV1=${DEV1:-gpu:1}
REPEAT=${REPEAT:-200}
# Runs a serving process times: enough that the processes' timed runs overlap
# (each loads its program first; a GPU run of the demo takes about 0.6 ms).
SERVE_REPEAT=${SERVE_REPEAT:-5000}
TARGETS=${TARGETS:-mlx_delegate mlxd-run mlxd-generate mlx-cuda}
WORK=$(mktemp -d /tmp/gpu-multi.XXXXXX)
mkdir -p "$OUT"
exec > >(tee "$OUT/gpu_multi.txt") 2>&1
start=$(date +%s)
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv
fi

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  source bench/gpu_build.sh
  # shellcheck disable=SC2086  # TARGETS is a list
  gpu_build "$BUILD" "$OUT" $TARGETS
fi
export MLX_DELEGATE_HOST_LIB="$BUILD/libmlx_delegate_host.so"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
RUN="$BUILD/mlxd-run"

echo "== 1-2. devices and memory per device (host C API through ctypes)"
python3 - "$DEV0" "$DEV1" <<'PY' || echo "listing: FAILED"
import sys
from mlx_delegate.host import backends

dev0, dev1 = sys.argv[1:3]
backends.load_all()
for b in backends.list():
    print(f"backend {b.name}: {b.devices} score {b.score} ({b.path})")
print("device_count gpu:", backends.device_count("gpu"), "cpu:", backends.device_count("cpu"))
for spec in (dev0, dev1):
    r = backends.device(spec)
    print(f"device {spec}: backend {r['backend']['name']} local index {r['local_index']}")
FIGURES = ["get_active_memory", "get_peak_memory", "get_memory_limit"]
def memory(when):
    for spec in (dev0, dev1):
        print(f"memory {when} {spec}: " + ", ".join(f"{f[4:]} {backends.memory(f, spec)}" for f in FIGURES))
memory("before")
try:
    import numpy as np
    a = np.random.default_rng(0).standard_normal((4096, 4096), dtype=np.float32)
    backends.memory("reset_peak_memory", dev0)
    backends.memory("reset_peak_memory", dev1)
    out1, s1 = backends.run_builtin_f32(dev1, "matmul", a, a, repeat=5)
    memory(f"after a 4096^2 matmul on {dev1} only")
    out0, s0 = backends.run_builtin_f32(dev0, "matmul", a, a, repeat=5)
    print(f"builtin matmul: {dev0} {s0 * 1e3:.2f} ms, {dev1} {s1 * 1e3:.2f} ms, "
          f"max |{dev0} - {dev1}| {float(np.abs(out0 - out1).max()):.3g}")
except ImportError:
    print("numpy not importable: no builtin matmul")
PY

echo "== 3. $(basename "$MODEL") on $DEV0 and on $DEV1"
for k in 0 1; do
  dev=$DEV0 && [[ $k == 1 ]] && dev=$DEV1
  "$RUN" "$MODEL" --inputs "$INPUTS" --outputs "$WORK/out$k.bin" --device "$dev" \
    --warmup 3 --repeat 20 || echo "mlxd-run on $dev: FAILED"
done
python3 - "$WORK/out0.bin" "$WORK/out1.bin" <<'PY' || echo "compare: FAILED"
import sys
import numpy as np
from mlx_delegate.formats.tensor_bin_format import read_arrays
a, b = (read_arrays(p) for p in sys.argv[1:3])
assert len(a) == len(b), (len(a), len(b))
for i, ((_, x), (_, y)) in enumerate(zip(a, b)):
    same = x.shape == y.shape and np.array_equal(x, y)
    diff = float(np.abs(x.astype(np.float64) - y.astype(np.float64)).max()) if x.shape == y.shape else float("nan")
    print(f"output {i}: {x.dtype}{list(x.shape)} identical on both devices: {same} (max |diff| {diff:.3g})")
PY

echo "== 4. serving throughput: a process a program (mlxd-run --batch, $SERVE_REPEAT runs after 10 warm-up)"
# DEV0's device kind; each process sees one GPU (CUDA_VISIBLE_DEVICES), its device 0.
KIND=${DEV0%%:*}
serve() {  # NAME GPU...: one process per GPU given, all at once, each one program
  local name=$1 k=0
  shift
  local pids=()
  for gpu in "$@"; do
    echo "$MODEL $INPUTS $WORK/${name}_$k.bin $KIND:0" >"$WORK/${name}_$k.jobs"
    CUDA_VISIBLE_DEVICES=$gpu "$RUN" --batch "$WORK/${name}_$k.jobs" \
      --results "$WORK/${name}_$k.txt" --warmup 10 --repeat "$SERVE_REPEAT" 2>"$WORK/${name}_$k.err" &
    pids+=($!)
    k=$((k + 1))
  done
  local failed=0
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  if [[ $failed == 1 ]]; then
    echo "$name: FAILED"; tail -5 "$WORK/${name}"_*.err; return
  fi
  # runs/s summed over the processes (their timed runs overlap).
  cat "$WORK/${name}"_*.txt | awk -v name="$name" '$2 == "ok" { n++; rate += 1000 / $4; lat = lat " " $4 }
    END { printf "%-24s %d process(es), median ms:%s; together %.1f runs/s\n", name, n, lat, rate }' |
    tee "$WORK/$name.rate"
}
serve one-gpu 0
serve two-processes-gpu0 0 0
serve two-gpus 0 1
awk '{ rate[FILENAME] = $NF == "runs/s" ? $(NF - 1) : 0 }
  END { one = rate[ARGV[1]]; two = rate[ARGV[2]]
        if (one > 0) printf "two GPUs / one GPU: %.2fx (target 1.8x)\n", two / one }' \
  "$WORK/one-gpu.rate" "$WORK/two-gpus.rate" || true

echo "== 5. MLX distributed backends (tensor-parallel split)"
python3 - <<'PY' || echo "mlx: FAILED"
import mlx.core as mx
print("mlx", mx.__version__, "default device", mx.default_device())
print("gpu devices:", mx.device_count(mx.gpu) if hasattr(mx, "device_count") else "n/a")
for backend in ("any", "nccl", "ring", "mpi", "jaccl"):
    try:
        print(f"distributed.is_available(backend={backend!r}):", mx.distributed.is_available(backend=backend))
    except Exception as e:
        print(f"distributed.is_available(backend={backend!r}): {type(e).__name__}: {e}")
PY
if [[ -n "${3:-}" ]]; then
  echo "== 6. tensor-parallel decode, TP=1 against TP=2 (bench/tp.py)"
  # shellcheck disable=SC2086  # TP_ARGS is a list of options
  python3 bench/tp.py --run "$(realpath "$3")" --generate "$BUILD/mlxd-generate" \
    --work "$WORK/tp" ${TP_ARGS:-} || echo "tensor parallel: FAILED"
fi
echo "gpu_multi: done in $(($(date +%s) - start)) s"
