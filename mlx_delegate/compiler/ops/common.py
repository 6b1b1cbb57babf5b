"""Helpers every op handler module uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import torch
from torch.fx import Node
from torch.fx.experimental.symbolic_shapes import statically_known_true

from ..builder.registry import target_key


def arg(node: Node, name: str, default=None):
    """Argument `name` of an ATen node however it was passed (by position or by
    keyword), else the op schema's default for it, else `default` (also when
    the overload has no such argument: one handler serves several overloads,
    `add.Tensor` with `alpha` and `bitwise_and.Tensor` without)."""
    arguments = overload(node)._schema.arguments
    index = next((i for i, a in enumerate(arguments) if a.name == name), None)
    if index is None:
        return default
    if index < len(node.args) and not arguments[index].kwarg_only:
        return node.args[index]
    if name in node.kwargs:
        return node.kwargs[name]
    if arguments[index].has_default_value():
        return arguments[index].default_value
    return default


def overload(node: Node):
    """The torch.ops.aten overload of a node. Edge-dialect targets wrap one in
    `_op`; a plain OpOverload (inserted by a pass after to_edge) is one itself,
    and its own `_op` is the C++ builtin, not an overload."""
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return target
    return getattr(target, "_op", target)


def aten_overload(name: str) -> torch._ops.OpOverload:
    """`sin.default`, `aten::add.Tensor` (a registry key) or `aten::relu` ->
    the torch.ops.aten overload."""
    packet, _, overload_name = name.removeprefix("aten::").partition(".")
    return getattr(getattr(torch.ops.aten, packet), overload_name or "default")


def calls(node, *names: str) -> bool:
    """`node` calls one of the ATen ops `names` (a default overload has no suffix: aten::rsqrt)."""
    return (
        isinstance(node, Node) and node.op == "call_function" and target_key(node.target) in names
    )


def same_size(a, b) -> bool:
    """Two sizes, ints or symbolic, are provably equal."""
    return statically_known_true(a == b)


ARANGES = ("aten::arange", "aten::arange.start", "aten::arange.start_step")
CLONES = ("aten::clone", "dim_order_ops::_clone_dim_order")


def repeated_along_new_axis(node, axis: int) -> Optional[tuple[Node, Node]]:
    """(x, the expand) when `node` is x.unsqueeze(axis).expand(...).reshape(...),
    copies between the expand and the reshape allowed: each slice of x along
    `axis` repeated (transformers' repeat_kv, a token's row once per chosen
    expert). `axis` counts in the expanded tensor's dimensions; the caller
    checks the shapes."""
    if not calls(node, "aten::view_copy", "aten::_unsafe_view"):
        return None
    expanded = node.args[0]
    while calls(expanded, *CLONES):
        expanded = expanded.args[0]
    if not calls(expanded, "aten::expand_copy"):
        return None
    unsqueezed = expanded.args[0]
    rank = expanded.meta["val"].dim()
    if not calls(unsqueezed, "aten::unsqueeze_copy") or unsqueezed.args[1] % rank != axis:
        return None
    return unsqueezed.args[0], expanded


# Ops that copy or convert a tensor without changing its values' meaning.
CASTS = (
    "dim_order_ops::_to_dim_order_copy",
    "aten::_to_copy",
    "aten::clone",
    "dim_order_ops::_clone_dim_order",
)


@dataclass(frozen=True)
class Positions:
    """A 1-D integer tensor provably equal to arange(length) + offset: `offset`
    is an int, or the node of a one-element integer tensor or of a symbolic int."""

    length: Any
    offset: Any


def contiguous_positions(node) -> Optional[Positions]:
    """`node` as arange(T) + offset, None when that cannot be proven (positions
    read from an input, a gather, a mask...)."""
    val = node.meta.get("val") if isinstance(node, Node) else None
    if not isinstance(val, torch.Tensor) or val.dim() != 1 or not _is_integer(val.dtype):
        return None
    if calls(node, *ARANGES):
        args = list(node.args) + [None] * 3
        start, step = (0, 1) if len(node.args) == 1 else (args[0], arg(node, "step", 1))
        if step != 1 or not (isinstance(start, int) or _is_symbolic_int(start)):
            return None
        return Positions(val.shape[0], start)
    # add_: the re-inplacing pass rewrites the add when the arange dies there.
    if calls(node, "aten::add.Tensor", "aten::add_.Tensor") and arg(node, "alpha", 1) == 1:
        a, b = node.args[:2]
        for base, offset in ((a, b), (b, a)):
            inner = contiguous_positions(base) if isinstance(base, Node) else None
            if inner is None or not (isinstance(inner.offset, int) and inner.offset == 0):
                continue
            if isinstance(offset, int) and not isinstance(offset, bool):
                return Positions(inner.length, offset)
            if _is_symbolic_int(offset) or _is_integer_scalar_tensor(offset):
                return Positions(inner.length, offset)
    return None


def _is_integer(dtype: torch.dtype) -> bool:
    return not dtype.is_floating_point and not dtype.is_complex and dtype != torch.bool


def _is_symbolic_int(value) -> bool:
    return isinstance(value, Node) and isinstance(value.meta.get("val"), (int, torch.SymInt))


def _is_integer_scalar_tensor(value) -> bool:
    val = value.meta.get("val") if isinstance(value, Node) else None
    return (
        isinstance(val, torch.Tensor)
        and val.dim() <= 1
        and val.numel() == 1
        and _is_integer(val.dtype)
    )
