"""The rule by which outputs are compared with PyTorch eager, shared by the op
tests, the model zoo and the run side of the CUDA suite (which has numpy but
no torch, so this module imports neither torch nor ExecuTorch).

An output is (dtype name, numpy array): "float32", "bfloat16", "int64"...
(numpy has no bfloat16: those arrays come widened to float32). Shapes and
dtypes must be equal; floating outputs must be close, |got - want| <= atol +
rtol * |want| elementwise in float32, NaN equal to NaN, with the (rtol, atol)
of the expected output's dtype; all others must be equal."""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np

Output = tuple  # (dtype name, numpy array)
Tolerance = Callable[[str], tuple]  # dtype name -> (rtol, atol)

FLOATING = frozenset({"float16", "bfloat16", "float32", "float64"})


def outputs_problem(
    expected: Sequence[Output], actual: Sequence[Output], tolerance: Tolerance
) -> Optional[str]:
    """Why `actual` does not match `expected`, or None."""
    if len(expected) != len(actual):
        return f"{len(actual)} outputs, expected {len(expected)}"
    for i, (want, got) in enumerate(zip(expected, actual)):
        problem = output_problem(i, want, got, tolerance)
        if problem:
            return problem
    return None


def output_problem(i: int, want: Output, got: Output, tolerance: Tolerance) -> Optional[str]:
    (want_dtype, want_values), (got_dtype, got_values) = want, got
    if tuple(got_values.shape) != tuple(want_values.shape):
        return f"output {i}: shape {tuple(got_values.shape)}, expected {tuple(want_values.shape)}"
    if got_dtype != want_dtype:
        return f"output {i}: dtype {got_dtype}, expected {want_dtype}"
    if want_dtype in FLOATING:
        rtol, atol = tolerance(want_dtype)
        got32, want32 = got_values.astype(np.float32), want_values.astype(np.float32)
        if not np.allclose(got32, want32, rtol=rtol, atol=atol, equal_nan=True):
            diff = abs_difference(want32, got32).max()
            return f"output {i}: max abs difference {diff:.3g} over rtol={rtol} atol={atol}"
    elif not np.array_equal(got_values, want_values):
        mismatches = int((got_values != want_values).sum())
        return f"output {i}: {mismatches} of {want_values.size} elements differ (exact comparison)"
    return None


def max_error(expected: Sequence[Output], actual: Sequence[Output]) -> Optional[float]:
    """The largest |got - want| over the floating outputs of matching shape."""
    errors = [
        float(abs_difference(w.astype(np.float32), g.astype(np.float32)).max())
        for (wd, w), (_, g) in zip(expected, actual)
        if wd in FLOATING and g.shape == w.shape and w.size
    ]
    return max(errors) if errors else None


def abs_difference(want: np.ndarray, got: np.ndarray) -> np.ndarray:
    """|got - want|, 0 where both are the same NaN or infinity, inf where only
    one is NaN."""
    with np.errstate(invalid="ignore"):  # inf - inf
        diff = np.abs(got - want)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    diff = np.where(same, 0, diff)
    return np.where(np.isnan(diff), np.inf, diff)
