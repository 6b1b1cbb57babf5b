"""Dtype conversions that change no value:

- `collapse_casts`: a cast of a cast converts the original operand directly
  when the intermediate dtype holds every value of the operand's dtype exactly
  (a widening), so the result cannot change; a widening of a Full is a Full
  made in the wider dtype;
- `skip_index_casts`: an integer widening read only as indices (PyTorch's
  int64 top-k and sort positions, which MLX makes as 32-bit) is not made: the
  indices are the same numbers in either dtype, and each cast is a kernel of
  every step."""

from __future__ import annotations

import torch

from ....formats.ir import inspector, schema as ir
from .dataflow import Dataflow, forward, reads


def collapse_casts(lowered) -> None:
    # Casts of casts first: a Full cast wider and back reads the Full itself.
    _skip_widenings_between_casts(lowered)
    _make_fulls_in_their_casts_dtype(lowered)


def _skip_widenings_between_casts(lowered) -> None:
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


def _make_fulls_in_their_casts_dtype(lowered) -> None:
    """A Full is a constant to MLX, its cast a kernel of every call."""
    flow = Dataflow.of(lowered.instructions)
    fulls = {}
    for index, node in enumerate(lowered.instructions):
        if isinstance(node, ir.FullNode) and flow.is_single_temp(node.out):
            fulls[node.out] = node
        full = fulls.get(node.x) if isinstance(node, ir.AsTypeNode) else None
        if full is not None and widens(full.out.dtype, node.out.dtype):
            if all(map(flow.is_stable, reads(full))):
                lowered.instructions[index] = _full_as(full, node)


def _full_as(full, cast):
    """`full`'s values, made directly as `cast`'s result."""
    return ir.FullNode(out=cast.out, shape=full.shape, value=full.value, dtype=cast.dtype)


# Nodes that pass an integer tensor on unchanged but for its shape.
_INDEX_VIEWS = (
    ir.ReshapeNode,
    ir.ExpandDimsNode,
    ir.SqueezeNode,
    ir.SelectNode,
    ir.SliceNode,
    ir.TransposeNode,
    ir.BroadcastToNode,
)


def skip_index_casts(lowered) -> None:
    flow = Dataflow.of(lowered.instructions)
    skipped: dict = {}
    for node in lowered.instructions:
        if not isinstance(node, ir.AsTypeNode) or not _is_integer_widening(node):
            continue
        if not (flow.is_single_temp(node.out) and flow.is_stable(node.x)):
            continue
        views = _index_views(lowered.instructions, flow, node.out)
        if views is None:
            continue
        for view in views:  # they now pass the narrower integers on
            view.out.dtype = node.x.dtype
        skipped[node.out] = node.x
    forward(lowered, skipped)


def _is_integer_widening(node) -> bool:
    source, target = node.x.dtype, node.out.dtype
    integer = lambda d: not d.is_floating_point and not d.is_complex and d != torch.bool  # noqa
    return integer(source) and integer(target) and widens(source, target)


def _index_views(instructions: list, flow: Dataflow, slot) -> list | None:
    """The views between `slot` and its readers when every reader reads it
    (or a view of it) as indices alone, else None."""
    views = []
    for index in flow.readers.get(slot, ()):
        reader = instructions[index]
        if isinstance(reader, _INDEX_VIEWS) and flow.is_single_temp(reader.out):
            below = _index_views(instructions, flow, reader.out)
            if below is None:
                return None
            views += [reader, *below]
        elif not _reads_as_indices_only(reader, slot):
            return None
    return views


def _reads_as_indices_only(node, slot) -> bool:
    """Whether every field of `node` that holds `slot` is an index operand
    (the schema's `indices`, `lhs_indices`, `rhs_indices`)."""
    holding = [
        f.name
        for f in inspector.OPS_BY_TABLE[type(node).__name__].fields
        if f.role == "input" and _holds(getattr(node, f.name), slot)
    ]
    return bool(holding) and all(name.endswith("indices") for name in holding)


def _holds(value, slot) -> bool:
    return value is slot or (isinstance(value, list) and any(v is slot for v in value))


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
