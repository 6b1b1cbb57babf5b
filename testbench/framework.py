"""OpTestCase: an op test is a model factory, an input factory, a list of
configurations and tolerances per dtype. Each configuration is exported with
our partitioner, checked for delegation, run through `executorch.runtime` on a
plugin and compared with PyTorch eager (`run_config`; the runners batch the
configurations that can share a program: batching.py). Every run also runs the
program through the interpreter (`execute_compiled_and_interpreted`), whose
outputs must equal the compiled run's; with MLXD_TEST_CROSSCHECK_EVERY=N, only
one program in N does (`crosschecked`), as in `make test`, and the others run
their compiled chains with MLX's compile off (`mlx_compile_off`)."""

from __future__ import annotations

import operator
import os
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Optional, Sequence

import torch

from .tolerance import outputs_problem

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
    # ExecuTorch's edge IR checks (EdgeCompileConfig._check_ir_validity): off for
    # ops whose tensor arguments mix dtypes unknown to ExecuTorch (its own NVFP4
    # and MX export forms, torchao::dequantize_nvfp4 / dequantize_mx).
    edge_checks: bool = True


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


class NotApplicable(Exception):
    """A configuration that cannot be expressed in the dtype asked for."""


def run_config(
    case: OpTestCase, config: Config, device: str = "cpu", execute: bool = True
) -> Outcome:
    """Exports, checks delegation, and (unless `execute` is false) runs and compares."""
    model, inputs, expected = prepare(case, config)
    pte, problem, _ = lower(model, inputs, config, device)
    if problem:
        return Outcome(case.name, config.label, False, problem)
    if not execute:
        return Outcome(case.name, config.label, True, "exported (not run)")
    label = f"{case.name}[{config.label}]"
    actual = execute_compiled_and_interpreted(pte, list(inputs), crosscheck=crosschecked(label))
    problem = compare(case, _flatten(expected), actual)
    return Outcome(case.name, config.label, problem is None, problem or "")


class CompiledMismatch(AssertionError):
    """The compiled run of a program and its interpreted run disagree."""


CROSSCHECK_EVERY = "MLXD_TEST_CROSSCHECK_EVERY"


def crosschecked(label: str) -> bool:
    """Whether the program of `label` (a configuration, a batch) is checked
    against the interpreter: every one, unless the environment variable
    MLXD_TEST_CROSSCHECK_EVERY=N asks for one in N, chosen by a stable hash of
    the label (the same ones every run)."""
    every = int(os.environ.get(CROSSCHECK_EVERY, "1"))
    return every <= 1 or zlib.crc32(label.encode()) % every == 0


def execute_compiled_and_interpreted(
    pte: bytes, args: list, method: str = "forward", crosscheck: bool = True
) -> list:
    """The outputs of `method` run through `executorch.runtime` with compiled
    chains (the default), after checking that the interpreter (`MLXD_COMPILE=0`)
    gives the same ones, bit for bit. Unless `crosscheck`: the compiled chains
    alone, with MLX's compile off (`mlx_compile_off`)."""
    if not crosscheck:
        with mlx_compile_off():
            return _execute(pte, args, method)
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
def mlx_compile_off():
    """Programs run meanwhile take the compiled path (their chains cut into
    segments, each run as one function) with MLX's compile off: a segment's
    function runs as it is, without MLX fusing its elementwise operations into
    kernels, each of which MLX's CPU backend builds with g++ (0.25-0.4 s a
    kernel; the op suite's 38 programs needed 500)."""
    import mlx.core as mx

    mx.disable_compile()
    try:
        yield
    finally:
        mx.enable_compile()


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


def prepare(
    case: OpTestCase, config: Config, dtype: Optional[torch.dtype] = None
) -> tuple[torch.nn.Module, tuple, Any]:
    """The model, inputs and eager outputs of a configuration: the RNG seeded
    before the model is built (factories create parameters), then the inputs
    (from the configuration's own seed), then eager. Batched runs
    (testbench/batching.py) make them the same way. With `dtype`, the
    float32 inputs, parameters and buffers are cast to it first (cast_float32)."""
    torch.manual_seed(0)
    model = case.model(config).eval()
    inputs = case.inputs(config)
    if dtype is not None:
        model, inputs = cast_float32(model, inputs, dtype)
    with torch.no_grad():
        expected = model(*inputs)
    return model, inputs, expected


def cast_float32(
    model: torch.nn.Module, inputs: tuple, dtype: torch.dtype
) -> tuple[torch.nn.Module, tuple]:
    """The model and inputs with every float32 tensor (input, parameter,
    buffer) cast to `dtype`. Other dtypes stay as the configuration wrote
    them: integers, and floats it chose on purpose (float64, float16...).
    Raises NotApplicable when there is no float32 tensor to cast."""
    cast = 0

    def convert(t: torch.Tensor) -> torch.Tensor:
        nonlocal cast
        if isinstance(t, torch.Tensor) and t.dtype == torch.float32:
            cast += 1
            return t.to(dtype)
        return t

    if dtype != torch.float32:
        try:
            model = model._apply(convert)  # what Module.to does, for float32 tensors only
        except Exception as error:  # e.g. a quantized tensor subclass that cannot be cast
            raise NotApplicable(f"the model cannot be cast to {dtype}: {error}") from error
        inputs = tuple(convert(x) for x in inputs)
        if not cast:
            raise NotApplicable("no float32 input, parameter or buffer to cast")
    return model, inputs


class Lowering(NamedTuple):
    pte: Optional[bytes]  # None when `problem`
    problem: Optional[str]  # why the lowering does not delegate what the configuration expects
    calls: int  # calls left in the lowered graph (delegates included): 0 when nothing computes


def lower(
    model: torch.nn.Module, inputs: tuple, config: Config, device: Optional[str] = "cpu"
) -> Lowering:
    """Exports and lowers with MLXPartitioner, checks the delegation, and
    makes the .pte."""
    from executorch.exir import EdgeCompileConfig, to_edge_transform_and_lower

    from mlx_delegate.compiler.partitioner import MLXPartitioner

    exported = torch.export.export(model, inputs, dynamic_shapes=config.dynamic_shapes)
    edge = to_edge_transform_and_lower(
        exported,
        partitioner=[MLXPartitioner(device=device)],
        compile_config=EdgeCompileConfig(_check_ir_validity=config.edge_checks),
    )
    graph_module = edge.exported_program().graph_module
    calls = sum(
        n.op == "call_function" and n.target is not operator.getitem
        for n in graph_module.graph.nodes
    )
    problem = check_delegation(graph_module, config)
    if problem:
        return Lowering(None, problem, calls)
    return Lowering(edge.to_executorch().buffer, None, calls)


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
    """Why the outputs differ from eager (testbench/tolerance.py), or None."""
    return outputs_problem(
        [to_output(t) for t in expected],
        [to_output(t) for t in actual],
        lambda name: case.tolerance(getattr(torch, name)),
    )


def to_output(t: torch.Tensor) -> tuple:
    """(dtype name, numpy array) as tolerance.py compares them; floating
    tensors go through float32 (numpy has no bfloat16)."""
    name = str(t.dtype).removeprefix("torch.")
    return name, (t.detach().float() if t.is_floating_point() else t.detach()).cpu().numpy()


def _flatten(value) -> list:
    if isinstance(value, torch.Tensor):
        return [value]
    return [t for v in value for t in _flatten(v)]


def _target(node) -> str:
    return str(getattr(node.target, "__name__", node.target))
