"""The compiler's debug log, switched on by the runtime's logging switch:
MLX_DELEGATE_LOG=debug. The variable is read here as the C++ runtime reads it
(runtime_cpp/src/common/mlxd_log.h): a level, debug | info | warning | error |
off in any case, `1` for info and `0` for warning; unset, empty or anything
else is warning. Only debug makes the compiler log."""

from __future__ import annotations

import logging
import os
import sys

logger = logging.getLogger("mlx_delegate")

VARIABLE = "MLX_DELEGATE_LOG"
LEVELS = ("debug", "info", "warning", "error", "off")
ALIASES = {"1": "info", "0": "warning"}
DEFAULT = "warning"
# The compiler's own switch before MLX_DELEGATE_LOG was the only one.
RETIRED = "ET_MLX_DEBUG"

_told_retired = False


def parse_level(value: str | None) -> str | None:
    """The level a value of MLX_DELEGATE_LOG names, or None where it names none."""
    if value is None:
        return None
    value = ALIASES.get(value, value.lower())
    return value if value in LEVELS else None


def log_level() -> str:
    """The level MLX_DELEGATE_LOG sets now."""
    return parse_level(os.environ.get(VARIABLE)) or DEFAULT


def debug_enabled() -> bool:
    if os.environ.get(RETIRED, "") not in ("", "0"):
        _tell_retired()
    return log_level() == "debug"


def _tell_retired() -> None:
    """ET_MLX_DEBUG=1 once switched this log on: say what does now, once."""
    global _told_retired
    if not _told_retired:
        _told_retired = True
        print(
            f"[mlx_delegate] {RETIRED} is not read any more: set {VARIABLE}=debug", file=sys.stderr
        )


def debug(message: str, *args) -> None:
    if debug_enabled():
        if not logger.handlers:
            handler = logging.StreamHandler()
            handler.setFormatter(logging.Formatter("[mlx_delegate] %(message)s"))
            logger.addHandler(handler)
            logger.setLevel(logging.DEBUG)
            logger.propagate = False
        logger.debug(message, *args)
