"""pytest-xdist scheduling: the modules of an xdist_group.

A module marked `pytestmark = pytest.mark.xdist_group("NAME")` (its tests share
an expensive module fixture: the wheel build, each quantization format's export)
is one work unit with the other modules of that name under `-n N`, with xdist's
default `--dist load` too, where xdist itself ignores the mark: else each worker
that gets one of its tests would run the fixture (two wheel builds at once). Every
other test is a unit of its own; a session fixture that several modules read is
made once for all workers instead (made_once.py). The node ids stay as they are (marking the
tests `xdist_group` would append `@group` to them under `--dist loadgroup`)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Optional

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") not in ("load", "loadgroup"):
        return None
    from xdist.scheduler import LoadGroupScheduling

    class ModuleGroupScheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)  # the test alone, or its xdist_group
            if scope == nodeid:  # --dist load: no @group suffix
                return _module_group(str(config.rootpath), nodeid.split("::", 1)[0]) or nodeid
            return scope

    return ModuleGroupScheduling(config, log)


@functools.lru_cache(maxsize=None)
def _module_group(root: str, module: str) -> Optional[str]:
    """NAME of a module-level `pytestmark = pytest.mark.xdist_group("NAME")`,
    alone or in a list of marks (`[pytest.mark.xdist_group("NAME"), pytest.mark.slow]`)."""
    path = Path(root) / module
    try:
        tree = ast.parse(path.read_text(), str(path))
    except (OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            marks = (
                node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            )
            for mark in marks:
                if (
                    isinstance(mark, ast.Call)
                    and ast.unparse(mark.func) == "pytest.mark.xdist_group"
                    and mark.args
                    and isinstance(mark.args[0], ast.Constant)
                ):
                    return str(mark.args[0].value)
    return None
