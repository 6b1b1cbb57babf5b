"""What the op cases are written with: input specs (`T`, `ints`), the generic
case (`SpecCase`) and its configurations (`C`: a function of the inputs, `M`: a
module factory), `Cases` (a module's CASES), the dtypes' short names and the
shared dynamic dims and tolerances. Inputs are drawn from a generator seeded per
configuration, in ranges valid for the op."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import torch
from torch.export import Dim

from .framework import DEFAULT_TOLERANCES, Config, Lambda, OpTestCase

f32, f16, bf16 = torch.float32, torch.float16, torch.bfloat16
i32, i64, i8, u8, boolean = torch.int32, torch.int64, torch.int8, torch.uint8, torch.bool


# ---- inputs -----------------------------------------------------------------


@dataclass(frozen=True)
class T:
    """An input tensor: shape, dtype and the range its values are drawn from
    (floats uniform in [low, high), ints in [low, high), `nonzero` skips 0)."""

    shape: tuple = (3, 4)
    dtype: torch.dtype = f32
    low: Optional[float] = None
    high: Optional[float] = None
    nonzero: bool = False
    distinct: bool = False  # values are a permutation, so arg-reductions have no ties
    values: Optional[tuple] = (
        None  # exact values (nested tuples), where a range cannot hit the case
    )

    def make(self, gen: torch.Generator) -> torch.Tensor:
        if self.values is not None:
            return torch.tensor(self.values, dtype=self.dtype)
        if self.dtype == boolean:
            return torch.randint(0, 2, self.shape, generator=gen).bool()
        if self.distinct:
            count = max(1, int(torch.Size(self.shape).numel()))
            return (
                (torch.randperm(count, generator=gen) - count // 2)
                .reshape(self.shape)
                .to(self.dtype)
            )
        if self.dtype.is_floating_point:
            if self.low is None:
                value = torch.randn(self.shape, generator=gen)
            else:
                value = torch.rand(self.shape, generator=gen) * (self.high - self.low) + self.low
        else:
            low = -10 if self.low is None else int(self.low)
            high = 10 if self.high is None else int(self.high)
            value = torch.randint(low, high, self.shape, generator=gen)
        if self.nonzero:
            value = torch.where(value == 0, torch.ones_like(value), value)
        return value.to(self.dtype)


def ints(shape, low, high, dtype=i64) -> T:
    """Integer values in [low, high), e.g. indices valid for an axis."""
    return T(shape, dtype, low, high)


# ---- the generic case ---------------------------------------------------------


class SpecCase(OpTestCase):
    """A test whose configurations carry `fn` (a function of the inputs) or
    `module` (a factory), and `inputs` (a tuple of T)."""

    def model(self, config):
        if "module" in config.args:
            return config.args["module"]()
        return Lambda(config.args["fn"])

    def inputs(self, config):
        gen = torch.Generator().manual_seed(sum(map(ord, self.name + config.label)))
        return tuple(spec.make(gen) for spec in config.args["inputs"])


def C(label: str, fn: Callable, *inputs: T, dynamic=None, **options) -> Config:
    """A configuration: `fn` applied to inputs made from `inputs`. `dynamic`
    maps input position -> {axis: Dim}; other options go to Config."""
    dynamic_shapes = None
    if dynamic is not None:
        # Lambda.forward takes *args: its one argument is the tuple of inputs.
        dynamic_shapes = (tuple(dynamic.get(i) for i in range(len(inputs))),)
    return Config(label, {"fn": fn, "inputs": inputs}, dynamic_shapes=dynamic_shapes, **options)


def M(
    label: str, module: Callable[[], torch.nn.Module], *inputs: T, dynamic=None, **options
) -> Config:
    """A configuration whose model is `module()` (parameters become constants)."""
    dynamic_shapes = None
    if dynamic is not None:
        dynamic_shapes = tuple(dynamic.get(i) for i in range(len(inputs)))
    return Config(
        label, {"module": module, "inputs": inputs}, dynamic_shapes=dynamic_shapes, **options
    )


class Cases(list):
    """A module's op tests, its CASES (testbench/cases.py collects them): each
    `CASES.add(name, configs)` appends a SpecCase named `name` with `configs`."""

    def add(
        self, name: str, configs: list[Config], tolerances: Optional[dict] = None
    ) -> OpTestCase:
        attrs = {"name": name, "configs": lambda self: configs}
        if tolerances:
            attrs["tolerances"] = {**DEFAULT_TOLERANCES, **tolerances}
        made = type(f"{name.strip('_').title().replace('_', '')}Test", (SpecCase,), attrs)()
        self.append(made)
        return made


BATCH = Dim("batch", min=2, max=64)
SEQ = Dim("seq", min=2, max=128)
# For sizes that are sliced: export wants every derived size to stay above 1.
LONG = Dim("long", min=4, max=128)
LOOSE = {f32: (1e-3, 1e-3), f16: (2e-2, 2e-2), bf16: (8e-2, 8e-2)}
