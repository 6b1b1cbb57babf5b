#!/usr/bin/env bash
# Run on the GPU machine, in the project root, after `source /tmp/gpu/env.sh` (README.md):
# builds the mlx-delegate wheel and this package's wheel against MLX's CUDA wheel, installs
# both into the site-packages of the GPU wheels (/tmp/gpu/site), checks that the CUDA plugin
# is found through the entry point with no environment variable, and runs the exported
# program on gpu:0 with the installed mlxd-run. Logs and results go to $OUT (or /tmp/out).
set -euo pipefail
OUT="${OUT:-/tmp/out}"
SITE="${GPU_SITE:-/tmp/gpu/site}"
CASE="$(realpath "${CASE:-.gpu/case}")"
mkdir -p "$OUT" /tmp/mlxd-wheels
export CMAKE_BUILD_PARALLEL_LEVEL="${JOBS:-16}"
# The machine's default /opt/gcc wrapper links libstdc++ statically into every library, and
# the host's and plugins' iostreams then crash across the boundary (../../../shared/GPU.md).
export CC=/usr/bin/gcc CXX=/usr/bin/g++
unset MLX_BACKEND_PATH MLX_DELEGATE_HOST_LIB MLX_DELEGATE_LIB

build() {  # build <project dir> <build dir>
  python3 -m pip wheel --no-build-isolation --no-deps -q -w /tmp/mlxd-wheels \
    -C build-dir="$2" "$1" > "$OUT/wheel-$(basename "$1").log" 2>&1
}
build . /tmp/mlxd-build-main
build packages/mlx-delegate-cuda /tmp/mlxd-build-cuda
python3 -m pip install -q --no-index --no-deps --target "$SITE" /tmp/mlxd-wheels/*.whl

cd /tmp  # outside the checkout: the installed packages only
python3 - <<'PY' | tee "$OUT/backends.txt"
from mlx_delegate.host import _native, backends
print("entry point folders:", [str(p) for p in _native.plugin_package_dirs()])
print("search paths:", backends.search_paths())
for b in backends.list():
    print(b.name, b.score, b.device_type, b.device_count, b.path)
assert any(b.name == "cuda" and "mlx_delegate_cuda/backends" in b.path for b in backends.list())
print("cuda plugin found through the entry point")
PY
cd - > /dev/null
# The console script's own entry (pip --target leaves an existing bin/ as it was, and the GPU
# wheels' site already has one).
(cd /tmp && python3 -c "from mlx_delegate.host._native import mlxd_run_main; mlxd_run_main()" \
  "$CASE/mlp.pte" --inputs "$CASE/in.bin" --outputs "$OUT/out.bin" \
  --device gpu:0 --warmup 2 --repeat 20) | tee "$OUT/run.txt"
python3 - "$CASE/expected.bin" "$OUT/out.bin" <<'PY' | tee "$OUT/compare.txt"
import sys
import numpy as np
from mlx_delegate.formats.tensor_bin_format import read_arrays
[(_, expected)], [(_, got)] = read_arrays(sys.argv[1]), read_arrays(sys.argv[2])
diff = float(np.abs(expected.astype(np.float64) - got).max())
print(f"max |gpu - torch| = {diff:.3g}")
assert diff < 1e-4, diff
PY
