#!/usr/bin/env bash
# Configures and builds the mlx-delegate C++ runtime against the wheels in
# the project's virtual environment.
#
#   runtime_cpp/build.sh [--test-plugins] [extra cmake -D... arguments]
#
# Environment: PYTHON (default .venv/bin/python), BUILD_DIR (default
# build/runtime), JOBS (default 2), CMAKE (default: cmake next to PYTHON,
# which must be >= 3.28), MLXD_TARGETS (space-separated targets to build
# instead of all).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/runtime}"
JOBS="${JOBS:-2}"
CMAKE="${CMAKE:-$(dirname "$PYTHON")/cmake}"

TARGETS=()
if [[ "${1:-}" == "--test-plugins" ]]; then
  shift
  TARGETS=(--target all mlxd_test_plugins)
fi

# Locations of the wheels' CMake packages and headers, found without
# importing the packages (importing executorch would pull in torch).
eval "$("$PYTHON" - <<'PY'
import importlib.util, shlex
from pathlib import Path
def where(name):
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return ""
    return str(Path(list(spec.submodule_search_locations)[0]))
def q(name, value): print(f"{name}={shlex.quote(str(value))}")
q("MLX_PREFIX", where("mlx"))
q("ET_PREFIX", where("executorch"))
flatc = where("flatc")
q("FLATBUFFERS_INCLUDE", str(Path(flatc) / "include") if flatc else "")
q("OPENBLAS_ROOT", where("scipy_openblas32"))
PY
)"
PREFIX_PATH="$MLX_PREFIX;$ET_PREFIX"
if [[ -n "${CMAKE_PREFIX_PATH:-}" ]]; then
  PREFIX_PATH="$PREFIX_PATH;${CMAKE_PREFIX_PATH//:/;}"
fi

"$CMAKE" -S "$ROOT/runtime_cpp" -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PREFIX_PATH" \
  -DMLXD_FLATBUFFERS_INCLUDE_DIR="$FLATBUFFERS_INCLUDE" \
  -DMLXD_OPENBLAS_ROOT="$OPENBLAS_ROOT" \
  "$@"
if [[ -n "${MLXD_TARGETS:-}" ]]; then
  read -r -a TARGETS <<< "$MLXD_TARGETS"
  TARGETS=(--target "${TARGETS[@]}")
fi
"$CMAKE" --build "$BUILD_DIR" -j "$JOBS" "${TARGETS[@]}"
