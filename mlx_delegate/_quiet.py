"""Keeps known third-party noise out of our users' output.

Our commands (`python -m mlx_delegate ...`, `make demo`) and a user's script that imports us
(`import mlx_delegate.runtime`, `from mlx_delegate import MLXPartitioner`) print only their
own lines. The libraries we lead to print a few lines of their own that tell our users
nothing: torchao failing to load its CUDA kernels into a CPU-only torch, torch deprecating
what torchao and torch.export do internally. Each such line is dropped where it is emitted,
by its logger and message (a `logging.Filter` on that logger) or by its category and message
(a `warnings` filter); everything else those libraries say still shows.

The package's `__init__` calls `install()`, so any import of ours installs the filters before
the torchao import (through ExecuTorch) prints its lines; a script that imports ExecuTorch
before us sees them. The entry points' `main()` and their worker processes call it again,
which changes nothing.
"""

from __future__ import annotations

import logging
import re
import warnings
from dataclasses import dataclass


@dataclass(frozen=True)
class LogLine:
    """A log record to drop: `message` is searched in the formatted message of records
    emitted on `logger` itself (a logger's filters do not see its children's records)."""

    logger: str
    message: str
    why: str


@dataclass(frozen=True)
class WarningLine:
    """A warning to drop, as `warnings.filterwarnings` takes it: `message` matches the start
    of the message, `module` (when given) the module the warning is attributed to."""

    category: type[Warning]
    message: str
    module: str
    why: str


LOG_LINES = (
    LogLine(
        "torchao",
        r"^Failed to load \S*/torchao/_C_(mxfp8|cutlass_90a)\W",
        "torchao ships CUDA kernels (MXFP8, CUTLASS for SM90) that a CPU-only torch cannot "
        "load; we use none of them",
    ),
    LogLine(
        "torch.utils._pytree",
        r"is an Enum subclass and is now natively supported by torch\.compile as an opaque "
        r"value type\. Calling register_constant\(\) on Enum subclasses is deprecated",
        "torchao registers its enums (KernelPreference, ScaleCalculationMode) as pytree "
        "constants when imported; our code registers none",
    ),
)

WARNING_LINES = (
    WarningLine(
        FutureWarning,
        r"`isinstance\(treespec, LeafSpec\)` is deprecated",
        "",
        "raised when torch.export deep-copies its own LeafSpec objects (attributed to copyreg "
        "or whichever torch or executorch frame copies them); our code never names LeafSpec",
    ),
    WarningLine(
        UserWarning,
        r"Raw SymInt value \(.*\) passed as argument to Graph\.create_node\(op='call_function', "
        r"target=<function _make_node_sizes_strides\.<locals>\.sizes_strides_user",
        r"torch\.fx\.proxy\Z",
        "torch's own tracer records a dynamic dimension this way while exporting with dynamic "
        "shapes (the LLM export)",
    ),
)


class _DropLines(logging.Filter):
    """Drops the records of one logger whose message matches one of `patterns`."""

    def __init__(self, patterns: list[str]):
        super().__init__()
        self.patterns = [re.compile(p) for p in patterns]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(p.search(message) for p in self.patterns)


def install() -> None:
    """Drops the lines of LOG_LINES and WARNING_LINES from here on; calling it again changes
    nothing (warnings.filterwarnings replaces an identical filter)."""
    for name in dict.fromkeys(line.logger for line in LOG_LINES):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _DropLines) for f in logger.filters):
            logger.addFilter(_DropLines([l.message for l in LOG_LINES if l.logger == name]))
    for line in WARNING_LINES:
        warnings.filterwarnings(
            "ignore", message=line.message, category=line.category, module=line.module
        )
