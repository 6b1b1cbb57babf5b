"""A sweep of pooling geometries against eager: every combination of input
length, kernel, stride, padding and dilation (max pooling only: average pooling
has none) that PyTorch accepts, in both ceil modes, with and without
count_include_pad. It covers the corners where a compiler and a runtime can
disagree on a window's output length: kernels longer than the input, windows
starting in the right padding, ceil mode's dropped last window.

Each axis geometry is one pooled axis of a 3-D pool, so one configuration
checks three of them, and the configurations share exported programs in
batches (testbench/batching.py): the sweep costs a few programs.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import torch
import torch.nn.functional as F

from .op_spec import C, T, Cases
from .op_cases_nn import POOL_TOL

CASES = Cases()  # this module's op tests

# Shorter than, as long as, and longer than the kernels.
LENGTHS = (1, 2, 5)
KERNELS = (1, 2, 3, 4)
STRIDES = (1, 2, 3)
PADDINGS = (0, 1, 2)
DILATIONS = (1, 2)
AXES_PER_POOL = 2


class Axis(NamedTuple):
    """One pooled axis: the input length and the window parameters along it."""

    length: int
    kernel: int
    stride: int
    padding: int
    dilation: int

    def label(self) -> str:
        return f"L{self.length}k{self.kernel}s{self.stride}p{self.padding}d{self.dilation}"

    def windows(self, ceil_mode: bool) -> list[list[int]]:
        """The input positions each window reads (padding included), from eager's output length."""
        out = _eager_length(self, ceil_mode)
        return [
            [o * self.stride - self.padding + j * self.dilation for j in range(self.kernel)]
            for o in range(out)
        ]

    def has_padding_only_window(self, ceil_mode: bool) -> bool:
        return any(
            not any(0 <= p < self.length for p in window) for window in self.windows(ceil_mode)
        )


def _eager_length(axis: Axis, ceil_mode: bool, average: bool = False) -> int:
    """The output length eager gives, 0 where it refuses the geometry: the
    sweep asks PyTorch which geometries are valid instead of restating its
    rule. Asked of the 2-D op the sweep runs, the other axis trivial."""
    x = torch.zeros(1, 1, axis.length, 1)
    kw = dict(kernel_size=(axis.kernel, 1), stride=(axis.stride, 1), padding=(axis.padding, 0))
    try:
        if average:
            y = F.avg_pool2d(x, ceil_mode=ceil_mode, **kw)
        else:
            y = F.max_pool2d(x, dilation=(axis.dilation, 1), ceil_mode=ceil_mode, **kw)
    except RuntimeError:
        return 0
    return y.shape[-2]


def accepted_axes(ceil_mode: bool, average: bool = False) -> list[Axis]:
    """Every geometry of the sweep that eager accepts (average pooling: undilated)."""
    dilations = (1,) if average else DILATIONS
    every = itertools.product(LENGTHS, KERNELS, STRIDES, PADDINGS, dilations)
    return [a for a in map(Axis._make, every) if _eager_length(a, ceil_mode, average) > 0]


def _pools(axes: list[Axis]) -> list[tuple[Axis, ...]]:
    """`axes` in pairs (the last one completed with the first axis)."""
    padded = axes + axes[: -len(axes) % AXES_PER_POOL]
    return [tuple(padded[i : i + AXES_PER_POOL]) for i in range(0, len(padded), AXES_PER_POOL)]


def _params(pool: tuple[Axis, ...]) -> dict:
    return {
        "kernel_size": [a.kernel for a in pool],
        "stride": [a.stride for a in pool],
        "padding": [a.padding for a in pool],
    }


def _shape(pool: tuple[Axis, ...]) -> tuple:
    return (1, 2, *(a.length for a in pool))


def _label(pool: tuple[Axis, ...], *flags: str) -> str:
    return "_".join([*flags, *(a.label() for a in pool)])


def max_pool_configs() -> list:
    """Values and indices, except where a window reads only padding: eager's
    index there points outside the input (its value is -inf, as ours)."""
    configs = []
    for ceil_mode in (False, True):
        for pool in _pools(accepted_axes(ceil_mode)):
            indices = not any(a.has_padding_only_window(ceil_mode) for a in pool)
            kw = dict(
                _params(pool),
                dilation=[a.dilation for a in pool],
                ceil_mode=ceil_mode,
                return_indices=indices,
            )
            configs.append(
                C(
                    _label(pool, "ceil" if ceil_mode else "floor"),
                    lambda x, kw=kw: F.max_pool2d(x, **kw),
                    T(_shape(pool), distinct=True),
                )
            )
    return configs


def avg_pool_configs() -> list:
    configs = []
    for ceil_mode, include_pad in itertools.product((False, True), (True, False)):
        for pool in _pools(accepted_axes(ceil_mode, average=True)):
            kw = dict(_params(pool), ceil_mode=ceil_mode, count_include_pad=include_pad)
            flags = ("ceil" if ceil_mode else "floor", "include_pad" if include_pad else "no_pad")
            configs.append(
                C(
                    _label(pool, *flags),
                    lambda x, kw=kw: F.avg_pool2d(x, **kw),
                    T(_shape(pool)),
                )
            )
    return configs


CASES.add("max_pool_sweep", max_pool_configs(), tolerances=POOL_TOL)
CASES.add("avg_pool_sweep", avg_pool_configs(), tolerances=POOL_TOL)
