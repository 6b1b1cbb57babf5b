"""The op tests of the core ATen ops (arithmetic, unary math, comparisons,
reductions, linear algebra, shape, indexing, convolution, attention...), in
CASES. Most are built from a table: a configuration names a function of the
inputs (or a module factory) and the specs of its inputs (op_spec.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch
import torch.nn.functional as F

from .framework import Config
from .op_spec import (
    BATCH,
    C,
    LONG,
    LOOSE,
    M,
    SEQ,
    T,
    Cases,
    bf16,
    boolean,
    f16,
    f32,
    i32,
    i64,
    i8,
    ints,
    u8,
)

CASES = Cases()  # this module's op tests


# ---- binary arithmetic ------------------------------------------------------------


def _arith(name: str, op: Callable) -> list[Config]:
    """Shapes, broadcasting, 0-d operands, Python scalars and dtypes, shared by
    add, sub, mul and div (div makes its own denominators nonzero)."""
    rhs = dict(low=0.5, high=2.0) if name == "div" else {}
    int_rhs = dict(low=1, high=6) if name == "div" else {}
    return [
        C("same_shape", op, T((3, 4)), T((3, 4), **rhs)),
        C("broadcast", op, T((2, 3, 4)), T((4,), **rhs)),
        C("broadcast_both", op, T((3, 1)), T((1, 4), **rhs)),
        C("zero_dim_rhs", op, T((3, 4)), T((), **rhs)),
        C("zero_dim_both", op, T(()), T((), **rhs)),
        C("scalar", lambda x: op(x, 2.5), T()),
        C("float16", op, T((3, 4), f16), T((3, 4), f16, **rhs)),
        C("bfloat16", op, T((3, 4), bf16), T((4,), bf16, **rhs)),
        C("int32", op, T((3, 4), i32), T((3, 4), i32, **int_rhs)),
        C("int64_scalar", lambda x: op(x, 3), T((3, 4), i64)),
        C("int8", op, T((3, 4), i8, -5, 5), T((3, 4), i8, **(int_rhs or dict(low=-5, high=5)))),
        C("uint8", op, T((3, 4), u8, 0, 10), T((3, 4), u8, **(int_rhs or dict(low=0, high=10)))),
        C("promote_int_float", op, T((3, 4), i32), T((3, 4), **rhs)),
        C("promote_half_float", op, T((3, 4), f16), T((3, 4), **rhs)),
        C("int_tensor_float_scalar", lambda x: op(x, 0.5), T((3, 4), i32)),
        C("float16_zero_dim_float32", op, T((3, 4), f16), T((), **rhs)),
        C("dynamic_batch", op, T((4, 5)), T((4, 5), **rhs), dynamic={0: {0: BATCH}, 1: {0: BATCH}}),
    ]


for _name, _op in (("add", torch.add), ("sub", torch.sub), ("mul", torch.mul)):
    _configs = _arith(_name, _op)
    if _name != "mul":
        alpha_op = getattr(torch, _name)
        _configs += [
            C("alpha", lambda x, y, o=alpha_op: o(x, y, alpha=3), T(), T()),
            C(
                "alpha_int",
                lambda x, y, o=alpha_op: o(x, y, alpha=2),
                T((3, 4), i32),
                T((3, 4), i32),
            ),
        ]
    else:
        _configs.append(C("bool", torch.mul, T((3, 4), boolean), T((3, 4), boolean)))
    CASES.add(_name, _configs)

CASES.add(
    "rsub",
    [
        C("scalar_minus_tensor", lambda x: 2.0 - x, T()),
        C("rsub_alpha", lambda x, y: torch.rsub(x, y, alpha=2), T(), T()),
        C("int", lambda x: 5 - x, T((3, 4), i32)),
    ],
)


def _div_configs() -> list[Config]:
    configs = _arith("div", torch.div)  # integer operands divide truly, into float32
    nonzero = dict(nonzero=True)
    configs += [
        C("int_true_division", torch.div, T((3, 4), i32, -20, 20), T((3, 4), i32, 1, 6)),
        C(
            "trunc_float",
            lambda x, y: torch.div(x, y, rounding_mode="trunc"),
            T((3, 4), f32, -9, 9),
            T((3, 4), f32, 0.5, 3),
        ),
        C(
            "floor_float",
            lambda x, y: torch.div(x, y, rounding_mode="floor"),
            T((3, 4), f32, -9, 9),
            T((3, 4), f32, -3, -0.5),
        ),
        C(
            "trunc_int",
            lambda x, y: torch.div(x, y, rounding_mode="trunc"),
            T((3, 4), i32, -20, 20),
            T((3, 4), i32, -4, 4, **nonzero),
        ),
        C(
            "floor_int",
            lambda x, y: torch.div(x, y, rounding_mode="floor"),
            T((3, 4), i64, -20, 20),
            T((3, 4), i64, -4, 4, **nonzero),
        ),
        C(
            "floor_int_scalar",
            lambda x: torch.div(x, 3, rounding_mode="floor"),
            T((3, 4), i32, -20, 20),
        ),
        C(
            "trunc_scalar",
            lambda x: torch.div(x, -2.0, rounding_mode="trunc"),
            T((3, 4), f32, -9, 9),
        ),
        C("floor_divide_op", lambda x, y: x // y, T((3, 4), i32, -20, 20), T((3, 4), i32, 1, 5)),
    ]
    return configs


CASES.add("div", _div_configs())


# ---- unary math -------------------------------------------------------------------


@dataclass(frozen=True)
class Unary:
    fn: Callable
    low: float = -3.0
    high: float = 3.0
    int_input: bool = (
        True  # PyTorch accepts integer inputs (promoted to float where the op is float)
    )


UNARY = {
    "neg": Unary(torch.neg),
    "abs": Unary(torch.abs),
    "exp": Unary(torch.exp),
    "log": Unary(torch.log, 0.1, 5.0),
    "sqrt": Unary(torch.sqrt, 0.1, 5.0),
    "rsqrt": Unary(torch.rsqrt, 0.1, 5.0),
    "sin": Unary(torch.sin),
    "cos": Unary(torch.cos),
    "tanh": Unary(torch.tanh),
    "sigmoid": Unary(torch.sigmoid, -5.0, 5.0),
    "erf": Unary(torch.erf, -2.0, 2.0),
    "floor": Unary(torch.floor, -5.0, 5.0),
    "ceil": Unary(torch.ceil, -5.0, 5.0),
    "round": Unary(torch.round, -5.0, 5.0),
    "reciprocal": Unary(torch.reciprocal, 0.5, 3.0),
}


# Computed by the CPU variants' own kernels (runtime_cpp/src/cpu/activation.h)
# from 4096 elements on: the large configs reach them, contiguous or not.
CPU_KERNEL_ACTIVATIONS = ("exp", "tanh", "sigmoid", "erf")


def _large_configs(
    fn: Callable, low: float = -3.0, high: float = 3.0, prefix: str = ""
) -> list[Config]:
    return [
        C(f"{prefix}large", fn, T((64, 96), f32, low, high)),
        C(f"{prefix}large_bfloat16", fn, T((32, 160), bf16, low, high)),
        C(f"{prefix}large_transposed", lambda x: fn(x.t()), T((96, 64), f32, low, high)),
    ]


def _unary_configs(name: str, spec: Unary) -> list[Config]:
    r = dict(low=spec.low, high=spec.high)
    configs = [
        C("float32", spec.fn, T((3, 4), **r)),
        C("float16", spec.fn, T((2, 3, 4), f16, **r)),
        C("bfloat16", spec.fn, T((5,), bf16, **r)),
        C("zero_dim", spec.fn, T((), **r)),
        C("dynamic_batch", spec.fn, T((4, 3), **r), dynamic={0: {0: BATCH}}),
    ]
    if spec.int_input:
        low, high = max(int(spec.low), 1 if spec.low > 0 else -9), max(int(spec.high), 5)
        configs.append(C("int32", spec.fn, T((3, 4), i32, low, high)))
        configs.append(C("int64", spec.fn, T((4,), i64, low, high)))
    if name in ("neg", "abs"):
        configs.append(C("int8", spec.fn, T((3, 4), i8, -9, 9)))
    if name in CPU_KERNEL_ACTIVATIONS:
        configs.extend(_large_configs(spec.fn, **r))
    if name == "round":
        configs.append(C("decimals", lambda x: torch.round(x, decimals=2), T((3, 4), f32, -5, 5)))
        configs.append(
            C("negative_decimals", lambda x: torch.round(x, decimals=-1), T((3, 4), f32, -50, 50))
        )
        configs.append(C("half_to_even", spec.fn, T(values=(-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5))))
    return configs


for _name, _spec in UNARY.items():
    CASES.add(_name, _unary_configs(_name, _spec))


CASES.add(
    "pow",
    [
        C("tensor_scalar_square", lambda x: torch.pow(x, 2), T()),
        C("tensor_scalar_sqrt", lambda x: x**0.5, T((3, 4), f32, 0.1, 4)),
        C("tensor_tensor", torch.pow, T((3, 4), f32, 0.1, 3), T((3, 4), f32, -2, 2)),
        C("tensor_tensor_broadcast", torch.pow, T((2, 3, 4), f32, 0.1, 3), T((4,), f32, -2, 2)),
        C("scalar_tensor", lambda x: torch.pow(2.0, x), T()),
        C("int32_scalar", lambda x: x**3, T((3, 4), i32, -5, 5)),
        C("float16", lambda x: x**2, T((3, 4), f16)),
        C("zero_dim_exponent", torch.pow, T((3, 4), f32, 0.1, 3), T((), f32, 0.5, 2)),
    ],
)


# ---- binary selection -------------------------------------------------------------

for _name, _op in (("maximum", torch.maximum), ("minimum", torch.minimum)):
    CASES.add(
        _name,
        [
            C("same_shape", _op, T(), T()),
            C("broadcast", _op, T((2, 3, 4)), T((3, 1))),
            C("int32", _op, T((3, 4), i32), T((3, 4), i32)),
            C("promote", _op, T((3, 4), i32), T((3, 4), f32)),
            C("float16", _op, T((3, 4), f16), T((4,), f16)),
            C("zero_dim", _op, T((3, 4)), T(())),
            C("uint8", _op, T((3, 4), u8, 0, 100), T((3, 4), u8, 0, 100)),
        ],
    )

CASES.add(
    "clamp",
    [
        C("both", lambda x: torch.clamp(x, -0.5, 0.5), T()),
        C("min_only", lambda x: torch.clamp(x, min=0.0), T()),
        C("max_only", lambda x: torch.clamp(x, max=0.2), T()),
        C("int32", lambda x: torch.clamp(x, -3, 4), T((3, 4), i32)),
        C(
            "tensor_bounds",
            lambda x, lo, hi: torch.clamp(x, lo, hi),
            T(),
            T((4,), f32, -1, -0.2),
            T((3, 1), f32, 0.2, 1),
        ),
        C("float16", lambda x: torch.clamp(x, -1, 1), T((3, 4), f16)),
        C("int_tensor_float_bounds", lambda x: torch.clamp(x, -2.5, 2.5), T((3, 4), i32)),
        C("min_above_max", lambda x: torch.clamp(x, 0.5, -0.5), T()),
    ],
)

CASES.add(
    "where",
    [
        C("same_shape", torch.where, T((3, 4), boolean), T(), T()),
        C("broadcast", torch.where, T((3, 1), boolean), T((2, 3, 4)), T((4,))),
        C("scalar_other", lambda c, x: torch.where(c, x, 0.0), T((3, 4), boolean), T()),
        C("scalar_self", lambda c, y: torch.where(c, 1.5, y), T((3, 4), boolean), T()),
        C("int32", torch.where, T((3, 4), boolean), T((3, 4), i32), T((3, 4), i32)),
        C("promote", torch.where, T((3, 4), boolean), T((3, 4), i32), T((3, 4), f16)),
        C("condition_from_compare", lambda x, y: torch.where(x > 0, x, y), T(), T()),
        C("both_scalars", lambda c: torch.where(c, 2.0, -1.0), T((3, 4), boolean)),
    ],
)


# ---- comparisons and logic --------------------------------------------------------

COMPARISONS = {
    "eq": torch.eq,
    "ne": torch.ne,
    "lt": torch.lt,
    "le": torch.le,
    "gt": torch.gt,
    "ge": torch.ge,
}

for _name, _op in COMPARISONS.items():
    CASES.add(
        _name,
        [
            C("tensor", _op, T((3, 4), i32, -2, 2), T((3, 4), i32, -2, 2)),
            C("float_broadcast", _op, T((2, 3, 4)), T((4,))),
            C("scalar", lambda x, o=_op: o(x, 0.0), T()),
            C("int_scalar", lambda x, o=_op: o(x, 1), T((3, 4), i64, -3, 3)),
            C("int_vs_float_scalar", lambda x, o=_op: o(x, 0.5), T((3, 4), i32, -3, 3)),
            C("promote_tensors", _op, T((3, 4), i32, -2, 2), T((3, 4), f16, -2, 2)),
            C("bool", _op, T((3, 4), boolean), T((3, 4), boolean)),
            C("zero_dim", _op, T((3, 4), i32, -2, 2), T((), i32, -2, 2)),
            C("bfloat16", _op, T((3, 4), bf16), T((3, 4), bf16)),
        ],
    )

for _name, _op in (("logical_and", torch.logical_and), ("logical_or", torch.logical_or)):
    CASES.add(
        _name,
        [
            C("bool", _op, T((3, 4), boolean), T((3, 4), boolean)),
            C("broadcast", _op, T((2, 3, 4), boolean), T((4,), boolean)),
            C("float_inputs", _op, T((3, 4), f32, -1, 1), T((3, 4), i32, -1, 2)),
            C("int8", _op, T((3, 4), i8, -1, 2), T((3, 4), i8, -1, 2)),
        ],
    )

CASES.add(
    "logical_not",
    [
        C("bool", torch.logical_not, T((3, 4), boolean)),
        C("float", torch.logical_not, T((3, 4), i32, -1, 2)),
        C("zero_dim", torch.logical_not, T((), boolean)),
        C("uint8", torch.logical_not, T((5,), u8, 0, 3)),
    ],
)


# ---- reductions -------------------------------------------------------------------

CASES.add(
    "sum",
    [
        C("all", torch.sum, T((3, 4))),
        C("dim_keepdim", lambda x: x.sum(dim=-1, keepdim=True), T((2, 3, 4))),
        C("dims", lambda x: x.sum(dim=(0, 2)), T((2, 3, 4))),
        C("int32_to_int64", lambda x: x.sum(dim=1), T((3, 4), i32)),
        C("bool", lambda x: x.sum(), T((3, 4), boolean)),
        C("float16", lambda x: x.sum(dim=0), T((3, 4), f16)),
        C("dtype_arg", lambda x: x.sum(dim=1, dtype=torch.float32), T((3, 4), f16)),
        C("dynamic_batch", lambda x: x.sum(dim=0), T((4, 3)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "mean",
    [
        C("all", torch.mean, T((3, 4))),
        C("dim_keepdim", lambda x: x.mean(dim=-1, keepdim=True), T((2, 3, 4))),
        C("dims", lambda x: x.mean(dim=(1, 2)), T((2, 3, 4))),
        C("float16", lambda x: x.mean(dim=0), T((3, 4), f16)),
        C("dynamic_seq", lambda x: x.mean(dim=1), T((2, 5)), dynamic={0: {1: SEQ}}),
    ],
    tolerances=LOOSE,
)

for _name, _op in (("amax", torch.amax), ("amin", torch.amin)):
    CASES.add(
        _name,
        [
            C("dim", lambda x, o=_op: o(x, dim=-1), T((2, 3, 4))),
            C("dims_keepdim", lambda x, o=_op: o(x, dim=(0, 2), keepdim=True), T((2, 3, 4))),
            C("all", lambda x, o=_op: o(x), T((3, 4))),
            C("int32", lambda x, o=_op: o(x, dim=0), T((3, 4), i32)),
            C("float16", lambda x, o=_op: o(x, 1), T((3, 4), f16)),
            C("bool", lambda x, o=_op: o(x, 0), T((3, 4), boolean)),
        ],
    )

for _name, _op in (("argmax", torch.argmax), ("argmin", torch.argmin)):
    CASES.add(
        _name,
        [
            C("flattened", lambda x, o=_op: o(x), T((3, 4), distinct=True)),
            C("dim", lambda x, o=_op: o(x, dim=1), T((3, 4), distinct=True)),
            C(
                "negative_dim_keepdim",
                lambda x, o=_op: o(x, dim=-1, keepdim=True),
                T((2, 3, 4), distinct=True),
            ),
            C("int32", lambda x, o=_op: o(x, dim=0), T((3, 4), i32, distinct=True)),
            C("float16", lambda x, o=_op: o(x, 1), T((3, 4), f16, distinct=True)),
        ],
    )

for _name, _op in (("var", torch.var), ("std", torch.std)):
    CASES.add(
        _name,
        [
            C("all", lambda x, o=_op: o(x), T((3, 4))),
            C("dim_biased", lambda x, o=_op: o(x, dim=1, unbiased=False), T((3, 4))),
            C(
                "correction0_keepdim",
                lambda x, o=_op: o(x, dim=-1, correction=0, keepdim=True),
                T((2, 3, 4)),
            ),
            C("dims_correction2", lambda x, o=_op: o(x, dim=(0, 2), correction=2), T((2, 3, 4))),
            C("float16", lambda x, o=_op: o(x, dim=0), T((4, 3), f16)),
        ],
        tolerances=LOOSE,
    )

CASES.add(
    "prod",
    [
        C("all", torch.prod, T((3, 4), f32, 0.5, 1.5)),
        C("dim", lambda x: x.prod(dim=1), T((3, 4), f32, 0.5, 1.5)),
        C(
            "negative_dim_keepdim",
            lambda x: x.prod(dim=-1, keepdim=True),
            T((2, 3, 4), f32, 0.5, 1.5),
        ),
        C("int32_to_int64", lambda x: x.prod(dim=0), T((3, 4), i32, -3, 4)),
        C("float16", lambda x: x.prod(0), T((3, 4), f16, 0.5, 1.5)),
    ],
    tolerances=LOOSE,
)

for _name, _op in (("any", torch.any), ("all", torch.all)):
    CASES.add(
        _name,
        [
            C("all_axes", lambda x, o=_op: o(x), T((3, 4), boolean)),
            C("dim", lambda x, o=_op: o(x, dim=1), T((3, 4), boolean)),
            C("dim_keepdim", lambda x, o=_op: o(x, dim=-1, keepdim=True), T((2, 3, 4), boolean)),
            C("dims", lambda x, o=_op: o(x, dim=(0, 2)), T((2, 3, 4), boolean)),
            C(
                "float_input",
                lambda x, o=_op: o(x, dim=0),
                T(values=((0.0, 1.5, -2.0), (0.5, 0.0, 3.0))),
            ),
            C("int32_input", lambda x, o=_op: o(x, dim=1), T((3, 4), i32, 0, 2)),
            C("uint8_keeps_dtype", lambda x, o=_op: o(x), T((3, 4), u8, 0, 2)),
        ],
    )

CASES.add(
    "cumsum",
    [
        C("dim0", lambda x: torch.cumsum(x, 0), T((3, 4))),
        C("negative_dim", lambda x: torch.cumsum(x, -1), T((2, 3, 4))),
        C("int32_to_int64", lambda x: torch.cumsum(x, 1), T((3, 4), i32)),
        C("dtype_arg", lambda x: torch.cumsum(x, 1, dtype=torch.float32), T((3, 4), i32)),
        C("float16", lambda x: torch.cumsum(x, 0), T((4, 3), f16)),
        C("dynamic_seq", lambda x: torch.cumsum(x, 1), T((2, 6)), dynamic={0: {1: SEQ}}),
    ],
    tolerances=LOOSE,
)


# ---- softmax ------------------------------------------------------------------------

for _name, _op in (("_softmax", torch.softmax), ("_log_softmax", torch.log_softmax)):
    CASES.add(
        _name,
        [
            C("last_dim", lambda x, o=_op: o(x, -1), T((3, 4))),
            C("dim1", lambda x, o=_op: o(x, 1), T((2, 3, 4))),
            C("float16", lambda x, o=_op: o(x, -1), T((2, 5), f16)),
            C("bfloat16", lambda x, o=_op: o(x, 0), T((4, 3), bf16)),
            C("dynamic_seq", lambda x, o=_op: o(x, -1), T((2, 6)), dynamic={0: {1: SEQ}}),
            # from 4096 values on, the CPU variants' own softmax kernel (activation.h)
            C("large", lambda x, o=_op: o(x, -1), T((64, 96))),
            C("large_bfloat16", lambda x, o=_op: o(x, -1), T((32, 160), bf16)),
            C("large_transposed", lambda x, o=_op: o(x.t(), -1), T((96, 64))),
        ],
        tolerances=LOOSE,
    )


# ---- activations --------------------------------------------------------------------

CASES.add(
    "relu",
    [
        C("float32", torch.relu, T((3, 4))),
        C("float16", F.relu, T((2, 3, 4), f16)),
        C("int32", torch.relu, T((3, 4), i32)),
        C("zero_dim", torch.relu, T(())),
        M("module_dynamic", torch.nn.ReLU, T((4, 3)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "gelu",
    [
        C("exact", F.gelu, T((3, 4))),
        C("tanh", lambda x: F.gelu(x, approximate="tanh"), T((3, 4))),
        C("float16", F.gelu, T((2, 3, 4), f16)),
        C("bfloat16_tanh", lambda x: F.gelu(x, approximate="tanh"), T((3, 4), bf16)),
        M("module", torch.nn.GELU, T((2, 8))),
        *_large_configs(F.gelu, prefix="exact_"),
        *_large_configs(lambda x: F.gelu(x, approximate="tanh"), prefix="tanh_"),
    ],
    tolerances=LOOSE,
)

CASES.add(
    "silu",
    [
        C("float32", F.silu, T((3, 4))),
        C("float16", F.silu, T((2, 3, 4), f16)),
        C("zero_dim", F.silu, T(())),
        M("module_dynamic", torch.nn.SiLU, T((4, 3)), dynamic={0: {0: BATCH}}),
        *_large_configs(F.silu),
    ],
    tolerances=LOOSE,
)

CASES.add(
    "leaky_relu",
    [
        C("default_slope", F.leaky_relu, T((3, 4))),
        C("slope", lambda x: F.leaky_relu(x, 0.2), T((3, 4))),
        C("float16", lambda x: F.leaky_relu(x, 0.1), T((2, 3, 4), f16)),
        M("module", lambda: torch.nn.LeakyReLU(0.3), T((5,))),
    ],
)

CASES.add(
    "hardtanh",
    [
        C("default", F.hardtanh, T((3, 4), f32, -3, 3)),
        C("bounds", lambda x: F.hardtanh(x, -0.5, 2.0), T((3, 4), f32, -3, 3)),
        C("float16", F.hardtanh, T((2, 3, 4), f16, -3, 3)),
        M("module", lambda: torch.nn.Hardtanh(0.0, 1.0), T((5,), f32, -3, 3)),
    ],
)


# ---- linear algebra -----------------------------------------------------------------

MATMUL_TOL = {f32: (1e-3, 1e-3), f16: (3e-2, 3e-2), bf16: (1e-1, 1e-1)}

CASES.add(
    "linear",
    [
        C("bias", F.linear, T((3, 4)), T((5, 4)), T((5,))),
        C("no_bias", F.linear, T((2, 3, 4)), T((5, 4))),
        M("module", lambda: torch.nn.Linear(8, 6), T((2, 3, 8))),
        M("module_float16", lambda: torch.nn.Linear(8, 6).half(), T((3, 8), f16)),
        # bf16 by bf16: the AVX-512 kernels' vdpbf16ps path, K past one vector, odd
        M("module_bfloat16", lambda: torch.nn.Linear(37, 6).bfloat16(), T((5, 37), bf16)),
        M(
            "module_dynamic",
            lambda: torch.nn.Linear(8, 4, bias=False),
            T((4, 8)),
            dynamic={0: {0: BATCH}},
        ),
        C("vector_input", F.linear, T((4,)), T((5, 4)), T((5,))),
    ],
    tolerances=MATMUL_TOL,
)

CASES.add(
    "addmm",
    [
        C("default", torch.addmm, T((3, 5)), T((3, 4)), T((4, 5))),
        C(
            "alpha_beta",
            lambda b, m1, m2: torch.addmm(b, m1, m2, beta=0.5, alpha=2.0),
            T((3, 5)),
            T((3, 4)),
            T((4, 5)),
        ),
        C("broadcast_bias", torch.addmm, T((5,)), T((3, 4)), T((4, 5))),
        C("float16", torch.addmm, T((5,), f16), T((3, 4), f16), T((4, 5), f16)),
    ],
    tolerances=MATMUL_TOL,
)

CASES.add(
    "mm",
    [
        C("float32", torch.mm, T((3, 4)), T((4, 5))),
        C("float16", torch.mm, T((2, 8), f16), T((8, 3), f16)),
        C("bfloat16", torch.mm, T((4, 4), bf16), T((4, 2), bf16)),
        C("int32", torch.mm, T((3, 4), i32, -5, 5), T((4, 2), i32, -5, 5)),
        C("dynamic_rows", torch.mm, T((3, 4)), T((4, 5)), dynamic={0: {0: BATCH}}),
    ],
    tolerances=MATMUL_TOL,
)

CASES.add(
    "bmm",
    [
        C("float32", torch.bmm, T((2, 3, 4)), T((2, 4, 5))),
        C("float16", torch.bmm, T((3, 2, 8), f16), T((3, 8, 2), f16)),
        C("bfloat16", torch.bmm, T((2, 4, 4), bf16), T((2, 4, 3), bf16)),
        C("int32", torch.bmm, T((2, 3, 4), i32), T((2, 4, 5), i32)),
        C(
            "dynamic_batch",
            torch.bmm,
            T((2, 3, 4)),
            T((2, 4, 5)),
            dynamic={0: {0: BATCH}, 1: {0: BATCH}},
        ),
    ],
    tolerances=MATMUL_TOL,
)

CASES.add(
    "matmul",
    [
        C("2d", torch.matmul, T((3, 4)), T((4, 5))),
        C("batched_broadcast", torch.matmul, T((2, 1, 3, 4)), T((5, 4, 2))),
        C("3d_by_2d", torch.matmul, T((2, 3, 4)), T((4, 5))),
        C("vector_matrix", torch.matmul, T((4,)), T((4, 5))),
        C("matrix_vector", torch.matmul, T((3, 4)), T((4,))),
        C("float16", torch.matmul, T((2, 3, 8), f16), T((2, 8, 3), f16)),
        C("operator", lambda a, b: a @ b, T((2, 3, 4)), T((2, 4, 3))),
        C("int64_batched_broadcast", torch.matmul, T((2, 1, 3, 4), i64), T((5, 4, 2), i64)),
    ],
    tolerances=MATMUL_TOL,
)


# ---- normalization --------------------------------------------------------------------

CASES.add(
    "layer_norm",
    [
        C("affine", lambda x, w, b: F.layer_norm(x, (4,), w, b), T((2, 3, 4)), T((4,)), T((4,))),
        C("no_affine", lambda x: F.layer_norm(x, (4,)), T((3, 4))),
        C("two_axes", lambda x, w: F.layer_norm(x, (3, 4), w, eps=1e-3), T((2, 3, 4)), T((3, 4))),
        M("module", lambda: torch.nn.LayerNorm(8), T((2, 3, 8))),
        M("module_float16", lambda: torch.nn.LayerNorm(8).half(), T((3, 8), f16)),
        M("module_dynamic", lambda: torch.nn.LayerNorm(8), T((2, 4, 8)), dynamic={0: {1: SEQ}}),
    ],
    tolerances=LOOSE,
)

CASES.add(
    "native_layer_norm",
    [
        C(
            "affine",
            lambda x, w, b: torch.native_layer_norm(x, [4], w, b, 1e-5),
            T((2, 3, 4)),
            T((4,)),
            T((4,)),
        ),
        C("no_affine", lambda x: torch.native_layer_norm(x, [4], None, None, 1e-5), T((3, 4))),
        C("two_axes", lambda x: torch.native_layer_norm(x, [3, 4], None, None, 1e-3), T((2, 3, 4))),
        C(
            "output_only",
            lambda x, w: torch.native_layer_norm(x, [4], w, None, 1e-5)[0] * 2,
            T((3, 4)),
            T((4,)),
        ),
    ],
    tolerances=LOOSE,
)

CASES.add(
    "rms_norm",
    [
        C("weight", lambda x, w: F.rms_norm(x, (4,), w, eps=1e-6), T((2, 3, 4)), T((4,))),
        C("no_weight", lambda x: F.rms_norm(x, (4,)), T((3, 4))),
        C("default_eps", lambda x, w: F.rms_norm(x, (8,), w), T((3, 8)), T((8,))),
        M("module", lambda: torch.nn.RMSNorm(8, eps=1e-5), T((2, 3, 8))),
        M("module_float16", lambda: torch.nn.RMSNorm(8).half(), T((3, 8), f16)),
        M("module_dynamic", lambda: torch.nn.RMSNorm(8), T((2, 4, 8)), dynamic={0: {1: SEQ}}),
    ],
    tolerances=LOOSE,
)


# ---- embedding --------------------------------------------------------------------------

CASES.add(
    "embedding",
    [
        C("functional", lambda idx, w: F.embedding(idx, w), ints((5,), 0, 10), T((10, 4))),
        M("module_2d", lambda: torch.nn.Embedding(16, 8), ints((2, 3), 0, 16)),
        M("int32_indices", lambda: torch.nn.Embedding(16, 8), ints((2, 3), 0, 16, i32)),
        M("float16", lambda: torch.nn.Embedding(16, 8).half(), ints((4,), 0, 16)),
        M(
            "dynamic_seq",
            lambda: torch.nn.Embedding(16, 8),
            ints((1, 6), 0, 16),
            dynamic={0: {1: SEQ}},
        ),
    ],
)


# ---- shape and layout ---------------------------------------------------------------------

CASES.add(
    "view",
    [
        C("flatten", lambda x: x.view(-1), T((2, 3, 4))),
        C("split_axis", lambda x: x.view(2, 2, 3), T((4, 3))),
        C("to_zero_dim", lambda x: x.view(()), T((1,))),
        C("from_zero_dim", lambda x: x.view(1, 1), T(())),
        C("int32", lambda x: x.view(4, 3), T((3, 4), i32)),
        C("dynamic_minus_one", lambda x: x.view(-1, 4), T((3, 2, 4)), dynamic={0: {0: BATCH}}),
        C("dynamic_size", lambda x: x.view(x.shape[0], 2, 2), T((3, 4)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "reshape",
    [
        C("merge", lambda x: x.reshape(6, 4), T((2, 3, 4))),
        C("minus_one", lambda x: x.reshape(4, -1), T((2, 3, 4))),
        C("after_permute", lambda x: x.permute(1, 0).reshape(-1), T((3, 4))),
        C("bool", lambda x: x.reshape(2, 6), T((3, 4), boolean)),
        C("dynamic_minus_one", lambda x: x.reshape(-1, 8), T((4, 2, 4)), dynamic={0: {0: BATCH}}),
        C(
            "dynamic_merge",
            lambda x: x.reshape(x.shape[0] * x.shape[1], 4),
            T((2, 3, 4)),
            dynamic={0: {0: BATCH, 1: SEQ}},
        ),
    ],
)

CASES.add(
    "permute",
    [
        C("3d", lambda x: x.permute(2, 0, 1), T((2, 3, 4))),
        C("negative_dims", lambda x: x.permute(-1, -3, -2), T((2, 3, 4))),
        C("4d_int64", lambda x: x.permute(0, 2, 1, 3), T((2, 3, 4, 2), i64)),
        C("dynamic", lambda x: x.permute(1, 0), T((3, 4)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "transpose",
    [
        C("2d", lambda x: x.transpose(0, 1), T((3, 4))),
        C("negative_dims", lambda x: x.transpose(-1, -2), T((2, 3, 4))),
        C("t", lambda x: x.t(), T((3, 4))),
        C("float16", lambda x: x.transpose(0, 2), T((2, 3, 4), f16)),
        C("dynamic", lambda x: x.transpose(1, 2), T((2, 3, 4)), dynamic={0: {1: SEQ}}),
    ],
)

CASES.add(
    "unsqueeze",
    [
        C("front", lambda x: x.unsqueeze(0), T((3, 4))),
        C("negative", lambda x: x.unsqueeze(-1), T((3, 4))),
        C("middle", lambda x: x.unsqueeze(1), T((3, 4), i32)),
        C("zero_dim", lambda x: x.unsqueeze(0), T(())),
        C("dynamic", lambda x: x.unsqueeze(1), T((3, 4)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "squeeze",
    [
        C("all", lambda x: x.squeeze(), T((1, 3, 1, 4))),
        C("dim", lambda x: x.squeeze(2), T((3, 4, 1))),
        C("negative_dim", lambda x: x.squeeze(-3), T((1, 3, 4))),
        C("dim_not_one", lambda x: x.squeeze(1), T((3, 4))),
        C("dims", lambda x: x.squeeze((0, -1)), T((1, 3, 1))),
        C("dynamic", lambda x: x.squeeze(1), T((3, 1, 4)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "expand",
    [
        C("leading", lambda x: x.expand(2, 3, 4), T((3, 4))),
        C("minus_one", lambda x: x.expand(-1, 4), T((3, 1))),
        C("size_one_axes", lambda x: x.expand(2, 3, 4), T((2, 1, 4), i32)),
        C("zero_dim", lambda x: x.expand(3, 2), T(())),
        C("dynamic_minus_one", lambda x: x.expand(-1, 5), T((3, 1)), dynamic={0: {0: BATCH}}),
        C(
            "dynamic_like",
            lambda x, y: x.expand(y.shape[0], 4),
            T((1, 4)),
            T((3, 2)),
            dynamic={1: {0: BATCH}},
        ),
    ],
)

CASES.add(
    "slice",
    [
        C("start_stop", lambda x: x[1:3], T((4, 3))),
        C("step", lambda x: x[:, ::2], T((3, 5))),
        C("negative_start", lambda x: x[..., -2:], T((2, 3, 4))),
        C("negative_stop", lambda x: x[:, 1:-1], T((3, 5), i32)),
        C("past_the_end", lambda x: x[2:100], T((4, 3))),
        C("dynamic_tail", lambda x: x[1:], T((4, 3)), dynamic={0: {0: LONG}}),
        C("dynamic_bound", lambda x: x[:, : x.shape[1] - 1], T((2, 5)), dynamic={0: {1: LONG}}),
    ],
)

CASES.add(
    "select",
    [
        C("first_axis", lambda x: x[1], T((3, 4))),
        C("negative_index", lambda x: x[:, -1], T((3, 4))),
        C("negative_dim", lambda x: x.select(-1, 2), T((2, 3, 4), i32)),
        C("to_zero_dim", lambda x: x[2], T((4,))),
        C("dynamic", lambda x: x[:, 0], T((3, 4)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "cat",
    [
        C("dim0", lambda x, y: torch.cat([x, y]), T((2, 4)), T((3, 4))),
        C(
            "negative_dim",
            lambda x, y, z: torch.cat([x, y, z], -1),
            T((2, 3)),
            T((2, 1)),
            T((2, 2)),
        ),
        C("int32", lambda x, y: torch.cat([x, y], 1), T((2, 3), i32), T((2, 2), i32)),
        C("same_input_twice", lambda x: torch.cat([x, x], 0), T((2, 3), f16)),
        C(
            "dynamic",
            lambda x, y: torch.cat([x, y], 1),
            T((2, 3)),
            T((2, 4)),
            dynamic={0: {1: SEQ}},
        ),
    ],
)

CASES.add(
    "stack",
    [
        C("dim0", lambda x, y: torch.stack([x, y]), T((3, 4)), T((3, 4))),
        C("last_dim", lambda x, y: torch.stack([x, y], -1), T((3, 4)), T((3, 4))),
        C(
            "three_int32",
            lambda x, y, z: torch.stack([x, y, z], 1),
            T((2, 3), i32),
            T((2, 3), i32),
            T((2, 3), i32),
        ),
        C("zero_dim", lambda x, y: torch.stack([x, y]), T(()), T(())),
    ],
)

CASES.add(
    "split",
    [
        C("even", lambda x: torch.split(x, 2), T((4, 3))),
        C("uneven", lambda x: torch.split(x, 2, dim=1), T((3, 5))),
        C("negative_dim", lambda x: x.split(3, -1), T((2, 3, 6), i32)),
        C("one_piece_used", lambda x: torch.split(x, 2)[1] * 2, T((6, 3))),
    ],
)

CASES.add(
    "split_with_sizes",
    [
        C("sizes", lambda x: torch.split(x, [1, 3], 0), T((4, 3))),
        C("negative_dim", lambda x: x.split_with_sizes([2, 1, 2], -1), T((3, 5))),
        C("float16", lambda x: torch.split(x, [3, 1], 1), T((2, 4), f16)),
        C("dynamic_batch", lambda x: torch.split(x, [2, 2], 1), T((3, 4)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "repeat",
    [
        C("2d", lambda x: x.repeat(2, 3), T((2, 3))),
        C("more_reps_than_dims", lambda x: x.repeat(2, 1, 2), T((3, 4))),
        C("ones", lambda x: x.repeat(1, 1), T((2, 3), i32)),
        C("1d", lambda x: x.repeat(3), T((4,), boolean)),
    ],
)

CASES.add(
    "flip",
    [
        C("one_axis", lambda x: torch.flip(x, [0]), T((3, 4))),
        C("two_axes", lambda x: torch.flip(x, [0, 2]), T((2, 3, 4))),
        C("negative", lambda x: x.flip(-1), T((3, 4), i32)),
        C("dynamic", lambda x: x.flip(0), T((3, 4)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "as_strided",
    [
        C(
            "overlapping_windows",
            lambda x: torch.as_strided(x.exp(), (3, 3), (1, 2)) * 3,
            T((3, 4)),
        ),
        C("offset", lambda x: torch.as_strided(x + 1, (2, 2, 2), (4, 1, 3), 2), T((2, 6), i32)),
        # adaptive_avg_pool1d decomposes into a mean and this re-striding of size-1 axes
        C(
            "restride_of_unit_axes",
            lambda x: torch.as_strided(x.mean((-1, -2), keepdim=True), (2, 6, 1, 1), (6, 1, 6, 6)),
            T((2, 6, 3, 4)),
        ),
        C("broadcast_stride_0", lambda x: torch.as_strided(x.sin(), (3, 4), (1, 0)), T((5,), f16)),
    ],
)

CASES.add(
    "constant_pad_nd",
    [
        C("last_axis", lambda x: F.pad(x, (1, 2)), T((3, 4))),
        C("two_axes_value", lambda x: F.pad(x, (1, 0, 2, 1), value=-1.5), T((2, 3, 4))),
        C("int32", lambda x: F.pad(x, (0, 3), value=7), T((3, 4), i32)),
        C("float16", lambda x: F.pad(x, (2, 2)), T((2, 3), f16)),
        C("dynamic", lambda x: F.pad(x, (1, 1)), T((3, 4)), dynamic={0: {0: BATCH}}),
        C("negative_crops", lambda x: F.pad(x, (-1, 2, 1, -2)), T((4, 5))),
    ],
)

for _name, _op in (("tril", torch.tril), ("triu", torch.triu)):
    CASES.add(
        _name,
        [
            C("default", _op, T((4, 4))),
            C("positive_k", lambda x, o=_op: o(x, 1), T((3, 5))),
            C("negative_k", lambda x, o=_op: o(x, diagonal=-1), T((2, 4, 3))),
            C("int32", _op, T((4, 4), i32)),
            C("bool", _op, T((3, 3), boolean)),
        ],
    )

CASES.add(
    "clone",
    [
        C("float32", torch.clone, T((3, 4))),
        C("int8", lambda x: x.clone() + 1, T((3, 4), i8, -5, 5)),
        C("zero_dim", torch.clone, T(())),
        C("input_output", lambda x: (x.clone(), x * 2), T((3,))),
    ],
)

CASES.add(
    "_to_copy",
    [
        C("float32_to_float16", lambda x: x.to(torch.float16), T((3, 4))),
        C("float32_to_int32", lambda x: x.to(torch.int32), T((3, 4), f32, -5, 5)),
        C("int64_to_float32", lambda x: x.float(), T((3, 4), i64)),
        C("float_to_bool", lambda x: x.bool(), T((3, 4), i32, -1, 2)),
        C("bool_to_float", lambda x: x.to(torch.float32), T((3, 4), boolean)),
        C("bfloat16_to_float32", lambda x: x.float(), T((3, 4), bf16)),
        C("uint8_to_int32", lambda x: x.int(), T((3, 4), u8, 0, 255)),
        C("int32_to_int8", lambda x: x.to(torch.int8), T((3, 4), i32, -100, 100)),
        C("dynamic", lambda x: x.half(), T((3, 4)), dynamic={0: {0: BATCH}}),
    ],
)


# ---- indexing ---------------------------------------------------------------------------

CASES.add(
    "index_select",
    [
        C("dim0", lambda x, i: torch.index_select(x, 0, i), T((5, 3)), ints((4,), 0, 5)),
        C("last_dim", lambda x, i: torch.index_select(x, -1, i), T((2, 3, 4)), ints((3,), 0, 4)),
        C("int32_index", lambda x, i: x.index_select(1, i), T((3, 4), i32), ints((5,), 0, 4, i32)),
        C("zero_dim_index", lambda x, i: x.index_select(0, i), T((5, 3)), ints((), 0, 5)),
    ],
)

CASES.add(
    "index",
    [
        C("first_axis", lambda x, i: x[i], T((5, 3)), ints((4,), 0, 5)),
        C("2d_index", lambda x, i: x[i], T((5, 3)), ints((2, 3), 0, 5)),
        C(
            "two_indices",
            lambda x, i, j: x[i, j],
            T((5, 4, 2)),
            ints((3,), 0, 5),
            ints((2, 1), 0, 4),
        ),
        C("second_axis", lambda x, i: x[:, i], T((3, 5)), ints((4,), 0, 5)),
        C("int32_index", lambda x, i: x[i], T((4, 3), i32), ints((6,), 0, 4, i32)),
        C("negative_indices", lambda x, i: x[i], T((5, 3)), ints((4,), -5, 5)),
        C("negative_indices_second_axis", lambda x, i: x[:, i], T((3, 5)), ints((4,), -5, 0)),
    ],
)

CASES.add(
    "gather",
    [
        C("dim1", lambda x, i: torch.gather(x, 1, i), T((3, 4)), ints((3, 2), 0, 4)),
        C("dim0", lambda x, i: torch.gather(x, 0, i), T((4, 3)), ints((2, 3), 0, 4)),
        C("smaller_index", lambda x, i: torch.gather(x, -1, i), T((3, 5)), ints((2, 3), 0, 5)),
        C("3d_int32", lambda x, i: x.gather(1, i), T((2, 4, 3), i32), ints((2, 2, 3), 0, 4)),
    ],
)

CASES.add(
    "scatter_add",
    [
        C("dim0", lambda x, i, s: x.scatter_add(0, i, s), T((4, 3)), ints((2, 3), 0, 4), T((2, 3))),
        C(
            "dim1",
            lambda x, i, s: torch.scatter_add(x, 1, i, s),
            T((3, 5)),
            ints((3, 4), 0, 5),
            T((3, 4)),
        ),
        C(
            "larger_src",
            lambda x, i, s: x.scatter_add(-1, i, s),
            T((3, 5)),
            ints((2, 2), 0, 5),
            T((3, 4)),
        ),
        C(
            "int32",
            lambda x, i, s: x.scatter_add(0, i, s),
            T((4, 3), i32),
            ints((3, 3), 0, 4),
            T((3, 3), i32),
        ),
        C(
            "smaller_index_3d",
            lambda x, i, s: x.scatter_add(1, i, s),
            T((3, 5, 4)),
            ints((2, 3, 2), 0, 5),
            T((3, 4, 3)),
        ),
    ],
)

CASES.add(
    "index_put",
    [
        C("rows", lambda x, v: x.index_put((torch.tensor([2, 0]),), v), T((4, 3)), T((2, 3))),
        C(
            "after_full_slice",
            # No index twice (-4 is 1): with duplicates, which write wins is
            # undefined (PyTorch's docs; MLX's CUDA scatter picks another one).
            lambda x, v: torch.ops.aten.index_put(x, [None, torch.tensor([3, -4, 0])], v),
            T((2, 5, 3)),
            T((2, 3, 3)),
        ),
        C(
            "broadcast_value",
            lambda x, v: torch.ops.aten.index_put(x, [torch.tensor([1])], v),
            T((3, 4)),
            T((4,)),
        ),
        C(
            "int32",
            lambda x, v: x.index_put((torch.tensor([0, 2]),), v),
            T((3, 2), i32),
            T((2, 2), i32),
        ),
        C(
            "index_copy",
            lambda x, v: x.index_copy(1, torch.tensor([4, 1]), v),
            T((2, 6)),
            T((2, 2)),
        ),
    ],
)


# ---- creation -----------------------------------------------------------------------------

CASES.add(
    "arange",
    [
        C("end", lambda x: x + torch.arange(4), T((3, 4))),
        C("start_end_step", lambda x: x + torch.arange(1, 13, 3), T((2, 4), i64)),
        C("float_step", lambda x: x + torch.arange(0.0, 2.0, 0.5), T((3, 4))),
        C("dtype", lambda x: x * torch.arange(5, dtype=torch.float16), T((5,), f16)),
        C("negative_step", lambda x: x + torch.arange(4, 0, -1), T((2, 4), i64)),
        C("fractional_count", lambda x: x + torch.arange(0.0, 1.0, 0.3), T((2, 4))),
        C(
            "dynamic_end",
            lambda x: x + torch.arange(x.shape[0]).unsqueeze(1),
            T((3, 2)),
            dynamic={0: {0: BATCH}},
        ),
    ],
)

CASES.add(
    "full",
    [
        C("float", lambda x: x + torch.full((3, 4), 2.5), T((3, 4))),
        C("int", lambda x: x * torch.full((4,), 3, dtype=torch.int32), T((3, 4), i32)),
        C("bool", lambda x: torch.logical_and(x, torch.full((3, 4), True)), T((3, 4), boolean)),
        C("zero_dim", lambda x: x - torch.full((), 1.0), T((3,))),
        C("int64_beyond_float32", lambda x: x + torch.full((3,), 2**40 + 1), T((3,), i64)),
        C(
            "dynamic",
            lambda x: x + torch.full((x.shape[0], 1), 2.0),
            T((3, 4)),
            dynamic={0: {0: BATCH}},
        ),
    ],
)

for _name, _op in (("zeros", torch.zeros), ("ones", torch.ones)):
    CASES.add(
        _name,
        [
            C("float", lambda x, o=_op: x + o(3, 4), T((3, 4))),
            C("int64", lambda x, o=_op: x + o(4, dtype=torch.int64), T((3, 4), i64)),
            C("float16", lambda x, o=_op: x * o((2, 3), dtype=torch.float16), T((2, 3), f16)),
            C(
                "dynamic",
                lambda x, o=_op: torch.cat([x, o(x.shape[0], 2, dtype=x.dtype)], 1),
                T((3, 4)),
                dynamic={0: {0: BATCH}},
            ),
        ],
    )

for _name, _op in (
    ("full_like", lambda x, **kw: torch.full_like(x, 1.5, **kw)),
    ("zeros_like", torch.zeros_like),
    ("ones_like", torch.ones_like),
):
    CASES.add(
        _name,
        [
            C("float", lambda x, o=_op: x + o(x), T((3, 4))),
            C("int32", lambda x, o=_op: o(x), T((3, 4), i32)),
            C("dtype", lambda x, o=_op: o(x, dtype=torch.float16), T((3, 4))),
            C("dynamic", lambda x, o=_op: x * o(x), T((3, 4)), dynamic={0: {0: BATCH}}),
        ],
    )


# ---- convolution -----------------------------------------------------------------------------

CONV_TOL = {f32: (1e-3, 1e-3), f16: (3e-2, 3e-2)}

CASES.add(
    "conv1d",
    [
        C("bias", F.conv1d, T((2, 3, 8)), T((4, 3, 3)), T((4,))),
        C(
            "stride_padding",
            lambda x, w: F.conv1d(x, w, stride=2, padding=1),
            T((1, 2, 9)),
            T((3, 2, 3)),
        ),
        C(
            "dilation_groups",
            lambda x, w: F.conv1d(x, w, dilation=2, groups=2),
            T((1, 4, 10)),
            T((6, 2, 3)),
        ),
        M("module", lambda: torch.nn.Conv1d(3, 5, 3, padding=1), T((2, 3, 7))),
        M("module_float16", lambda: torch.nn.Conv1d(2, 4, 3).half(), T((1, 2, 6), f16)),
    ],
    tolerances=CONV_TOL,
)

CASES.add(
    "conv2d",
    [
        C("bias", F.conv2d, T((1, 3, 6, 6)), T((4, 3, 3, 3)), T((4,))),
        C(
            "stride_padding",
            lambda x, w: F.conv2d(x, w, stride=(2, 1), padding=(1, 2)),
            T((2, 2, 7, 6)),
            T((3, 2, 3, 3)),
        ),
        C(
            "dilation_groups",
            lambda x, w: F.conv2d(x, w, dilation=2, groups=2),
            T((1, 4, 8, 8)),
            T((4, 2, 3, 3)),
        ),
        M("module", lambda: torch.nn.Conv2d(3, 4, 3, padding=1, bias=False), T((2, 3, 5, 5))),
        M("module_float16", lambda: torch.nn.Conv2d(2, 3, 2).half(), T((1, 2, 5, 5), f16)),
        M("depthwise", lambda: torch.nn.Conv2d(4, 4, 3, groups=4), T((1, 4, 6, 6))),
    ],
    tolerances=CONV_TOL,
)


def _aten_conv(x, w, b, stride, padding, dilation, groups=1):
    return torch.ops.aten.convolution(
        x, w, b, stride, padding, dilation, False, [0] * len(stride), groups
    )


CASES.add(
    "convolution",
    [
        C(
            "2d",
            lambda x, w, b: _aten_conv(x, w, b, [1, 1], [1, 1], [1, 1]),
            T((1, 3, 5, 5)),
            T((2, 3, 3, 3)),
            T((2,)),
        ),
        C(
            "1d_no_bias",
            lambda x, w: _aten_conv(x, w, None, [2], [0], [1]),
            T((2, 3, 9)),
            T((4, 3, 3)),
        ),
        C(
            "2d_groups_dilation",
            lambda x, w: _aten_conv(x, w, None, [1, 2], [2, 0], [2, 1], groups=2),
            T((1, 4, 7, 7)),
            T((2, 2, 2, 3)),
        ),
    ],
    tolerances=CONV_TOL,
)


# ---- attention --------------------------------------------------------------------------------

SDPA = F.scaled_dot_product_attention
ATTN_TOL = {f32: (1e-3, 1e-3), f16: (3e-2, 3e-2), bf16: (1e-1, 1e-1)}
Q, KV = T((1, 2, 4, 8)), T((1, 2, 6, 8))

CASES.add(
    "scaled_dot_product_attention",
    [
        C("plain", SDPA, Q, KV, KV),
        C(
            "causal",
            lambda q, k, v: SDPA(q, k, v, is_causal=True),
            T((2, 2, 5, 8)),
            T((2, 2, 5, 8)),
            T((2, 2, 5, 8)),
        ),
        C(
            "bool_mask",
            lambda q, k, v, m: SDPA(q, k, v, attn_mask=m),
            Q,
            KV,
            KV,
            T((4, 6), boolean),
        ),
        C(
            "additive_mask",
            lambda q, k, v, m: SDPA(q, k, v, attn_mask=m),
            Q,
            KV,
            KV,
            T((1, 1, 4, 6)),
        ),
        C(
            "gqa",
            lambda q, k, v: SDPA(q, k, v, enable_gqa=True),
            T((1, 4, 3, 8)),
            T((1, 2, 3, 8)),
            T((1, 2, 3, 8)),
        ),
        C(
            "gqa_causal",
            lambda q, k, v: SDPA(q, k, v, is_causal=True, enable_gqa=True),
            T((2, 6, 4, 8)),
            T((2, 2, 4, 8)),
            T((2, 2, 4, 8)),
        ),
        C("scale", lambda q, k, v: SDPA(q, k, v, scale=0.25), Q, KV, KV),
        # is_causal with fewer queries than keys: PyTorch aligns the mask top-left.
        C("causal_fewer_queries", lambda q, k, v: SDPA(q, k, v, is_causal=True), Q, KV, KV),
        C("float16", SDPA, T((1, 2, 4, 8), f16), T((1, 2, 6, 8), f16), T((1, 2, 6, 8), f16)),
        C(
            "dynamic_seq_causal",
            lambda q, k, v: SDPA(q, k, v, is_causal=True),
            T((1, 2, 4, 8)),
            T((1, 2, 4, 8)),
            T((1, 2, 4, 8)),
            dynamic={0: {2: SEQ}, 1: {2: SEQ}, 2: {2: SEQ}},
        ),
        # From 4096 scores on, the CPU variants compose attention around their own
        # softmax kernel (runtime_cpp/src/ops/linalg.cpp, cpu_attention).
        C(
            "large_gqa_causal",
            lambda q, k, v: SDPA(q, k, v, is_causal=True, enable_gqa=True),
            T((1, 4, 48, 16)),
            T((1, 2, 48, 16)),
            T((1, 2, 48, 16)),
        ),
        C(
            "large_bool_mask",
            lambda q, k, v, m: SDPA(q, k, v, attn_mask=m),
            T((2, 2, 40, 16)),
            T((2, 2, 64, 16)),
            T((2, 2, 64, 16)),
            T((40, 64), boolean),
        ),
        C(
            "large_additive_mask",
            lambda q, k, v, m: SDPA(q, k, v, attn_mask=m),
            T((2, 2, 40, 16)),
            T((2, 2, 64, 16)),
            T((2, 2, 64, 16)),
            T((1, 1, 40, 64)),
        ),
        C(
            "large_bfloat16",
            SDPA,
            T((1, 4, 48, 16), bf16),
            T((1, 4, 48, 16), bf16),
            T((1, 4, 48, 16), bf16),
        ),
        # queries in two blocks (16 MiB of scores each), the causal mask cut along
        C(
            "large_in_blocks",
            lambda q, k, v: SDPA(q, k, v, is_causal=True),
            T((1, 16, 64, 8)),
            T((1, 16, 8192, 8)),
            T((1, 16, 8192, 8)),
        ),
    ],
    tolerances=ATTN_TOL,
)


# ---- runtime sizes ------------------------------------------------------------------------------

CASES.add(
    "sym_size",
    [
        C(
            "view_by_size",
            lambda x: x.view(x.shape[0], -1) * 2,
            T((3, 2, 2)),
            dynamic={0: {0: BATCH}},
        ),
        C(
            "arange_of_size",
            lambda x: x + torch.arange(x.shape[1]),
            T((2, 5)),
            dynamic={0: {1: SEQ}},
        ),
        C("size_arithmetic", lambda x: x[: x.shape[0] - 2], T((6, 3)), dynamic={0: {0: LONG}}),
        C(
            "size_floordiv",
            lambda x: x.sum(0) + torch.zeros(x.shape[0] // 2, 1),
            T((6, 3)),
            dynamic={0: {0: LONG}},
        ),
        C(
            "full_of_other_size",
            lambda x, y: x.sum() + torch.zeros(y.shape[0], 2),
            T((3,)),
            T((4, 2)),
            dynamic={1: {0: BATCH}},
        ),
        C(
            "two_dynamic_dims",
            lambda x: x.reshape(x.shape[0] * x.shape[1]),
            T((3, 4)),
            dynamic={0: {0: BATCH, 1: SEQ}},
        ),
    ],
)


# ---- partitioning -----------------------------------------------------------------------------------


def _around_mask_index(x, y):
    """add (MLX) -> x[mask] (portable: its length depends on the data, which a
    delegate's output shape cannot) -> sub (MLX): two delegates."""
    return (x + 1)[y > 0.5] - 1


def _around_grid_sample(x, grid):
    """grid_sampler_2d: MLX has no kernel for it, and no handler composes one."""
    return F.grid_sample(x.exp(), grid.tanh(), align_corners=False) * 2


# Sizes only known at run time bring their range checks (sym_size, ge, le, _assert_scalar).
RUNTIME_SIZE_CHECKS = ("sym_size", "_assert_scalar", "ge", "le")

CASES.add(
    "two_delegates",
    [
        C(
            "mask_index_between",
            _around_mask_index,
            T((3, 4)),
            T((3, 4), f32, 0, 1),
            delegates=2,
            fallback=("index",) + RUNTIME_SIZE_CHECKS,
        ),
        C(
            "grid_sample_between",
            _around_grid_sample,
            T((1, 2, 4, 4)),
            T((1, 3, 3, 2)),
            delegates=2,
            fallback=("grid_sampler",),
        ),
    ],
)
