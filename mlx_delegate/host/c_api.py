"""The C APIs of the mlx-delegate libraries as ctypes calls them, each function written once.

    HOST      libmlx_delegate_host.so, runtime_cpp/include/mlx_delegate/host_c_api.h
    DELEGATE  libmlx_delegate.so, runtime_cpp/include/mlx_delegate/delegate_c_api.h

A library's table gives every function its ctypes restype and argtypes, written from its
header; tests/mlx_delegate/host/test_c_api.py parses the headers and fails when a table and its
header disagree (a type changed, a function added or removed on either side). `load()` is the
one place a library is opened and its functions declared. Where the libraries are is decided
by `_native` (the host) and `runtime` (the delegate).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CFunction", "CLibrary", "FILTER_CALLBACK", "HOST", "DELEGATE", "load"]


@dataclass(frozen=True)
class CFunction:
    restype: type | None  # None: void
    argtypes: tuple[type, ...]


@dataclass(frozen=True)
class CLibrary:
    header: str  # as #include spells it, under runtime_cpp/include/
    functions: dict[str, CFunction]
    # The ctypes type of each function pointer typedef of the header, by its C name.
    callbacks: dict[str, type] = field(default_factory=dict)
    # Functions of the header Python does not call, each with the reason.
    not_bound: dict[str, str] = field(default_factory=dict)


def _fn(restype: type | None, *argtypes: type) -> CFunction:
    return CFunction(restype, argtypes)


_int = ctypes.c_int
_str = ctypes.c_char_p  # const char*: bytes in, bytes (or None) out
_strs = ctypes.POINTER(ctypes.c_char_p)  # const char* const*
_ptr = ctypes.c_void_p  # data, and the opaque mlxd_program*
_ptrs = ctypes.POINTER(ctypes.c_void_p)
_u64 = ctypes.c_uint64
_i64 = ctypes.c_int64
_u64s = ctypes.POINTER(ctypes.c_uint64)
_i32s = ctypes.POINTER(ctypes.c_int32)
_i64s = ctypes.POINTER(ctypes.c_int64)
_f64s = ctypes.POINTER(ctypes.c_double)

# mlxd_filter_callback: int (*)(const char* name, int score, void* user_data)
FILTER_CALLBACK = ctypes.CFUNCTYPE(_int, _str, _int, _ptr)

HOST = CLibrary(
    header="mlx_delegate/host_c_api.h",
    functions={
        "mlxd_last_error": _fn(_str),
        "mlxd_host_info_json": _fn(_str),
        "mlxd_load_all": _fn(_int, _strs, _int, _strs, _int),
        "mlxd_load_all_filtered": _fn(_int, _strs, _int, _strs, _int, FILTER_CALLBACK, _ptr),
        "mlxd_load": _fn(_int, _str),
        "mlxd_load_best": _fn(_int, _str),
        "mlxd_backends_json": _fn(_str),
        "mlxd_report_json": _fn(_str),
        "mlxd_search_paths_json": _fn(_str),
        "mlxd_add_search_path": _fn(_int, _str),
        "mlxd_is_available": _fn(_int, _int),
        "mlxd_device_count": _fn(_int, _int),
        "mlxd_resolve_device_json": _fn(_str, _str),
        "mlxd_memory": _fn(_int, _str, _str, _u64, _u64s),
        "mlxd_run_builtin_f32": _fn(
            _int, _str, _str, _ptr, _ptr, _ptr, _i64, _i64, _i64, _int, _f64s
        ),
        "mlxd_program_load": _fn(_ptr, _str, _ptr, _u64, _strs, _ptrs, _u64s, _int),
        "mlxd_program_free": _fn(None, _ptr),
        "mlxd_program_info_json": _fn(_str, _ptr),
        "mlxd_program_execute": _fn(_int, _ptr, _int, _i32s, _i32s, _i64s, _ptrs, _u64s),
        "mlxd_program_output": _fn(_int, _ptr, _int, _i32s, _i32s, _i64s, _ptrs, _u64s),
    },
    callbacks={"mlxd_filter_callback": FILTER_CALLBACK},
)

DELEGATE = CLibrary(
    header="mlx_delegate/delegate_c_api.h",
    functions={
        "mlxd_delegate_backend_id": _fn(_str),
        "mlxd_delegate_registered": _fn(_int),
        "mlxd_delegate_set_device": _fn(_int, _str),
        "mlxd_delegate_verifies_flatbuffer": _fn(_int),
        # the error buffer is ctypes.create_string_buffer(), which c_char_p accepts
        "mlxd_delegate_check_payload": _fn(_int, _ptr, ctypes.c_size_t, _str, ctypes.c_size_t),
    },
)


def load(path: Path, library: CLibrary) -> ctypes.CDLL:
    """Opens the library at `path` and declares its functions. RTLD_GLOBAL, so that what a
    library defines (the host's registry, the backend the delegate registers with ExecuTorch)
    is what the libraries loaded after it, the executorch Python bindings among them, see."""
    lib = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
    for name, function in library.functions.items():
        c_function = getattr(lib, name)
        c_function.restype = function.restype
        c_function.argtypes = function.argtypes
    return lib
