"""The registered op tests as a pytest collection: one test per configuration.

Configurations that can share an exported program are run in batches
(testbench/batching.py): the first selected test of a batch runs the
whole batch (its selected members) and the others read their outcome from it.
A configuration the batch does not show passing runs alone, in its own test,
exactly as without batching, so a failure is reported against it. Under
pytest-xdist, tests/conftest.py sends each batch to one worker."""

import os

import pytest

from testbench.batching import plan, registered_pairs, run_batch
from testbench.framework import CROSSCHECK_EVERY, run_config

# Every program runs compiled (the default path) against eager; one in four is
# also run through the interpreter and must give the same bits. The full check,
# every program: python -m testbench.run_ops.
os.environ.setdefault(CROSSCHECK_EVERY, "4")

CASES = registered_pairs()
# (case name, label) -> its batch (list of pairs), for configurations in batches.
BATCH_OF = {
    (case.name, config.label): unit
    for unit in plan(CASES)
    if len(unit) > 1
    for case, config in unit
}
_BATCHED = {}  # (case name, label) -> Outcome or None (run alone), filled a batch at a time
_SELECTED = {}  # session -> the (case name, label) it runs


@pytest.mark.parametrize(
    "case, config", CASES, ids=[f"{case.name}[{config.label}]" for case, config in CASES]
)
def test_op(request, case, config):
    key = (case.name, config.label)
    if key in BATCH_OF and key not in _BATCHED:
        selected = _selected(request.session)
        members = [pair for pair in BATCH_OF[key] if (pair[0].name, pair[1].label) in selected]
        if len(members) > 1:
            for pair, outcome in zip(members, run_batch(members, device="cpu")):
                _BATCHED[(pair[0].name, pair[1].label)] = outcome
    if _BATCHED.get(key) is not None:
        return  # passed in its batch
    outcome = run_config(case, config, device="cpu")
    assert outcome.passed, outcome.message


def _selected(session) -> set:
    """The configurations this session runs (after -k, --lf, node ids...)."""
    if session not in _SELECTED:
        _SELECTED[session] = {
            (item.callspec.params["case"].name, item.callspec.params["config"].label)
            for item in session.items
            if getattr(item, "function", None) is test_op and hasattr(item, "callspec")
        }
    return _SELECTED[session]
