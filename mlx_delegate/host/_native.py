"""Locating and loading the mlx-delegate host library (libmlx_delegate_host.so).

The library is looked up at `$MLX_DELEGATE_HOST_LIB` when set, else in the
package's `lib/` when installed from a wheel, else in `build/runtime/` under
the repository root (where `runtime_cpp/build.sh` puts it): `_layout.LIB_DIR`.
It is loaded once per process, by `c_api.load()` (RTLD_GLOBAL; its functions
are declared in `c_api.HOST`).

The plugins are found by the host itself, in `backends/` next to it, and in
the folders that installed plugin packages offer through the entry point group
`mlx_delegate.backends` (plugin_package_dirs(); added to the host's search
paths when it loads, unless `MLX_BACKEND_PATH` is set, which alone decides).
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import json
import os
import sys
import threading
import warnings
from pathlib import Path

from .. import _layout
from . import c_api

DEFAULT_BUILD_DIR = _layout.LIB_DIR
HOST_LIB_NAME = (
    "libmlx_delegate_host.dylib" if sys.platform == "darwin" else "libmlx_delegate_host.so"
)

ENTRY_POINT_GROUP = "mlx_delegate.backends"

_lock = threading.Lock()
_lib: ctypes.CDLL | None = None


class HostLibraryNotFound(RuntimeError):
    pass


def host_library_path() -> Path:
    env = os.environ.get("MLX_DELEGATE_HOST_LIB")
    if env:
        return Path(env)
    return DEFAULT_BUILD_DIR / HOST_LIB_NAME


def host_library() -> ctypes.CDLL:
    """The loaded host library (loaded on first use)."""
    global _lib
    with _lock:
        if _lib is None:
            path = host_library_path()
            if not path.is_file():
                raise HostLibraryNotFound(
                    f"mlx-delegate host library not found at {path}; build it with "
                    f"runtime_cpp/build.sh (or pip install mlx-delegate) or set MLX_DELEGATE_HOST_LIB"
                )
            lib = c_api.load(path, c_api.HOST)
            for folder in plugin_package_dirs():
                lib.mlxd_add_search_path(str(folder).encode())
            _lib = lib
        return _lib


def plugin_package_dirs() -> list[Path]:
    """The plugin folders of installed plugin packages (e.g. mlx-delegate-cuda), in entry point
    name order. A package declares, in its pyproject.toml,

        [project.entry-points."mlx_delegate.backends"]
        cuda = "mlx_delegate_cuda:backend_dir"

    naming a function that returns the folder of its `libmlx-*.so` plugins (or the folder
    itself). An entry point that fails to load is a warning, not an error."""
    folders = []
    entry_points = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    for ep in sorted(entry_points, key=lambda ep: ep.name):
        try:
            found = ep.load()
            folders.append(Path(found() if callable(found) else found))
        except Exception as e:  # a broken package must not stop the others
            warnings.warn(
                f"mlx-delegate: plugin package entry point {ep.name} = {ep.value} failed: "
                f"{type(e).__name__}: {e}",
                stacklevel=2,
            )
    return folders


def last_error() -> str:
    msg = host_library().mlxd_last_error()
    return msg.decode() if msg else ""


def mlxd_run_main() -> None:
    """The `mlxd-run` console script: runs the C++ runner of this installation with the
    command line given (see runtime_cpp/README.md)."""
    runner = _layout.BIN_DIR / "mlxd-run"
    if not runner.is_file():
        sys.exit(f"mlxd-run: the runner is not at {runner}; build it with runtime_cpp/build.sh")
    if "MLX_BACKEND_PATH" not in os.environ and plugin_package_dirs():
        # The runner is C++ and reads no entry points: it gets the folders this Python
        # searches (the host's own, then the plugin packages'), as MLX_BACKEND_PATH.
        paths = json.loads(host_library().mlxd_search_paths_json().decode())
        os.environ["MLX_BACKEND_PATH"] = os.pathsep.join(paths)
    os.execv(runner, [str(runner), *sys.argv[1:]])
