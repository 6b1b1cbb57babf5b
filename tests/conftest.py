"""pytest-xdist scheduling for the op tests' batches.

tests/mlx_delegate/test_ops.py runs its configurations in batches
(mlx_delegate/test/batching.py): the first test of a batch runs all of it. So
each batch must go to one worker, or two workers would each run it. With
`-n N` (xdist's default `--dist load`, or `--dist loadgroup`), tests are sent
as work units (xdist's LoadScope scheduling): one unit per op-test batch and
one per other test, largest first. The node ids stay as they are (marking the
tests `xdist_group` would append `@group` to them)."""

from __future__ import annotations

import re

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
            return super()._split_scope(nodeid)  # the test alone, or its xdist_group

    return OpBatchScheduling(config, log)


def _op_test_batches() -> dict[str, str]:
    """Op-test id (`case[label]`, as test_ops.py names them) -> its batch."""
    try:
        from mlx_delegate.test.batching import plan, registered_pairs

        units = plan(registered_pairs())
    except Exception:  # the workers report it when they collect test_ops.py
        return {}
    return {
        f"{case.name}[{config.label}]": f"op-batch-{k}"
        for k, unit in enumerate(units)
        if len(unit) > 1
        for case, config in unit
    }
