"""mlx-delegate: compile PyTorch models into an MLX op-graph run by ExecuTorch.

    from mlx_delegate import MLXPartitioner
    import mlx_delegate.runtime  # registers the MLXDelegateBackend runtime backend

`import mlx_delegate` imports neither torch nor executorch (seconds each): the names below are
imported from their modules on first use, so `python -m mlx_delegate --help` answers at once.
"""

from __future__ import annotations

import importlib

# public name -> the module that defines it
_LAZY = {"MLXPartitioner": "mlx_delegate.partitioner"}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value  # later lookups find it without coming here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
