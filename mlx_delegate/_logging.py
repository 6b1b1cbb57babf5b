"""Compile-time debug logging, switched on with ET_MLX_DEBUG=1."""

from __future__ import annotations

import logging
import os

logger = logging.getLogger("mlx_delegate")


def debug_enabled() -> bool:
    return os.environ.get("ET_MLX_DEBUG", "") not in ("", "0")


def debug(message: str, *args) -> None:
    if debug_enabled():
        if not logger.handlers:
            handler = logging.StreamHandler()
            handler.setFormatter(logging.Formatter("[mlx_delegate] %(message)s"))
            logger.addHandler(handler)
            logger.setLevel(logging.DEBUG)
            logger.propagate = False
        logger.debug(message, *args)
