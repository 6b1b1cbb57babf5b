"""The in-place variants (`relu_`, `add_.Tensor`, ...). A program handed to the
delegate is functional; the re-inplacing pass turns an op whose first operand
dies there into its in-place variant. Each configuration here is named after
the variant it must produce (tests/mlx_delegate/compiler/passes/test_reinplace.py
checks that it does) and runs end to end like any op case."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from .op_spec import C, T, Cases, f32, i32

CASES = Cases()  # this module's op tests

aten = torch.ops.aten


def fresh(x: torch.Tensor) -> torch.Tensor:
    """A temporary copy of `x`: the first operand must be computed by the
    graph (an input is never written in place)."""
    return x.clone()


def unary(fn, low: float = -3.0, high: float = 3.0, dtype=f32):
    return lambda label: C(label, lambda x: fn(fresh(x)), T((3, 4), dtype, low, high))


def binary(fn, low: float = -3.0, high: float = 3.0, dtype=f32, nonzero: bool = False):
    spec = T((3, 4), dtype, low, high, nonzero=nonzero)
    return lambda label: C(label, lambda x, y: fn(fresh(x), y), spec, spec)


IN_PLACE = {
    "abs_": unary(torch.abs),
    "acos_": unary(torch.acos, -0.9, 0.9),
    "acosh_": unary(torch.acosh, 1.1, 3.0),
    "asin_": unary(torch.asin, -0.9, 0.9),
    "asinh_": unary(torch.asinh),
    "atan_": unary(torch.atan),
    "atanh_": unary(torch.atanh, -0.9, 0.9),
    "bitwise_not_": unary(torch.bitwise_not, -9, 9, i32),
    "ceil_": unary(torch.ceil),
    "cos_": unary(torch.cos),
    "cosh_": unary(torch.cosh),
    "erf_": unary(torch.erf),
    "exp_": unary(torch.exp),
    "expm1_": unary(torch.expm1),
    "floor_": unary(torch.floor),
    "gelu_": unary(lambda x: F.gelu(x, approximate="tanh")),
    "hardsigmoid_": unary(F.hardsigmoid),
    "hardswish_": unary(F.hardswish),
    "hardtanh_": unary(lambda x: F.hardtanh(x, -0.5, 1.5)),
    "leaky_relu_": unary(lambda x: F.leaky_relu(x, 0.2)),
    "log_": unary(torch.log, 0.1, 5.0),
    "log10_": unary(torch.log10, 0.1, 5.0),
    "log1p_": unary(torch.log1p, -0.5, 5.0),
    "log2_": unary(torch.log2, 0.1, 5.0),
    "mish_": unary(F.mish),
    "neg_": unary(torch.neg),
    "reciprocal_": unary(torch.reciprocal, 0.5, 3.0),
    "relu_": unary(torch.relu),
    "round_": unary(torch.round),
    "rsqrt_": unary(torch.rsqrt, 0.1, 5.0),
    "sgn_": unary(torch.sgn),
    "sigmoid_": unary(torch.sigmoid),
    "sign_": unary(torch.sign),
    "silu_": unary(F.silu),
    "sin_": unary(torch.sin),
    "sinh_": unary(torch.sinh),
    "sqrt_": unary(torch.sqrt, 0.1, 5.0),
    "square_": unary(torch.square),
    "tan_": unary(torch.tan, -1.0, 1.0),
    "tanh_": unary(torch.tanh),
    "trunc_": unary(torch.trunc),
    "add_.Tensor": binary(lambda x, y: torch.add(x, y, alpha=2)),
    "add_.Scalar": unary(lambda x: aten.add.Scalar(x, 2.5)),
    "sub_.Tensor": binary(torch.sub),
    "sub_.Scalar": unary(lambda x: aten.sub.Scalar(x, 2.5)),
    "mul_.Tensor": binary(torch.mul),
    "mul_.Scalar": unary(lambda x: aten.mul.Scalar(x, 2.5)),
    "div_.Tensor": binary(torch.div, nonzero=True),
    "div_.Scalar": unary(lambda x: aten.div.Scalar(x, 2.5)),
    "div_.Tensor_mode": binary(lambda x, y: torch.div(x, y, rounding_mode="floor"), 0.5, 3.0),
    "div_.Scalar_mode": unary(lambda x: aten.div.Scalar_mode(x, 2.5, rounding_mode="trunc")),
    "atan2_": binary(torch.atan2),
    "bitwise_and_.Tensor": binary(torch.bitwise_and, -9, 9, i32),
    "bitwise_and_.Scalar": unary(lambda x: aten.bitwise_and.Scalar(x, 6), -9, 9, i32),
    "bitwise_or_.Tensor": binary(torch.bitwise_or, -9, 9, i32),
    "bitwise_or_.Scalar": unary(lambda x: aten.bitwise_or.Scalar(x, 6), -9, 9, i32),
    "bitwise_xor_.Tensor": binary(torch.bitwise_xor, -9, 9, i32),
    "bitwise_xor_.Scalar": unary(lambda x: aten.bitwise_xor.Scalar(x, 6), -9, 9, i32),
    "clamp_": unary(lambda x: torch.clamp(x, -1.0, 2.0)),
    "clamp_.Tensor": binary(lambda x, y: torch.clamp(x, min=y)),
    "fmod_.Tensor": binary(torch.fmod, 0.5, 3.0),
    "fmod_.Scalar": unary(lambda x: aten.fmod.Scalar(x, 1.5)),
    "remainder_.Tensor": binary(torch.remainder, 0.5, 3.0),
    "remainder_.Scalar": unary(lambda x: aten.remainder.Scalar(x, 1.5)),
    "pow_.Tensor": binary(torch.pow, 0.5, 2.0),
    "pow_.Scalar": unary(lambda x: torch.pow(x, 3), 0.5, 2.0),
}

CASES.add("in_place", [make(target) for target, make in IN_PLACE.items()])
