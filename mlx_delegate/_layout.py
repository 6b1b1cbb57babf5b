"""Where mlx_delegate's files are, in a checkout or in an installed wheel.

An installed wheel carries, inside this package, what the CMake install rules put there
(runtime_cpp/cmake/install.cmake): `lib/` (the host and delegate libraries, the plugins in
`lib/backends/`), `bin/` (mlxd-run), `generated/` and `schema/`. A checkout, the editable
install included, has `generated/` and `schema/` at the repository root and the C++ build in
`build/runtime/` (runtime_cpp/build.sh, or the editable install, which builds the same tree).
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
INSTALLED = (PACKAGE_DIR / "generated").is_dir()
ROOT = PACKAGE_DIR if INSTALLED else PACKAGE_DIR.parent
GENERATED_DIR = ROOT / "generated"
SCHEMA = ROOT / "schema" / "schema.fbs"
LIB_DIR = PACKAGE_DIR / "lib" if INSTALLED else ROOT / "build" / "runtime"
BIN_DIR = PACKAGE_DIR / "bin" if INSTALLED else ROOT / "build" / "runtime"
