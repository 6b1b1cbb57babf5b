"""mlx-delegate: compile PyTorch models into an MLX op-graph run by ExecuTorch.

    from mlx_delegate import MLXPartitioner
    import mlx_delegate.runtime  # registers the MLXDelegateBackend runtime backend

`import mlx_delegate` imports neither torch nor executorch (seconds each): the names below are
imported from their modules on first use, so `python -m mlx_delegate --help` answers at once.
Import us before ExecuTorch: the import installs the filters that keep torchao's and torch's
noise out of your output (mlx_delegate/_quiet.py).
"""

from __future__ import annotations

import importlib

from . import _quiet

# Every import of ours (`import mlx_delegate.runtime`, `from mlx_delegate import
# MLXPartitioner`) runs this before the torch, torchao and ExecuTorch imports it leads
# to, in a user's script as in our commands: the third-party lines that tell our users
# nothing are dropped from then on, and nothing else (_quiet.py).
_quiet.install()

# public name -> the module that defines it
_LAZY = {"MLXPartitioner": "mlx_delegate.compiler.partitioner"}

__all__ = list(_LAZY)


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value  # later lookups find it without coming here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
