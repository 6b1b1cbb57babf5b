"""Op tests for the math ops of issue 7: unary math, bitwise, remainder and
fmod, logaddexp, logsumexp, cumprod, sorting, roll, slice_scatter, narrow,
repeat_interleave and the hard/soft activations."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from .op_spec import (
    BATCH,
    C,
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
from .op_cases import Unary, _unary_configs

CASES = Cases()  # this module's op tests

INF, NAN = float("inf"), float("nan")


# ---- unary math -------------------------------------------------------------------

MATH_UNARY = {
    "tan": Unary(torch.tan, -1.2, 1.2),
    "sinh": Unary(torch.sinh),
    "cosh": Unary(torch.cosh),
    "asin": Unary(torch.asin, -0.95, 0.95),  # integers: outside [-1, 1] is nan, as in PyTorch
    "acos": Unary(torch.acos, -0.95, 0.95),
    "atan": Unary(torch.atan, -5.0, 5.0),
    "asinh": Unary(torch.asinh, -5.0, 5.0),
    "acosh": Unary(torch.acosh, 1.0, 5.0),
    "atanh": Unary(torch.atanh, -0.95, 0.95),
    "log2": Unary(torch.log2, 0.1, 5.0),
    "log10": Unary(torch.log10, 0.1, 5.0),
    "log1p": Unary(torch.log1p, -0.9, 5.0),
    "expm1": Unary(torch.expm1),
    "sign": Unary(torch.sign),
    "trunc": Unary(torch.trunc, -5.0, 5.0),
    "fix": Unary(torch.fix, -5.0, 5.0),  # decomposes into trunc
    "square": Unary(torch.square),
    "sgn": Unary(torch.sgn),  # declared in the schema: SignNode's `aten` lists sgn.default
}

for _name, _spec in MATH_UNARY.items():
    _configs = _unary_configs(_name, _spec)
    if _name in ("sign", "square"):
        _configs.append(C("bool", _spec.fn, T((3, 4), boolean)))  # square: int64
    if _name == "sign":
        _configs.append(C("zeros_and_infs", _spec.fn, T(values=(0.0, -0.0, INF, -INF, 2.5, -0.5))))
    CASES.add(_name, _configs, tolerances=LOOSE)

# Declared in the schema (mlx: and aten: on LogicalXorNode), nothing hand-written.
CASES.add(
    "logical_xor",
    [
        C("bool", torch.logical_xor, T((3, 4), boolean), T((3, 4), boolean)),
        C(
            "float_nonzero",
            torch.logical_xor,
            T(values=(0.0, 1.5, -2.0, 0.0)),
            T(values=(0.0, 0.0, 3.0, -1.0)),
        ),
        C("int_broadcast", torch.logical_xor, T((2, 3, 4), i32, -2, 2), T((4,), i64, -2, 2)),
        C("mixed_dtypes", torch.logical_xor, T((3, 4), f16), T((3, 4), boolean)),
        C(
            "dynamic_batch",
            torch.logical_xor,
            T((4, 3)),
            T((4, 3), boolean),
            dynamic={0: {0: BATCH}, 1: {0: BATCH}},
        ),
    ],
)

CASES.add(
    "bitwise_not",
    [
        C("int32", torch.bitwise_not, T((3, 4), i32, -100, 100)),
        C("bool", lambda x: ~x, T((3, 4), boolean)),
        C("uint8", torch.bitwise_not, T((5,), u8, 0, 255)),
        C("int8_zero_dim", torch.bitwise_not, T((), i8, -100, 100)),
        C("dynamic_batch", torch.bitwise_not, T((4, 3), i64, -100, 100), dynamic={0: {0: BATCH}}),
    ],
)

_SPECIALS = T(values=((1.0, NAN, -INF), (INF, 0.0, -2.5)))

for _name, _op in (
    ("isnan", torch.isnan),
    ("isinf", torch.isinf),
    ("isposinf", torch.isposinf),
    ("isneginf", torch.isneginf),
):
    CASES.add(
        _name,
        [
            C("float32", _op, _SPECIALS),
            C("float16", _op, T(values=(NAN, INF, -INF, 1.0, 65504.0), dtype=f16)),
            C("bfloat16", _op, T(values=(NAN, -INF, 3.0), dtype=bf16)),
            C("int32", _op, T((3, 4), i32)),
            C("dynamic_batch", lambda x, o=_op: o(x.log()), T((4, 3)), dynamic={0: {0: BATCH}}),
        ],
    )


# ---- binary math ------------------------------------------------------------------

CASES.add(
    "atan2",
    [
        C("same_shape", torch.atan2, T(), T()),
        C("broadcast", torch.atan2, T((2, 3, 4)), T((4,))),
        C(
            "quadrants_and_zeros",
            torch.atan2,
            T(values=(0.0, 1.0, -1.0, 0.0, -1.0, INF)),
            T(values=(0.0, -1.0, -1.0, -2.0, 0.0, 1.0)),
        ),
        C("int_to_float", torch.atan2, T((3, 4), i32), T((3, 4), i64)),
        C("float16", torch.atan2, T((3, 4), f16), T((3, 4), f16)),
        C(
            "dynamic_batch",
            torch.atan2,
            T((4, 3)),
            T((4, 3)),
            dynamic={0: {0: BATCH}, 1: {0: BATCH}},
        ),
    ],
    tolerances=LOOSE,
)

CASES.add(
    "logaddexp",
    [
        C("same_shape", torch.logaddexp, T(), T()),
        C("broadcast", torch.logaddexp, T((2, 3, 4)), T((3, 1))),
        C(
            "large_magnitudes",
            torch.logaddexp,
            T((3, 4), f32, -200, 200),
            T((3, 4), f32, -200, 200),
        ),
        C("float16", torch.logaddexp, T((3, 4), f16), T((3, 4), f16)),
        C("dynamic_batch", torch.logaddexp, T((4, 3)), T((3,)), dynamic={0: {0: BATCH}}),
    ],
    tolerances=LOOSE,
)

# Divisors are nonzero; both signs on both sides, so the sign rules show.
_NONZERO = dict(nonzero=True)

CASES.add(
    "remainder",
    [
        C(
            "int_negative_operands",
            torch.remainder,
            T((3, 4), i32, -20, 20),
            T((3, 4), i32, -6, 6, **_NONZERO),
        ),
        C(
            "int64_operator",
            lambda x, y: x % y,
            T((4, 5), i64, -50, 50),
            T((5,), i64, -7, 7, **_NONZERO),
        ),
        C("float", torch.remainder, T((3, 4), f32, -9, 9), T((3, 4), f32, -3, 3, **_NONZERO)),
        C("scalar_negative", lambda x: torch.remainder(x, -3), T((3, 4), i32, -20, 20)),
        C("float_scalar", lambda x: x % 2.5, T((3, 4), f32, -9, 9)),
        C("scalar_dividend", lambda x: 7 % x, T((3, 4), i64, -6, 6, **_NONZERO)),
        C("float16", torch.remainder, T((3, 4), f16, -9, 9), T((3, 4), f16, 0.5, 3)),
        C("dynamic_batch", lambda x: x % 4, T((4, 3), i32, -20, 20), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "fmod",
    [
        C(
            "int_negative_operands",
            torch.fmod,
            T((3, 4), i32, -20, 20),
            T((3, 4), i32, -6, 6, **_NONZERO),
        ),
        C("float", torch.fmod, T((3, 4), f32, -9, 9), T((4,), f32, -3, 3, **_NONZERO)),
        C("scalar_negative", lambda x: torch.fmod(x, -3), T((3, 4), i64, -20, 20)),
        C("float_scalar", lambda x: torch.fmod(x, 2.5), T((3, 4), f32, -9, 9)),
        C("uint8", torch.fmod, T((3, 4), u8, 0, 200), T((3, 4), u8, 1, 9)),
        C("dynamic_batch", lambda x: torch.fmod(x, 1.5), T((4, 3)), dynamic={0: {0: BATCH}}),
    ],
)

for _name, _op in (
    ("bitwise_and", torch.bitwise_and),
    ("bitwise_or", torch.bitwise_or),
    ("bitwise_xor", torch.bitwise_xor),
):
    CASES.add(
        _name,
        [
            C("int32", _op, T((3, 4), i32, -100, 100), T((3, 4), i32, -100, 100)),
            C("bool_broadcast", _op, T((2, 3, 4), boolean), T((4,), boolean)),
            C("int_scalar", lambda x, o=_op: o(x, 6), T((3, 4), i64, -20, 20)),
            C("bool_scalar", lambda x, o=_op: o(x, True), T((3, 4), boolean)),
            C("promote_uint8_int8", _op, T((3, 4), u8, 0, 255), T((3, 4), i8, -100, 100)),
            C("dynamic_batch", _op, T((4, 3), i32), T((3,), i32), dynamic={0: {0: BATCH}}),
        ],
    )


# ---- activations ------------------------------------------------------------------

CASES.add(
    "hardswish",
    [
        C("float32", F.hardswish, T((3, 4), f32, -5, 5)),
        C("float16", F.hardswish, T((2, 3, 4), f16, -5, 5)),
        C("zero_dim", F.hardswish, T((), f32, -5, 5)),
        M("module_dynamic", torch.nn.Hardswish, T((4, 3), f32, -5, 5), dynamic={0: {0: BATCH}}),
    ],
    tolerances=LOOSE,
)

CASES.add(
    "hardsigmoid",
    [
        C("float32", F.hardsigmoid, T((3, 4), f32, -5, 5)),
        C("bfloat16", F.hardsigmoid, T((2, 3, 4), bf16, -5, 5)),
        C("zero_dim", F.hardsigmoid, T((), f32, -5, 5)),
        M("module_dynamic", torch.nn.Hardsigmoid, T((4, 3), f32, -5, 5), dynamic={0: {0: BATCH}}),
    ],
    tolerances=LOOSE,
)

CASES.add(
    "mish",
    [
        C("float32", F.mish, T((3, 4), f32, -30, 30)),
        C("float16", F.mish, T((2, 3, 4), f16, -5, 5)),
        C("zero_dim", F.mish, T(())),
        M("module_dynamic", torch.nn.Mish, T((4, 3)), dynamic={0: {0: BATCH}}),
    ],
    tolerances=LOOSE,
)

CASES.add(
    "softplus",
    [
        C("default", F.softplus, T((3, 4), f32, -30, 30)),
        C(
            "beta_threshold",
            lambda x: F.softplus(x, beta=2.0, threshold=3.0),
            T((3, 4), f32, -5, 5),
        ),
        C("float16", F.softplus, T((2, 3, 4), f16, -5, 5)),
        M(
            "module_dynamic",
            lambda: torch.nn.Softplus(beta=0.5),
            T((4, 3)),
            dynamic={0: {0: BATCH}},
        ),
    ],
    tolerances=LOOSE,
)


# ---- reductions and scans ---------------------------------------------------------

for _name, _op in (("max", torch.max), ("min", torch.min)):
    CASES.add(
        _name,
        [
            C("all", _op, T((3, 4))),
            C("int32", _op, T((2, 3, 4), i32)),
            C("float16", _op, T((3, 4), f16)),
            C("bool", _op, T((3, 4), boolean)),
            C("zero_dim", _op, T(())),
            C("dynamic_batch", _op, T((4, 3)), dynamic={0: {0: BATCH}}),
        ],
    )

CASES.add(
    "logsumexp",
    [
        C("dim", lambda x: torch.logsumexp(x, 1), T((3, 4))),
        C("dims_keepdim", lambda x: torch.logsumexp(x, (0, 2), keepdim=True), T((2, 3, 4))),
        C("large_values", lambda x: torch.logsumexp(x, -1), T((3, 4), f32, 100, 200)),
        C("int_to_float", lambda x: torch.logsumexp(x, 0), T((3, 4), i32)),
        C("float16", lambda x: x.logsumexp(-1), T((2, 5), f16)),
        C("dynamic_seq", lambda x: torch.logsumexp(x, 1), T((2, 6)), dynamic={0: {1: SEQ}}),
    ],
    tolerances=LOOSE,
)

CASES.add(
    "cumprod",
    [
        C("dim0", lambda x: torch.cumprod(x, 0), T((3, 4), f32, 0.5, 1.5)),
        C("negative_dim", lambda x: torch.cumprod(x, -1), T((2, 3, 4))),
        C("int32_to_int64", lambda x: torch.cumprod(x, 1), T((3, 4), i32, -4, 4)),
        C("dtype_arg", lambda x: torch.cumprod(x, 1, dtype=torch.float32), T((3, 4), i32, -4, 4)),
        C("float16", lambda x: x.cumprod(0), T((4, 3), f16, 0.5, 1.5)),
        C(
            "dynamic_seq",
            lambda x: torch.cumprod(x, 1),
            T((2, 6), f32, 0.5, 1.5),
            dynamic={0: {1: SEQ}},
        ),
    ],
    tolerances=LOOSE,
)


# ---- sorting ----------------------------------------------------------------------
# torch.sort's default is not stable: those configurations use distinct values.

_TIES = T((3, 8), i32, 0, 3)

CASES.add(
    "sort",
    [
        C("last_dim", lambda x: tuple(torch.sort(x)), T((3, 5), distinct=True)),
        C(
            "descending_dim0",
            lambda x: tuple(torch.sort(x, 0, descending=True)),
            T((4, 3), distinct=True),
        ),
        C("stable_ties", lambda x: tuple(torch.sort(x, dim=1, stable=True)), _TIES),
        C(
            "stable_descending_ties",
            lambda x: tuple(torch.sort(x, dim=-1, descending=True, stable=True)),
            _TIES,
        ),
        C(
            "values_only_float16",
            lambda x: torch.sort(x, 1).values * 2,
            T((3, 5), f16, distinct=True),
        ),
        C(
            "dynamic_batch",
            lambda x: tuple(torch.sort(x, -1)),
            T((4, 5), distinct=True),
            dynamic={0: {0: BATCH}},
        ),
    ],
)

CASES.add(
    "argsort",
    [
        C("last_dim", torch.argsort, T((3, 5), distinct=True)),
        C(
            "descending_dim0",
            lambda x: torch.argsort(x, 0, descending=True),
            T((4, 3), i64, distinct=True),
        ),
        C("stable_ties", lambda x: torch.argsort(x, dim=1, stable=True), _TIES),
        C(
            "stable_descending_ties",
            lambda x: torch.argsort(x, dim=0, descending=True, stable=True),
            T((8, 3), i64, 0, 3),
        ),
        C("float16_descending", lambda x: x.argsort(-1, True), T((2, 3, 7), f16, distinct=True)),
        C(
            "dynamic_seq",
            lambda x: torch.argsort(x, 1),
            T((2, 6), distinct=True),
            dynamic={0: {1: SEQ}},
        ),
    ],
)

CASES.add(
    "topk",
    [
        C("largest", lambda x: tuple(torch.topk(x, 2)), T((3, 5), distinct=True)),
        C(
            "smallest_dim0",
            lambda x: tuple(torch.topk(x, 3, dim=0, largest=False)),
            T((4, 3), distinct=True),
        ),
        C(
            "middle_dim_int32",
            lambda x: tuple(torch.topk(x, 2, dim=1)),
            T((2, 4, 3), i32, distinct=True),
        ),
        C("values_only", lambda x: torch.topk(x, 1).values + 1, T((3, 5), f16, distinct=True)),
        C("indices_only", lambda x: torch.topk(x, 2, dim=-1)[1], T((3, 5), distinct=True)),
        C(
            "dynamic_batch",
            lambda x: tuple(torch.topk(x, 2)),
            T((4, 5), distinct=True),
            dynamic={0: {0: BATCH}},
        ),
    ],
)


# ---- shape ------------------------------------------------------------------------

CASES.add(
    "roll",
    [
        C("dim", lambda x: torch.roll(x, 1, 0), T((3, 4))),
        C("dims", lambda x: torch.roll(x, (2, -1), (1, 2)), T((2, 3, 4), i32)),
        C("negative_dim_large_shift", lambda x: x.roll(-7, -1), T((3, 4))),
        C("flattened", lambda x: torch.roll(x, 5), T((3, 4))),
        C("dynamic", lambda x: torch.roll(x, 2, 0), T((4, 3)), dynamic={0: {0: BATCH}}),
    ],
)

CASES.add(
    "narrow",
    [
        C("dim0", lambda x: x.narrow(0, 1, 2), T((4, 3))),
        C("negative_dim", lambda x: torch.narrow(x, -1, 2, 2), T((2, 3, 5), i32)),
        C("negative_start", lambda x: x.narrow(1, -3, 2), T((2, 5))),
        C("negative_start_to_end", lambda x: x.narrow(0, -2, 2), T((5, 3), f16)),
        C("dynamic", lambda x: x.narrow(1, 1, 2), T((4, 3)), dynamic={0: {0: BATCH}}),
    ],
)


def _assign_slice(x, y):
    x = x.clone()
    x[:, 1:3] = y
    return x


CASES.add(
    "slice_scatter",
    [
        C("dim0", lambda x, y: torch.slice_scatter(x, y, 0, 1, 3), T((4, 3)), T((2, 3))),
        C(
            "dim1_default_start",
            lambda x, y: torch.slice_scatter(x, y, dim=1, end=2),
            T((3, 5), i32),
            T((3, 2), i32),
        ),
        C(
            "negative_start",
            lambda x, y: torch.slice_scatter(x, y, -1, -2),
            T((2, 3, 5)),
            T((2, 3, 2)),
        ),
        C("slice_assignment", _assign_slice, T((3, 5)), T((3, 2))),
        C(
            "dynamic_batch",
            _assign_slice,
            T((4, 5)),
            T((4, 2)),
            dynamic={0: {0: BATCH}, 1: {0: BATCH}},
        ),
    ],
)


class _RepeatByBuffer(torch.nn.Module):
    """Counts in a tensor: lowered when constant and the output_size is given
    (without it export leaves the length unbounded)."""

    def __init__(self):
        super().__init__()
        self.register_buffer("counts", torch.tensor([1, 0, 3]))

    def forward(self, x):
        return torch.repeat_interleave(x, self.counts, dim=0, output_size=4) * 2


CASES.add(
    "repeat_interleave",
    [
        C("dim", lambda x: torch.repeat_interleave(x, 2, dim=1), T((3, 4))),
        C("flattened", lambda x: torch.repeat_interleave(x, 3), T((2, 3), i32)),
        C("negative_dim", lambda x: x.repeat_interleave(2, -3), T((2, 3, 4))),
        C("bool_dim0", lambda x: x.repeat_interleave(3, 0), T((2, 3), boolean)),
        C(
            "dynamic_batch",
            lambda x: torch.repeat_interleave(x, 2, dim=1),
            T((4, 3)),
            dynamic={0: {0: BATCH}},
        ),
        M("constant_counts", _RepeatByBuffer, T((3, 4))),
        C(
            "constant_counts_flattened",
            lambda x: x.repeat_interleave(torch.tensor([2, 1, 0, 3]), output_size=6),
            T((2, 2), i64),
        ),
    ],
)


def _checked_item(x, n):
    """x * n.item(), with checks on the value: export writes them as
    _assert_scalar nodes (run nowhere), their conditions comparisons."""
    k = n.item()
    torch._check(k >= 0)
    torch._check(k <= 4)
    return x * k


CASES.add("_assert_scalar", [C("checked_item", _checked_item, T((2, 3)), ints((), 0, 5))])
