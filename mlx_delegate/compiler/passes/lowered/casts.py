"""Dtype-conversion collapsing: a cast of a cast converts the original operand
directly when the intermediate dtype holds every value of the operand's dtype
exactly (a widening), so the result cannot change."""

from __future__ import annotations

import torch

from ....formats.ir import schema as ir
from .dataflow import Dataflow


def collapse_casts(lowered) -> None:
    flow = Dataflow.of(lowered.instructions)
    producer = {}
    for node in lowered.instructions:
        if not isinstance(node, ir.AsTypeNode):
            continue
        inner = producer.get(node.x)
        if inner is not None and flow.is_stable(inner.x) and widens(inner.x.dtype, inner.out.dtype):
            node.x = inner.x
        if flow.is_single_temp(node.out):
            producer[node.out] = node


def widens(source: torch.dtype, target: torch.dtype) -> bool:
    """Whether every value of `source` is exactly a value of `target`."""
    if source == target or source == torch.bool:
        return True
    if target == torch.bool or source.is_complex or target.is_complex:
        return False
    if source.is_floating_point:
        if not target.is_floating_point:
            return False
        s, t = torch.finfo(source), torch.finfo(target)
        return t.eps <= s.eps and t.max >= s.max and t.smallest_normal <= s.smallest_normal
    s = torch.iinfo(source)
    if target.is_floating_point:
        # every integer up to 2 / eps is exact: the mantissa's bits and the implicit one
        return 2 / torch.finfo(target).eps >= max(abs(s.min), s.max)
    t = torch.iinfo(target)
    return t.min <= s.min and t.max >= s.max
