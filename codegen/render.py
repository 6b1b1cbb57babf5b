"""The Jinja environment shared by every target: templates hold the shape of the
output; each target decides the names, kinds and expressions they write and
hands them over as view records."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import jinja2

from . import resources

TEMPLATE_DIR = resources.TEMPLATE_DIR


def make_environment(
    template_dir: Path = TEMPLATE_DIR, bytecode_dir: Optional[Path] = None
) -> jinja2.Environment:
    """`bytecode_dir` caches compiled templates: compiling them costs more than
    rendering the IR schema."""
    cache = None
    if bytecode_dir is not None:
        bytecode_dir.mkdir(parents=True, exist_ok=True)
        cache = jinja2.FileSystemBytecodeCache(str(bytecode_dir))
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir)),
        bytecode_cache=cache,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["py_literal"] = repr  # a Python value written as Python source
    return env
