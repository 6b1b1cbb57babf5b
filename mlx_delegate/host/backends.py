"""The backend registry of the mlx-delegate host, from Python.

    from mlx_delegate.host import backends
    for b in backends.list(): print(b.name, b.score, b.device_type, b.device_count)
    for c in backends.report(): print(c.path, c.status, c.reason, c.message)

    backends.load_all(allowed=["cpu-*"], blocked=["cuda"])   # or choose, before any query
    backends.load("/path/libmlx-cpu.so")

Backend plugins are `libmlx-{name}[-{variant}].so`, searched in
`$MLX_BACKEND_PATH` (colon-separated) when set, otherwise in the compile-time
backend folder, `backends/` next to the host library, and the folders of
installed plugin packages (entry point group `mlx_delegate.backends`:
`_native.plugin_package_dirs()`). Loaded backends are
never unloaded: a process that needs another selection starts afresh.

The queries (list, report, is_available, device_count, device, memory,
run_builtin_f32, load_program) load the plugins on first use, as `load_all()`
with no filter does, unless this process has already chosen what to load:
any call of load_all, load or load_best, whether it loaded something or not,
is that choice, and the queries then answer about it alone. search_paths and
host_info load nothing. (The ExecuTorch delegate's first program loads them
the same way, unless some backend is loaded already.)
"""

from __future__ import annotations

import ctypes
import json
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..formats import _generated
from . import _native, c_api

__all__ = [
    "BackendError",
    "Backend",
    "Candidate",
    "load_all",
    "load",
    "load_best",
    "list",
    "report",
    "search_paths",
    "is_available",
    "device_count",
    "device",
    "memory",
    "host_info",
    "run_builtin_f32",
    "Program",
    "load_program",
]

_list = list  # `list` is redefined below as part of the public API


class BackendError(RuntimeError):
    """A registry call failed; the message names the library and the reason."""


@dataclass(frozen=True)
class Backend:
    name: str
    variant: str
    group: str
    score: int
    device_type: str
    device_count: int
    first_index: int
    path: str
    device_properties: tuple = field(default=(), compare=False)

    @property
    def devices(self) -> _list[str]:
        """Global device names owned by this backend, e.g. ["gpu:0", "gpu:1"]."""
        return [f"{self.device_type}:{self.first_index + i}" for i in range(self.device_count)]


@dataclass(frozen=True)
class Candidate:
    path: str
    group: str
    variant: str
    status: str  # "loaded" or "skipped"
    reason: str  # "" when loaded; dlopen abi score init api_version filter outscored
    message: str
    score: int  # -1 when it was never asked


_chosen = False  # whether this process chose its backends (see the module docstring)


def _lib():
    return _native.host_library()


def _choose() -> None:
    global _chosen
    _chosen = True


def _loaded():
    """The host library, after loading every group's best unless the process chose already."""
    if not _chosen:
        load_all()
    return _lib()


def _check(rc: int) -> int:
    if rc < 0:
        raise BackendError(_native.last_error())
    return rc


def _json(ptr) -> object:
    if ptr is None:
        raise BackendError(_native.last_error())
    return json.loads(ptr.decode())


def _c_strings(items: Iterable[str] | None):
    values = [s.encode() for s in (items or [])]
    array = (ctypes.c_char_p * max(len(values), 1))(*values)
    return array, len(values)


def load_all(
    allowed: Iterable[str] | None = None,
    blocked: Iterable[str] | None = None,
    custom: Callable[[str, int], bool] | None = None,
) -> int:
    """Loads the winner of every backend group; returns how many were newly loaded.

    `allowed` / `blocked` are glob patterns on the backend name ("cpu-openblas")
    and its group ("cpu"); "cpu-*" covers the whole cpu family. `custom(name,
    score)` is called for each scored candidate before init; False skips it.
    """
    if isinstance(allowed, str) or isinstance(blocked, str):
        raise TypeError("allowed and blocked take lists of glob patterns, not a string")
    _choose()
    a, na = _c_strings(allowed)
    b, nb = _c_strings(blocked)
    if custom is None:
        return _check(_lib().mlxd_load_all(a, na, b, nb))

    errors: _list[BaseException] = []

    def trampoline(name: bytes, score: int, _user) -> int:
        try:
            return 1 if custom(name.decode(), score) else 0
        except BaseException as e:  # never let an exception unwind through C
            errors.append(e)
            return 0

    callback = c_api.FILTER_CALLBACK(trampoline)
    rc = _lib().mlxd_load_all_filtered(a, na, b, nb, callback, None)
    if errors:
        raise errors[0]
    return _check(rc)


def load(path: str) -> None:
    """Loads one backend plugin from an explicit path (raises BackendError on failure)."""
    _choose()
    _check(_lib().mlxd_load(str(path).encode()))


def load_best(name: str) -> None:
    """Loads the best-scoring variant of the backend group `name`."""
    _choose()
    _check(_lib().mlxd_load_best(name.encode()))


def list() -> _list[Backend]:  # noqa: A001 - the design's name
    """Loaded backends, by device type then global device index; the first query loads
    every group's best unless the process chose what to load (see the module docstring)."""
    out = []
    for b in _json(_loaded().mlxd_backends_json()):
        out.append(
            Backend(
                name=b["name"],
                variant=b["variant"],
                group=b["group"],
                score=b["score"],
                device_type=b["device_type"],
                device_count=b["device_count"],
                first_index=b["first_index"],
                path=b["path"],
                device_properties=tuple(b["device_properties"]),
            )
        )
    return out


def report() -> _list[Candidate]:
    """Every candidate seen so far, loaded or skipped, with the reason."""
    return [Candidate(**c) for c in _json(_loaded().mlxd_report_json())]


def search_paths() -> _list[str]:
    return _json(_lib().mlxd_search_paths_json())


def _type_code(device_type: str) -> int:
    if device_type not in ("cpu", "gpu"):
        raise ValueError(f"device type must be 'cpu' or 'gpu', not {device_type!r}")
    return 1 if device_type == "gpu" else 0


def is_available(device_type: str) -> bool:
    return bool(_check(_loaded().mlxd_is_available(_type_code(device_type))))


def device_count(device_type: str) -> int:
    return _check(_loaded().mlxd_device_count(_type_code(device_type)))


def device(spec: str) -> dict:
    """Resolves "cpu", "gpu:1", ... to its backend and backend-local index.

    Raises BackendError (e.g. "no CPU backend loaded ...") when no backend owns it.
    """
    return _json(_loaded().mlxd_resolve_device_json(spec.encode()))


def memory(function: str, device: str | None = None, value: int = 0) -> int:
    """Calls one of the 9 memory functions through the registry's routing rules.

    With `device` (e.g. "gpu:1") it goes to that device's backend; without, getters
    sum over GPU backends and setters raise when several GPU backends are loaded.
    """
    result = ctypes.c_uint64(0)
    _check(
        _loaded().mlxd_memory(
            function.encode(),
            device.encode() if device is not None else None,
            int(value),
            ctypes.byref(result),
        )
    )
    return result.value


def host_info() -> dict:
    return json.loads(_lib().mlxd_host_info_json().decode())


def run_builtin_f32(device: str, op: str, a, b, repeat: int = 1):
    """Runs a backend's built-in "matmul" or "add" on float32 numpy arrays.

    Returns (result, seconds per repetition). For benchmarks and self tests.
    """
    import numpy as np

    a = np.ascontiguousarray(a, dtype=np.float32)
    b = np.ascontiguousarray(b, dtype=np.float32)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError("a and b must be 2-D")
    if op == "matmul":
        m, k = a.shape
        if b.shape[0] != k:
            raise ValueError(f"matmul shapes {a.shape} and {b.shape} do not match")
        n = b.shape[1]
    else:
        if a.shape != b.shape:
            raise ValueError(f"{op} shapes {a.shape} and {b.shape} differ")
        m, n = a.shape
        k = n
    out = np.empty((m, n), dtype=np.float32)
    seconds = ctypes.c_double(0.0)
    _check(
        _loaded().mlxd_run_builtin_f32(
            device.encode(),
            op.encode(),
            a.ctypes.data,
            b.ctypes.data,
            out.ctypes.data,
            m,
            k,
            n,
            int(repeat),
            ctypes.byref(seconds),
        )
    )
    return out, seconds.value


# mlxd::DType codes (the IR schema's DType) <-> numpy dtype names; numpy has no
# bfloat16, whose outputs are widened to float32.
_DTYPES_BY_CODE = {d.code: d for d in _generated.dtypes().DTYPES}
_NUMPY_CODES = {d.numpy: d.code for d in _DTYPES_BY_CODE.values() if d.numpy}


class Program:
    """A program loaded on one device of one backend (see load_program)."""

    def __init__(self, handle: int, keepalive: _list):
        self._handle = ctypes.c_void_p(handle)
        self._keepalive = keepalive
        self.info = _json(_lib().mlxd_program_info_json(self._handle))

    @property
    def backend(self) -> str:
        return self.info["backend"]

    @property
    def device(self) -> str:
        return self.info["device"]

    def run(self, *inputs):
        """Runs the program on numpy arrays (or Python scalars for value inputs);
        returns the outputs as numpy arrays (0-d for value outputs)."""
        import numpy as np

        arrays = [np.ascontiguousarray(np.asarray(x)) for x in inputs]
        n = len(arrays)
        dtypes = (ctypes.c_int32 * max(n, 1))()
        ndims = (ctypes.c_int32 * max(n, 1))()
        shapes = [d for a in arrays for d in a.shape]
        shape_arr = (ctypes.c_int64 * max(len(shapes), 1))(*shapes)
        data = (ctypes.c_void_p * max(n, 1))()
        nbytes = (ctypes.c_uint64 * max(n, 1))()
        for i, a in enumerate(arrays):
            name = a.dtype.name
            if name not in _NUMPY_CODES:
                raise TypeError(f"input {i}: unsupported dtype {name}")
            dtypes[i] = _NUMPY_CODES[name]
            ndims[i] = a.ndim
            data[i] = a.ctypes.data
            nbytes[i] = a.nbytes
        _check(_lib().mlxd_program_execute(self._handle, n, dtypes, ndims, shape_arr, data, nbytes))
        outputs = []
        for i in range(self.info["num_outputs"]):
            dtype = ctypes.c_int32()
            ndim = ctypes.c_int32()
            shape = (ctypes.c_int64 * 16)()
            ptr = ctypes.c_void_p()
            size = ctypes.c_uint64()
            _check(
                _lib().mlxd_program_output(
                    self._handle,
                    i,
                    ctypes.byref(dtype),
                    ctypes.byref(ndim),
                    shape,
                    ctypes.byref(ptr),
                    ctypes.byref(size),
                )
            )
            raw = ctypes.string_at(ptr, size.value) if size.value else b""
            info = _DTYPES_BY_CODE[dtype.value]
            if info.torch == "bfloat16":
                u16 = np.frombuffer(raw, dtype=np.uint16).astype(np.uint32) << 16
                out = u16.view(np.float32)
            else:
                out = np.frombuffer(raw, dtype=info.numpy).copy()
            outputs.append(out.reshape(tuple(shape[: ndim.value])))
        return outputs

    def close(self) -> None:
        if self._handle:
            _lib().mlxd_program_free(self._handle)
            self._handle = ctypes.c_void_p()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def load_program(payload: bytes, constants: dict | None = None, device: str = "cpu") -> Program:
    """Loads a delegate payload (the IR FlatBuffer, MLX0 header optional) on `device`.

    `constants` maps named-data keys to numpy arrays or bytes (copied).
    Raises BackendError with the backend's message for a malformed payload.
    """
    import numpy as np

    payload = bytes(payload)
    names, blobs = [], []
    for key, value in (constants or {}).items():
        raw = (
            value
            if isinstance(value, (bytes, bytearray))
            else np.ascontiguousarray(value).tobytes()
        )
        names.append(key.encode())
        blobs.append(bytes(raw))
    n = len(names)
    c_names = (ctypes.c_char_p * max(n, 1))(*names)
    c_data = (ctypes.c_void_p * max(n, 1))()
    c_sizes = (ctypes.c_uint64 * max(n, 1))()
    buffers = []
    for i, blob in enumerate(blobs):
        buf = ctypes.create_string_buffer(blob, len(blob))
        buffers.append(buf)
        c_data[i] = ctypes.cast(buf, ctypes.c_void_p)
        c_sizes[i] = len(blob)
    pbuf = ctypes.create_string_buffer(payload, len(payload))
    handle = _loaded().mlxd_program_load(
        device.encode(),
        ctypes.cast(pbuf, ctypes.c_void_p),
        len(payload),
        c_names,
        c_data,
        c_sizes,
        n,
    )
    if not handle:
        raise BackendError(_native.last_error())
    return Program(handle, [buffers])
