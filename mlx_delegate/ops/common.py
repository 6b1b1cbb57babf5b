"""Helpers every op handler module uses."""

from __future__ import annotations

import torch
from torch.fx import Node


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
