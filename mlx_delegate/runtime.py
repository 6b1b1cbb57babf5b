"""Run mlx-delegate `.pte` files with ExecuTorch's Python runtime.

    import mlx_delegate.runtime                  # registers MLXDelegateBackend
    from executorch.runtime import Runtime
    program = Runtime.get().load_program("model.pte")
    outputs = program.load_method("forward").execute([x])

Importing this module loads `libmlx_delegate.so` (the ExecuTorch delegate
backend; it links the host library and the same `libexecutorch.so` as the
executorch Python bindings) with RTLD_GLOBAL (`c_api.load()`; its C functions
are `c_api.DELEGATE`). Its static initializer registers
the backend id `MLXDelegateBackend` with ExecuTorch, so it shows up in
`Runtime.get().backend_registry.registered_backend_names`.

The library is `$MLX_DELEGATE_LIB` when set, else `libmlx_delegate.so` next to
the host library (`$MLX_DELEGATE_HOST_LIB`, default `build/runtime/`, where
`runtime_cpp/build.sh` puts both).

Device selection for each delegated method, first match wins: a load-time
runtime spec `device` (C++ `LoadBackendOptionsMap`; `mlxd-run --device`), the
process-wide override of `set_device()`, the environment variable
`MLX_DELEGATE_DEVICE`, the compile spec `device`, else the first GPU when a GPU
backend loads and the CPU otherwise. Values: `cpu`, `gpu`, `cpu:N`, `gpu:N`,
`auto` (no preference): one device a program, several devices being several
processes (`mlx_delegate/llm/launch.py`). `MLX_DELEGATE_LOG=info` logs each program's device
choice and per-call timings (the levels: runtime_cpp/README.md, "Logging").
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
import threading
from pathlib import Path
from typing import Iterator

from .formats import _generated
from .host import _native, c_api

__all__ = [
    "BACKEND_ID",
    "DelegateLibraryNotFound",
    "library",
    "library_path",
    "is_registered",
    "set_device",
    "loading_on",
    "check_payload",
    "verifies_flatbuffer",
]

BACKEND_ID = _generated.payload().BACKEND_ID
LIB_NAME = "libmlx_delegate.dylib" if sys.platform == "darwin" else "libmlx_delegate.so"

_lock = threading.Lock()
_lib: ctypes.CDLL | None = None
_device_override: str | None = None  # what set_device() last set


class DelegateLibraryNotFound(ImportError):
    pass


def library_path() -> Path:
    """Where libmlx_delegate.so is looked up (it may not exist)."""
    env = os.environ.get("MLX_DELEGATE_LIB")
    if env:
        return Path(env)
    return _native.host_library_path().parent / LIB_NAME


def library() -> ctypes.CDLL:
    """The loaded delegate library (loaded on first use, once per process)."""
    global _lib
    with _lock:
        if _lib is None:
            path = library_path()
            if not path.is_file():
                raise DelegateLibraryNotFound(
                    f"mlx-delegate ExecuTorch backend library not found at {path}; build it "
                    f"with runtime_cpp/build.sh or set MLX_DELEGATE_LIB"
                )
            lib = c_api.load(path, c_api.DELEGATE)
            _native.host_library()  # the plugin packages' folders, before a program loads
            if lib.mlxd_delegate_registered() != 1:
                raise ImportError(
                    f"{path} loaded but {BACKEND_ID} is not the backend ExecuTorch resolves "
                    f"for that id (another library registered it first?)"
                )
            _lib = lib
        return _lib


def is_registered() -> bool:
    return library().mlxd_delegate_registered() == 1


def set_device(device: str | None) -> None:
    """Sets the process-wide device override ("cpu", "gpu", "gpu:1"; None or
    "auto" clears it). Applies to programs loaded afterwards."""
    global _device_override
    value = (device or "").encode()
    if library().mlxd_delegate_set_device(value) != 0:
        raise ValueError(
            f"bad device {device!r} (expected cpu, gpu, cpu:N, gpu:N, auto, "
            "or devices separated by commas)"
        )
    _device_override = device


@contextlib.contextmanager
def loading_on(device: str | None) -> Iterator[None]:
    """Methods loaded inside the block go to `device` (None: no override);
    the override set before comes back after, so a library call that picks
    a device leaves the rest of the process as it found it."""
    previous = _device_override
    set_device(device)
    try:
        yield
    finally:
        set_device(previous)


def verifies_flatbuffer() -> bool:
    """True when the delegate verifies the payload's FlatBuffer itself."""
    return library().mlxd_delegate_verifies_flatbuffer() == 1


def check_payload(payload: bytes) -> None:
    """Checks a delegate payload as the backend's init() does; raises
    ValueError with the reason when it would be rejected."""
    buf = ctypes.create_string_buffer(512)
    data = ctypes.create_string_buffer(bytes(payload), len(payload))
    if library().mlxd_delegate_check_payload(data, len(payload), buf, len(buf)) != 0:
        raise ValueError(buf.value.decode(errors="replace"))


library()
