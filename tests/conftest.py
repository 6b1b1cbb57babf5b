"""pytest-xdist scheduling: the op tests' batches, and the modules of an xdist_group.

tests/mlx_delegate/test_ops.py runs its configurations in batches
(testbench/batching.py): the first test of a batch runs all of it. So
each batch must go to one worker, or two workers would each run it. With
`-n N` (xdist's default `--dist load`, or `--dist loadgroup`), tests are sent
as work units (xdist's LoadScope scheduling): one unit per op-test batch and
one per other test, largest first. The node ids stay as they are (marking the
tests `xdist_group` would append `@group` to them).

A module marked `pytestmark = pytest.mark.xdist_group("NAME")` (its tests share
an expensive module fixture: the wheel build, the llm tests' export) is one unit
with the other modules of that name, under `--dist load` too, where xdist
itself ignores the mark: else each worker that gets one of its tests would run
the fixture (two wheel builds at once)."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path
from typing import Optional

import pytest

OP_TEST = re.compile(r"(?:^|/)test_ops\.py::test_op\[(.+)\]$")


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") not in ("load", "loadgroup"):
        return None
    from xdist.scheduler import LoadGroupScheduling

    groups = _op_test_batches()

    class OpBatchScheduling(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            match = OP_TEST.search(nodeid)
            if match and match.group(1) in groups:
                return groups[match.group(1)]
            scope = super()._split_scope(nodeid)  # the test alone, or its xdist_group
            if scope == nodeid:  # --dist load: no @group suffix
                return _module_group(str(config.rootpath), nodeid.split("::", 1)[0]) or nodeid
            return scope

    return OpBatchScheduling(config, log)


@functools.lru_cache(maxsize=None)
def _module_group(root: str, module: str) -> Optional[str]:
    """NAME of a module-level `pytestmark = pytest.mark.xdist_group("NAME")`."""
    path = Path(root) / module
    try:
        tree = ast.parse(path.read_text(), str(path))
    except (OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
            and isinstance(node.value, ast.Call)
            and ast.unparse(node.value.func) == "pytest.mark.xdist_group"
            and node.value.args
            and isinstance(node.value.args[0], ast.Constant)
        ):
            return str(node.value.args[0].value)
    return None


def _op_test_batches() -> dict[str, str]:
    """Op-test id (`case[label]`, as test_ops.py names them) -> its batch."""
    try:
        from testbench.batching import plan, registered_pairs

        units = plan(registered_pairs())
    except Exception:  # the workers report it when they collect test_ops.py
        return {}
    return {
        f"{case.name}[{config.label}]": f"op-batch-{k}"
        for k, unit in enumerate(units)
        if len(unit) > 1
        for case, config in unit
    }
