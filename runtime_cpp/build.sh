#!/usr/bin/env bash
# Configures and builds the mlx-delegate C++ runtime against the wheels in
# the project's virtual environment.
#
#   runtime_cpp/build.sh [--test-plugins] [extra cmake -D... arguments]
#
# --test-plugins also builds the fake plugins of the registry tests, the
# loader's test tool mlxd-ir-dump and the static variant
# (-DMLXD_STATIC_BACKENDS=cpu: static/libmlx_delegate.so).
#
# Environment: PYTHON (default .venv/bin/python), BUILD_DIR (default
# build/runtime), JOBS (default 2), CMAKE (default: cmake next to PYTHON,
# which must be >= 3.28), MLXD_TARGETS (space-separated targets to build
# instead of all).
#
# CMake asks PYTHON where the wheels are (runtime_cpp/cmake/wheel_packages.cmake),
# as the presets (runtime_cpp/CMakePresets.json) and `pip install` (scikit-build-core,
# pyproject.toml) do: configured alike, they share build/runtime and compile once.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
BUILD_DIR="${BUILD_DIR:-$ROOT/build/runtime}"
JOBS="${JOBS:-2}"
CMAKE="${CMAKE:-$(dirname "$PYTHON")/cmake}"

TARGETS=()
EXTRA=()
if [[ "${1:-}" == "--test-plugins" ]]; then
  shift
  TARGETS=(--target all mlxd_test_plugins)
  EXTRA=(-DMLXD_STATIC_BACKENDS=cpu)
fi

"$CMAKE" -S "$ROOT/runtime_cpp" -B "$BUILD_DIR" -G "Unix Makefiles" \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLXD_PYTHON="$PYTHON" -DMLXD_WHEEL_LAYOUT=OFF -DMLXD_BUILD_CUDA=AUTO \
  "${EXTRA[@]}" "$@"
if [[ -n "${MLXD_TARGETS:-}" ]]; then
  read -r -a TARGETS <<< "$MLXD_TARGETS"
  TARGETS=(--target "${TARGETS[@]}")
fi
"$CMAKE" --build "$BUILD_DIR" -j "$JOBS" "${TARGETS[@]}"
