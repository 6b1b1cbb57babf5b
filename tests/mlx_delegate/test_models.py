"""The model zoo (testbench/models.py) as a pytest collection: one test
per model and dtype, through `executorch.runtime` on the CPU plugin. Each
asserts one delegate, nothing outside it beyond the ops the model lists (with
their reasons), and the max error to PyTorch eager within the model's tolerance.
Latency and the XNNPACK comparison are the runner's (run_models), not tested."""

import pytest

from testbench.models import all_models, dtype_label
from testbench.run_models import run_model

pytestmark = pytest.mark.slow  # among the suites that take most of make test

CASES = [(case, dtype) for _, case in sorted(all_models().items()) for dtype in case.dtypes]


@pytest.mark.parametrize(
    "case, dtype", CASES, ids=[f"{case.name}[{dtype_label(dtype)}]" for case, dtype in CASES]
)
def test_model(case, dtype):
    result = run_model(case, dtype, device="cpu")
    if not result.passed:
        pytest.fail(result.message, pytrace=False)
