#!/usr/bin/env bash
# Issue 12 on a machine with two GPUs, in one device call after ../shared/GPU.md's
# three install calls (kind nvidia-h200-x2), carrying a .pte and its inputs made here:
#   bash .gpu/p3/install.sh && bash bench/gpu_multi.sh MODEL.pte IN.bin [TP_DIR]
# (e.g. `python -m mlx_delegate demo --out .gpu/multi/transformer.pte` and its inputs
# written with mlx_delegate.tensor_bin.write_tensors). Builds the host, the delegate,
# mlxd-run and the CUDA plugin into /tmp, then prints:
#   1. the listing: backends.list(), device_count("gpu"), device("gpu:1") (python3 +
#      ctypes through mlx_delegate.backends; no torch, no ExecuTorch Python needed);
#   2. memory per device (active, peak, limit) before and after a builtin matmul on
#      gpu:1 only;
#   3. MODEL.pte through mlxd-run on DEV0 and on DEV1, and whether the outputs match;
#   4. throughput: one program on DEV0 alone, two on DEV0 from two threads, and one
#      on each device from two threads (mlxd-run --batch --threads 2), in runs/s;
#   5. whether MLX's build has a distributed backend (mx.distributed.is_available(
#      backend=...), MLX 0.32.4's call; the split below needs none: one process
#      drives both devices);
#   6. with TP_DIR (bench/tensor_parallel.py --prepare TP_DIR, made here): the block
#      whole on DEV0 against its MLP split over DEV0,DEV0 and DEV0,DEV1.
# Everything goes to $OUT/gpu_multi.txt too.
#
# Environment: OUT (/tmp/out), BUILD (/tmp/mlxd-build), DEV0 (gpu:0), DEV1 (gpu:1),
# REPEAT (200), GPU_ENV (/tmp/gpu/env.sh), TARGETS (the CMake targets), SKIP_BUILD
# (1: use BUILD as it is). Tested here on the CPU with a fake GPU_ENV, SKIP_BUILD=1,
# BUILD=build/runtime and DEV0=DEV1=cpu:0.
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
TARGETS=${TARGETS:-mlx_delegate mlxd-run mlx-cuda}
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
from mlx_delegate import backends

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
from mlx_delegate.tensor_bin_format import read_arrays
a, b = (read_arrays(p) for p in sys.argv[1:3])
assert len(a) == len(b), (len(a), len(b))
for i, ((_, x), (_, y)) in enumerate(zip(a, b)):
    same = x.shape == y.shape and np.array_equal(x, y)
    diff = float(np.abs(x.astype(np.float64) - y.astype(np.float64)).max()) if x.shape == y.shape else float("nan")
    print(f"output {i}: {x.dtype}{list(x.shape)} identical on both devices: {same} (max |diff| {diff:.3g})")
PY

echo "== 4. throughput (mlxd-run --batch, $REPEAT runs per program after 10 warm-up)"
batch() {  # NAME THREADS DEVICE...: one job per device, run with THREADS threads
  local name=$1 threads=$2
  shift 2
  : >"$WORK/$name.jobs"
  local k=0
  for dev in "$@"; do
    echo "$MODEL $INPUTS $WORK/${name}_$k.bin $dev" >>"$WORK/$name.jobs"
    k=$((k + 1))
  done
  if ! "$RUN" --batch "$WORK/$name.jobs" --results "$WORK/$name.txt" --threads "$threads" \
    --warmup 10 --repeat "$REPEAT" 2>"$WORK/$name.err"; then
    echo "$name: FAILED"; tail -5 "$WORK/$name.err"; return
  fi
  # runs/s summed over the programs (their timed runs overlap), and the wall time.
  awk -v name="$name" '$2 == "ok" { n++; rate += 1000 / $4; lat = lat " " $4 }
    END { printf "%-28s %d program(s), median ms:%s; together %.1f runs/s\n", name, n, lat, rate }' \
    "$WORK/$name.txt"
  grep "job(s)" "$WORK/$name.err" | tail -1
}
batch "one-program-$DEV0" 1 "$DEV0"
batch "two-threads-$DEV0" 2 "$DEV0" "$DEV0"
batch "two-threads-$DEV0-$DEV1" 2 "$DEV0" "$DEV1"

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
  echo "== 6. the MLP split over two devices (bench/tensor_parallel.py)"
  python3 bench/tensor_parallel.py --run "$(realpath "$3")" --runner "$RUN" --work "$WORK/tp" \
    --groups "$DEV0" "$DEV0,$DEV0" "$DEV0,$DEV1" || echo "tensor parallel: FAILED"
fi
echo "gpu_multi: done in $(($(date +%s) - start)) s"
