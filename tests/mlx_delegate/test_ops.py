"""The op tests (testbench/cases.py) as a pytest collection: one test per work
unit of testbench/batching.py's plan, named after what it runs.

A unit is one configuration (`test_op[case[label]]`), or a batch of
configurations that share one exported program (`test_op[a[x]+a[y]+b[z]...]`,
every member named). A batch member that the batch does not show passing runs
alone inside the batch's test, exactly as without batching, and the test fails
naming each member that fails alone. `-k NAME` selects the units that hold a
configuration of NAME; the batches run first (the longest tests: the pytest-xdist
workers then finish together)."""

from __future__ import annotations

import os
import traceback
from typing import Optional

import pytest
import torch
import torch.nn.functional as F

from testbench.batching import Pair, all_pairs, plan, run_batch
from testbench.framework import CROSSCHECK_EVERY, run_config
from testbench.op_spec import C, Cases, T

pytestmark = pytest.mark.slow  # among the suites that take most of make test

# Every program runs its compiled chains (the default path) against eager. One in
# four runs them compiled by MLX, its elementwise operations fused into kernels that
# g++ builds, and through the interpreter, which must give the same bits; the others
# with MLX's compile off (testbench/framework.py: mlx_compile_off), which spares the
# g++ builds: 500 kernels for the whole suite, 169 this way. The full check, every
# program: python -m testbench.run_ops.
os.environ.setdefault(CROSSCHECK_EVERY, "4")

UNITS = sorted(plan(all_pairs()), key=len, reverse=True)


def unit_id(unit: list[Pair]) -> str:
    return "+".join(f"{case.name}[{config.label}]" for case, config in unit)


@pytest.mark.parametrize("unit", UNITS, ids=[unit_id(u) for u in UNITS])
def test_op(unit):
    if len(unit) == 1:
        outcome = run_config(*unit[0], device="cpu")
        assert outcome.passed, outcome.message
        return
    failures = [
        problem
        for pair, outcome in zip(unit, run_batch(unit, device="cpu"))
        if outcome is None and (problem := _alone(*pair)) is not None
    ]
    assert not failures, "\n".join(failures)


def _alone(case, config) -> Optional[str]:
    """Why a batch member fails when run by itself, or None (the others of
    its batch still run)."""
    name = f"{case.name}[{config.label}]"
    try:
        outcome = run_config(case, config, device="cpu")
    except Exception:
        return f"{name}: {traceback.format_exc(limit=-3).strip()}"
    return None if outcome.passed else f"{name}: {outcome.message}"


def test_a_batch_member_that_fails_fails_its_batch_by_name():
    """The batch's test runs a member the batch moved out alone and names it."""
    made = Cases()
    made.add("neg_for_the_batch", [C("ok", torch.neg, T((2, 3)))])
    # grid_sampler_2d has no handler: nothing is delegated where one delegate is expected.
    made.add(
        "grid_sample_for_the_batch", [C("bad", F.grid_sample, T((1, 2, 4, 4)), T((1, 3, 3, 2)))]
    )
    unit = [(case, config) for case in made for config in case.configs()]
    assert plan(unit) == [unit]  # one batch
    with pytest.raises(AssertionError) as failed:
        test_op(unit)
    message = str(failed.value)
    assert message.startswith("grid_sample_for_the_batch[bad]: expected 1 delegate(s), got 0")
    assert "neg_for_the_batch" not in message
