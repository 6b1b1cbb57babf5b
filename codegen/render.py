"""The Jinja environment shared by every target: templates hold the shape of the
output, targets register the small named filters that hold the logic."""

from __future__ import annotations

from pathlib import Path

import jinja2

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates"


def make_environment(template_dir: Path = TEMPLATE_DIR) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
