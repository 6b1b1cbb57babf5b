"""Where codegen's own files are: the Jinja templates and the clang-format rules.

In a checkout they are the repository's `templates/` and `.clang-format`; an installed wheel
carries copies inside this package (runtime_cpp/cmake/install.cmake puts them there), so that
`python -m codegen generate` works outside any checkout. The formatting cache is the checkout's
`.cache/codegen/`, or the user's cache folder when installed (`MLXD_CODEGEN_CACHE` overrides
both)."""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
INSTALLED = (PACKAGE_DIR / "templates").is_dir()
ROOT = PACKAGE_DIR if INSTALLED else PACKAGE_DIR.parent
TEMPLATE_DIR = ROOT / "templates"
CLANG_FORMAT_CONFIG = ROOT / ".clang-format"


def default_cache_dir() -> Path:
    if not INSTALLED:
        return ROOT / ".cache" / "codegen"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "mlx-delegate" / "codegen"
