"""The Metal backend plugin of mlx-delegate: `backends/libmlx-metal.dylib` (and the implementation
library it loads), found through the `mlx_delegate.backends` entry point."""

from pathlib import Path


def backend_dir() -> Path:
    """The folder of this package's plugin, for the mlx-delegate host's search paths."""
    return Path(__file__).resolve().parent / "backends"
