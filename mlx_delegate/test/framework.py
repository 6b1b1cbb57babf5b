"""OpTestCase: an op test is a model factory, an input factory, a list of
configurations and tolerances per dtype. Each configuration is exported with
our partitioner, checked for delegation, run through `executorch.runtime` on a
plugin and compared with PyTorch eager (`run_config`; the runners batch the
configurations that can share a program: batching.py). Every run also runs the
program through the interpreter (`execute_compiled_and_interpreted`), whose
outputs must equal the compiled run's."""

from __future__ import annotations

import operator
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

import torch

DEFAULT_TOLERANCES = {
    torch.float32: (1e-4, 1e-4),
    torch.float64: (1e-6, 1e-6),
    torch.float16: (1e-2, 1e-2),
    torch.bfloat16: (5e-2, 5e-2),
}


@dataclass(frozen=True)
class Config:
    """One configuration of an op test. `args` parameterize the model and inputs."""

    label: str
    args: dict = field(default_factory=dict)
    dynamic_shapes: Any = None
    # Number of delegates expected, and targets allowed to run outside them.
    delegates: int = 1
    fallback: tuple[str, ...] = ()


class OpTestCase:
    """Subclass, set `name`, and implement `configs`, `model` and `inputs`."""

    name: str = ""
    tolerances: dict = DEFAULT_TOLERANCES

    def configs(self) -> Sequence[Config]:
        raise NotImplementedError

    def model(self, config: Config) -> torch.nn.Module:
        raise NotImplementedError

    def inputs(self, config: Config) -> tuple:
        raise NotImplementedError

    def tolerance(self, dtype: torch.dtype) -> tuple[float, float]:
        return self.tolerances.get(dtype, DEFAULT_TOLERANCES.get(dtype, (0.0, 0.0)))


REGISTERED: dict[str, OpTestCase] = {}


def register_test(cls):
    case = cls()
    if not case.name or case.name in REGISTERED:
        raise ValueError(f"op test {cls.__name__} needs a unique name (got {case.name!r})")
    REGISTERED[case.name] = case
    return cls


def all_cases() -> dict[str, OpTestCase]:
    from . import op_cases  # noqa: F401  (registers the cases)

    return REGISTERED


@dataclass(frozen=True)
class Outcome:
    case: str
    config: str
    passed: bool
    message: str = ""


class Lambda(torch.nn.Module):
    """A module around a function, for op tests that need no parameters."""

    def __init__(self, fn: Callable, **constants: Any):
        super().__init__()
        self.fn = fn
        self.constants = constants

    def forward(self, *args):
        return self.fn(*args, **self.constants)


def run_config(
    case: OpTestCase, config: Config, device: str = "cpu", execute: bool = True
) -> Outcome:
    """Exports, checks delegation, and (unless `execute` is false) runs and compares."""
    from executorch.exir import to_edge_transform_and_lower

    from mlx_delegate.partitioner import MLXPartitioner

    model, inputs, expected = prepare(case, config)
    exported = torch.export.export(model, inputs, dynamic_shapes=config.dynamic_shapes)
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device=device)])
    problem = check_delegation(edge.exported_program().graph_module, config)
    if problem:
        return Outcome(case.name, config.label, False, problem)
    pte = edge.to_executorch().buffer
    if not execute:
        return Outcome(case.name, config.label, True, "exported (not run)")
    actual = execute_compiled_and_interpreted(pte, list(inputs))
    problem = compare(case, _flatten(expected), actual)
    return Outcome(case.name, config.label, problem is None, problem or "")


class CompiledMismatch(AssertionError):
    """The compiled run of a program and its interpreted run disagree."""


def execute_compiled_and_interpreted(pte: bytes, args: list, method: str = "forward") -> list:
    """The outputs of `method` run through `executorch.runtime` with compiled
    chains (the default), after checking that the interpreter
    (`MLXD_COMPILE=0`) gives the same ones, bit for bit."""
    compiled = _execute(pte, args, method)
    with interpreted():
        plain = _execute(pte, args, method)
    for i, (a, b) in enumerate(zip(compiled, plain)):
        if isinstance(a, torch.Tensor) and not _identical(a, b):
            diff = (a.double() - b.double()).abs().nan_to_num(0).max().item()
            raise CompiledMismatch(
                f"output {i}: compiled and interpreted runs differ (max {diff:.3g})"
            )
    return compiled


def _identical(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Equal bit for bit, NaNs in the same places."""
    if a.is_floating_point() and a.dtype == b.dtype and a.shape == b.shape:
        return torch.allclose(a, b, rtol=0, atol=0, equal_nan=True)
    return torch.equal(a, b)


@contextmanager
def interpreted():
    """Programs loaded meanwhile run instruction by instruction."""
    before = os.environ.get("MLXD_COMPILE")
    os.environ["MLXD_COMPILE"] = "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ["MLXD_COMPILE"]
        else:
            os.environ["MLXD_COMPILE"] = before


def _execute(pte: bytes, args: list, method: str) -> list:
    import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)  # the method needs its program alive
    return list(program.load_method(method).execute(list(args)))


def prepare(case: OpTestCase, config: Config) -> tuple[torch.nn.Module, tuple, Any]:
    """The model, inputs and eager outputs of a configuration: the RNG seeded
    before the model is built (factories create parameters), then the inputs
    (from the configuration's own seed), then eager. Batched runs
    (mlx_delegate/test/batching.py) make them the same way."""
    torch.manual_seed(0)
    model = case.model(config).eval()
    inputs = case.inputs(config)
    with torch.no_grad():
        expected = model(*inputs)
    return model, inputs, expected


def check_delegation(graph_module: torch.fx.GraphModule, config: Config) -> Optional[str]:
    calls = [n for n in graph_module.graph.nodes if n.op == "call_function"]
    delegates = [n for n in calls if "executorch_call_delegate" in str(n.target)]
    fallback = [n for n in calls if n not in delegates and n.target is not operator.getitem]
    if len(delegates) != config.delegates:
        return (
            f"expected {config.delegates} delegate(s), got {len(delegates)}; outside: "
            + ", ".join(_target(n) for n in fallback)
        )
    unexpected = [n for n in fallback if not any(f in _target(n) for f in config.fallback)]
    if unexpected:
        return "not delegated: " + ", ".join(_target(n) for n in unexpected)
    return None


def compare(case: OpTestCase, expected: list, actual: list) -> Optional[str]:
    if len(expected) != len(actual):
        return f"{len(actual)} outputs, expected {len(expected)}"
    for i, (want, got) in enumerate(zip(expected, actual)):
        if tuple(got.shape) != tuple(want.shape):
            return f"output {i}: shape {tuple(got.shape)}, expected {tuple(want.shape)}"
        if got.dtype != want.dtype:
            return f"output {i}: dtype {got.dtype}, expected {want.dtype}"
        if want.dtype.is_floating_point:
            rtol, atol = case.tolerance(want.dtype)
            if not torch.allclose(got.float(), want.float(), rtol=rtol, atol=atol, equal_nan=True):
                diff = (got.float() - want.float()).abs().nan_to_num(0).max().item()
                return f"output {i}: max abs difference {diff:.3g} over rtol={rtol} atol={atol}"
        elif not torch.equal(got, want):
            mismatches = (got != want).sum().item()
            return f"output {i}: {mismatches} of {want.numel()} elements differ (exact comparison)"
    return None


def _flatten(value) -> list:
    if isinstance(value, torch.Tensor):
        return [value]
    return [t for v in value for t in _flatten(v)]


def _target(node) -> str:
    return str(getattr(node.target, "__name__", node.target))
