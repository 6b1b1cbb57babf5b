"""Helpers every op handler module uses."""

from __future__ import annotations

import torch
from torch.fx import Node


def arg(node: Node, index: int, name: str, default=None):
    """An argument given by position or by keyword."""
    if len(node.args) > index:
        return node.args[index]
    return node.kwargs.get(name, default)


def overload(node: Node):
    """The torch.ops.aten overload of a node. Edge-dialect targets wrap one in
    `_op`; a plain OpOverload (inserted by a pass after to_edge) is one itself,
    and its own `_op` is the C++ builtin, not an overload."""
    target = node.target
    if isinstance(target, torch._ops.OpOverload):
        return target
    return getattr(target, "_op", target)
