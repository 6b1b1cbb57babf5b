"""Common-subexpression elimination: a node that repeats an earlier node (same
op, same operands, same attributes) is dropped; its readers read the earlier
result."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from ...builder.slots import TensorSlot, ValueSlot
from ....formats.ir import inspector
from .dataflow import Dataflow, forward, reads, writes


def eliminate_common_subexpressions(lowered) -> None:
    flow = Dataflow.of(lowered.instructions)
    seen: dict = {}
    aliases: dict = {}
    for node in lowered.instructions:
        results = writes(node)
        if not results or not all(
            flow.is_single_temp(s) or _is_single_value(flow, s) for s in results
        ):
            continue
        if not all(flow.is_stable(s) for s in reads(node)):
            continue
        key = _key(node, aliases)
        earlier = seen.setdefault(key, node)
        if earlier is not node:
            aliases.update(zip(results, writes(earlier)))
    forward(lowered, aliases)


def _is_single_value(flow: Dataflow, slot: Any) -> bool:
    return isinstance(slot, ValueSlot) and len(flow.writers.get(slot, ())) == 1


def _key(node: Any, aliases: dict) -> tuple:
    """What `node` computes: its op and everything but its results, with slots
    already known to repeat others replaced by those."""
    info = inspector.OPS_BY_TABLE[type(node).__name__]
    return (type(node).__name__,) + tuple(
        (f.name, _frozen(getattr(node, f.name), aliases)) for f in info.fields if f.role != "output"
    )


def _frozen(value: Any, aliases: dict) -> Any:
    if isinstance(value, (TensorSlot, ValueSlot)):
        return aliases.get(value, value)
    if isinstance(value, list):
        return tuple(_frozen(v, aliases) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(
            _frozen(getattr(value, f.name), aliases) for f in fields(value)
        )
    return value
