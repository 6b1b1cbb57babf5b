# Sourced by the bench/gpu_*.sh scripts on the GPU machine, after /tmp/gpu/env.sh.
#   gpu_build BUILD OUT TARGET...
# configures runtime_cpp into BUILD and builds the TARGETS (logs: OUT/cmake.log and
# OUT/build.log; their last lines on failure, and a non-zero status).
# - The machine's default /opt/gcc wrapper links libstdc++ statically, which breaks the
#   host's iostreams across the plugin boundary: build with the system compiler.
# - The runtime finds MLX and ExecuTorch through one Python (wheel_packages.cmake); the
#   GPU machine's checkout has no .venv, and its python3 sees the GPU wheels through
#   env.sh's PYTHONPATH.
gpu_build() {
  local build=$1 out=$2 start
  shift 2
  start=$(date +%s)
  echo "building $* into $build"
  CC=/usr/bin/gcc CXX=/usr/bin/g++ cmake -S runtime_cpp -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$CMAKE_PREFIX_PATH" \
    -DMLXD_PYTHON="$(command -v python3)" \
    -DMLXD_FLATBUFFERS_INCLUDE_DIR="$GPU_SITE/flatc/include" >"$out/cmake.log" 2>&1 \
    || { tail -30 "$out/cmake.log"; return 1; }
  cmake --build "$build" -j "$(nproc)" --target "$@" >"$out/build.log" 2>&1 \
    || { tail -30 "$out/build.log"; return 1; }
  echo "built in $(($(date +%s) - start)) s"
}
