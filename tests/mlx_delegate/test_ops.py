"""The registered op tests as a pytest collection: one test per configuration."""

import pytest

from mlx_delegate.test.framework import all_cases, run_config

CASES = [(case, config) for _, case in sorted(all_cases().items()) for config in case.configs()]


@pytest.mark.parametrize(
    "case, config", CASES, ids=[f"{case.name}[{config.label}]" for case, config in CASES]
)
def test_op(case, config):
    outcome = run_config(case, config, device="cpu")
    assert outcome.passed, outcome.message
