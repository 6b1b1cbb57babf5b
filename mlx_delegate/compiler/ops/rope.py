"""Rotary position embeddings written out by hand (transformers, GPT-J, most
LLM codebases) become one RopeNode, MLX's fused `fast::rope`:

    out = x * cos + rotate(x) * sin                  (either operand order)
    rotate(x) = cat(-x[..., d/2:], x[..., :d/2])      rotate_half: pairs (i, i + d/2)
              | stack(-x[..., 1::2], x[..., ::2], -1).flatten(-2)
                                                    interleaved: pairs (2i, 2i + 1)
    cos = cos(cat(f, f)) [* s]                       rotate_half
        | repeat_interleave(cos(f), 2) | cos(repeat_interleave(f, 2))  interleaved
          (sin alike, from the same f and s), then casts and unsqueezes
    f = positions[..., None].float() * inv_freq      inv_freq a constant (any scaling
                                                    folded in: llama3, linear...)
    positions = arange(T) + offset                  offset an int, a one-element
                                                    integer tensor or a symbolic int

With partial rotary, cat(out, x_full[..., d:]) where x = x_full[..., :d] is
one RopeNode over x_full with `dims` d. The cos/sin tables stay with their own
lowering: q and k (and every layer) share them; once no rope reads them,
dead-code removal drops them. Positions that cannot be proven contiguous
(position ids passed in, gathered from a table) are not matched: the ops are
lowered one by one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import torch
from torch.fx import Node

from ..builder import HandlerRegistry
from ..builder.registry import PatternMatch
from ..builder.slots import SlotKind, TensorSlot, ValueSlot
from ...formats.ir import schema as ir
from .common import CASTS, Positions, arg, calls, contiguous_positions, same_size

HANDLERS = HandlerRegistry()

END = 2**63 - 1


@dataclass(frozen=True)
class _Rotation:
    x: Node
    traditional: bool
    nodes: tuple  # the rotation's own nodes, inside the match


@dataclass(frozen=True)
class _Table:
    freqs: Node  # f = positions * inv_freq
    inv_freq: Node
    positions: Positions
    scale: Any  # None, a number or the node of a one-element constant


def _val(node) -> Any:
    return node.meta.get("val") if isinstance(node, Node) else None


def _last_axis(node: Node, axis) -> bool:
    """`axis` is the last axis of `node`'s result (cat, slice, repeat_interleave
    keep their operands' rank)."""
    return axis in (-1, _val(node).dim() - 1)


def _slice(node, x: Node, start: int, stop_at_least, step: int) -> bool:
    """node = x[..., start:stop:step] on the last axis, stop past `stop_at_least`."""
    if not calls(node, "aten::slice_copy.Tensor") or node.args[0] is not x:
        return False
    args = list(node.args) + [None] * 5
    dim, lo, hi = args[1], args[2] or 0, END if args[3] is None else args[3]
    return (
        _last_axis(node, dim)
        and lo == start
        and (hi == END or (isinstance(hi, int) and hi >= stop_at_least))
        and (args[4] or 1) == step
    )


def _rotation(node, x: Node) -> Optional[_Rotation]:
    d = _val(x).shape[-1]
    if not isinstance(d, int) or d % 2:
        return None
    if calls(node, "aten::cat") and _last_axis(node, arg(node, "dim", 0)):
        parts = node.args[0]
        if len(parts) == 2 and calls(parts[0], "aten::neg"):
            high, low = parts[0].args[0], parts[1]
            if _slice(high, x, d // 2, d, 1) and _slice(low, x, 0, d // 2, 1):
                stop = low.args[3] if len(low.args) > 3 else END
                if stop == d // 2:
                    return _Rotation(x, False, (high, low, parts[0], node))
    if calls(node, "aten::view_copy") and tuple(node.args[1]) == tuple(_val(x).shape):
        stack = node.args[0]
        if calls(stack, "aten::stack") and arg(stack, "dim", 0) in (-1, _val(x).dim()):
            parts = stack.args[0]
            if len(parts) == 2 and calls(parts[0], "aten::neg"):
                odd, even = parts[0].args[0], parts[1]
                if _slice(odd, x, 1, d, 2) and _slice(even, x, 0, d, 2):
                    return _Rotation(x, True, (odd, even, parts[0], stack, node))
    return None


def _is_one_element(value) -> bool:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    val = _val(value)
    return (
        isinstance(val, torch.Tensor) and val.numel() == 1 and value.op == "placeholder"
    )  # a lifted constant; the lowering checks it is one


def _strip(node, axis: int, scale_allowed: bool):
    """Walks up casts, unsqueezes and (once) a scalar multiply, following the
    axis `axis` (counted from the end); returns (node, axis, scale) or None
    when that axis was inserted on the way."""
    scale = None
    while True:
        if calls(node, *CASTS):
            node = node.args[0]
        elif calls(node, "aten::unsqueeze_copy"):
            rank = _val(node).dim()
            inserted = node.args[1] % rank
            at = rank + axis
            if at == inserted:
                return None
            axis = (at if at < inserted else at - 1) - (rank - 1)
            node = node.args[0]
        elif scale_allowed and scale is None and _unscaled(node)[1] is not None:
            node, scale = _unscaled(node)
        else:
            return node, axis, scale


def _unscaled(node) -> tuple[Any, Any]:
    """(t, s) when `node` is t * s with s a number or one-element constant, else (node, None)."""
    if calls(node, "aten::mul.Tensor"):
        a, b = node.args[:2]
        if _is_one_element(b) and isinstance(a, Node):
            return a, b
        if _is_one_element(a) and isinstance(b, Node):
            return b, a
    return node, None


def _positions(node, axis: int) -> Optional[Positions]:
    """The positions `node` broadcasts along its axis `axis` (from the end):
    unsqueezes, expands and casts of arange(T) + offset."""
    while True:
        if calls(node, *CASTS):
            node = node.args[0]
        elif calls(node, "aten::unsqueeze_copy"):
            stripped = _strip(node, axis, False)
            if stripped is None:
                return None
            node, axis, _ = stripped
        elif calls(node, "aten::expand_copy"):
            inner = node.args[0]
            rank, inner_rank = _val(node).dim(), _val(inner).dim()
            if rank + axis < rank - inner_rank or not same_size(
                _val(inner).shape[axis], _val(node).shape[axis]
            ):
                return None
            node = inner
        else:
            break
    if axis != -1:
        return None
    return contiguous_positions(node)


def _table(node, fn: str, traditional: bool) -> Optional[_Table]:
    """cos or sin (`fn`) of the angles of a rope, T on axis -2 of `node`."""
    stripped = _strip(node, -2, True)
    if stripped is None:
        return None
    node, axis, scale = stripped
    if axis != -2:
        return None
    if traditional:
        interleave = "aten::repeat_interleave.self_int"
        if calls(node, interleave):
            repeated = node
            inner = node.args[0]
            if scale is None:  # the scaling may come before the interleave
                inner, scale = _unscaled(inner)
            if not calls(inner, fn):
                return None
            freqs = inner.args[0]
        elif calls(node, fn) and calls(node.args[0], interleave):
            repeated = node.args[0]
            freqs = repeated.args[0]
        else:
            return None
        if repeated.args[1] != 2 or not _last_axis(repeated, arg(repeated, "dim")):
            return None
        if arg(repeated, "output_size") not in (None, 2 * _val(freqs).shape[-1]):
            return None
    else:
        if not calls(node, fn):
            return None
        emb = node.args[0]
        if not calls(emb, "aten::cat") or not _last_axis(emb, arg(emb, "dim", 0)):
            return None
        parts = emb.args[0]
        if len(parts) != 2 or parts[0] is not parts[1]:
            return None
        freqs = parts[0]
    if not calls(freqs, "aten::mul.Tensor"):
        return None
    for positions, inv_freq in (freqs.args[:2], freqs.args[1::-1]):
        inv, pos = _val(inv_freq), _val(positions)
        if not isinstance(inv, torch.Tensor) or not isinstance(pos, torch.Tensor):
            continue
        if inv_freq.op != "placeholder" or inv.dim() != 1 or not inv.dtype.is_floating_point:
            continue
        if pos.dim() < 2 or pos.shape[-1] != 1 or pos.dim() != _val(freqs).dim():
            continue
        found = _positions(positions, -2)
        if found is not None:
            return _Table(freqs, inv_freq, found, scale)
    return None


def _may_equal(a, b) -> bool:
    """The scales of cos and sin can be equal: numbers are compared here, two
    constants (lifted apart, of equal value) when compiling."""
    if a is None or b is None or isinstance(a, (int, float)) or isinstance(b, (int, float)):
        return a is b or (a is not None and b is not None and a == b)
    return True


def _core(node) -> Optional[tuple[_Rotation, _Table, _Table, tuple, tuple]]:
    """node = x * cos + rotate(x) * sin: the rotation, both tables, the nodes
    and (cos, sin)."""
    if not calls(node, "aten::add.Tensor") or arg(node, "alpha", 1) != 1:
        return None
    for direct, rotated in (node.args[:2], node.args[1::-1]):
        if not calls(direct, "aten::mul.Tensor") or not calls(rotated, "aten::mul.Tensor"):
            continue
        for x, cos in (direct.args[:2], direct.args[1::-1]):
            if (
                not isinstance(x, Node)
                or not isinstance(_val(x), torch.Tensor)
                or _val(x).dim() < 3
            ):
                continue
            for rot, sin in (rotated.args[:2], rotated.args[1::-1]):
                rotation = _rotation(rot, x)
                if rotation is None:
                    continue
                cos_table = _table(cos, "aten::cos", rotation.traditional)
                sin_table = _table(sin, "aten::sin", rotation.traditional)
                if cos_table is None or sin_table is None:
                    continue
                if cos_table.freqs is not sin_table.freqs or not _may_equal(
                    cos_table.scale, sin_table.scale
                ):
                    continue
                nodes = rotation.nodes + (direct, rotated)
                return rotation, cos_table, sin_table, nodes, (cos, sin)
    return None


def _fits(x: Node, out: Node, table: _Table) -> bool:
    """The rope keeps x's shape and dtype, and its rows are the positions."""
    xv, ov = _val(x), _val(out)
    if xv.dim() < 3 or not xv.dtype.is_floating_point:
        return False
    if tuple(ov.shape) != tuple(xv.shape) or ov.dtype != xv.dtype:
        return False
    d = xv.shape[-1]
    return same_size(xv.shape[-2], table.positions.length) and _val(table.inv_freq).shape == (
        d // 2,
    )


@HANDLERS.register_pattern
def rope(node: Node) -> Optional[PatternMatch]:
    partial_tail = None
    core_node = node
    if calls(node, "aten::cat") and len(node.args[0]) == 2:
        if _last_axis(node, arg(node, "dim", 0)):
            core_node, partial_tail = node.args[0]
    found = _core(core_node)
    if found is None:
        return None
    rotation, table, sin_table, nodes, tables = found
    x, dims = rotation.x, _val(rotation.x).shape[-1]
    if not _fits(x, core_node, table):
        return None
    anchor = core_node
    if partial_tail is not None:
        full = x.args[0] if calls(x, "aten::slice_copy.Tensor") else None
        if full is None or not _slice(x, full, 0, dims, 1) or x.args[3] != dims:
            return None
        if not _slice(partial_tail, full, dims, _val(full).shape[-1], 1):
            return None
        if tuple(_val(node).shape) != tuple(_val(full).shape):
            return None
        nodes += (x, partial_tail)
        x, anchor = full, node
    members = nodes + (core_node,) + ((node,) if anchor is node and node is not core_node else ())

    def lower(b) -> None:
        constant = b.tensor_slot(table.inv_freq).kind == SlotKind.CONSTANT
        if not constant or not _equal_scales(b, table.scale, sin_table.scale):
            for member in sorted(members, key=_order(node)):
                b.lower_with_handler(member)
            return
        dtype = b.val(anchor).dtype
        periods = b.computed_constant(
            lambda: (1.0 / b.constant(table.inv_freq).to(torch.float64)).to(torch.float32),
            torch.float32,
            (dims // 2,),
        )
        scaled = table.scale is not None and not _is_unit(b, table.scale)
        out = b.temp(dtype, tuple(b.val(anchor).shape)) if scaled else b.out(anchor)
        b.emit(
            ir.RopeNode(
                x=b.tid(x),
                out=out.tid,
                dims=dims,
                traditional=rotation.traditional,
                scale=1.0,
                offset=_offset(b, table.positions.offset).tid,
                freqs=periods.tid,
            )
        )
        if scaled:
            factor = b.operand(table.scale, dtype)
            b.emit(ir.MultiplyNode(a=out.tid, b=factor.tid, out=b.out(anchor).tid))

    return PatternMatch(
        "rope", tuple(sorted(members, key=_order(node))), lower, inspected=_computing(tables)
    )


def _computing(nodes) -> tuple:
    """The operations `nodes` are computed by (the match relies on their form)."""
    seen, stack = set(), [n for n in nodes if isinstance(n, Node)]
    while stack:
        node = stack.pop()
        if node in seen or node.op != "call_function":
            continue
        seen.add(node)
        stack.extend(node.all_input_nodes)
    return tuple(seen)


def _order(node: Node):
    """Graph order, for lowering the members one by one (and listing them)."""
    order = {n: i for i, n in enumerate(node.graph.nodes)}
    return lambda n: order[n]


def _equal_scales(b, cos_scale, sin_scale) -> bool:
    if cos_scale is sin_scale or not isinstance(cos_scale, Node):
        return True  # numbers were compared when matching
    if b.dry_run:
        return True  # values unknown: the compile decides, and falls back op by op
    a, c = b.constant(cos_scale), b.constant(sin_scale)
    return a is not None and c is not None and torch.equal(a.reshape(-1), c.reshape(-1))


def _is_unit(b, scale) -> bool:
    """The attention scaling is 1 (known only when compiling: the dry run keeps the multiply)."""
    if isinstance(scale, (int, float)):
        return scale == 1
    value = b.constant(scale)
    return value is not None and float(value.reshape(-1)[0]) == 1.0


def _offset(b, offset) -> TensorSlot:
    """The first position as the 0-d int32 tensor RopeNode reads: MLX's rope
    casts an offset of any other dtype to int32, a kernel of every call."""
    if isinstance(offset, int) or isinstance(b.slot(offset), ValueSlot):
        return b.full(offset, torch.int32)
    slot = b.slot(offset)
    if slot.shape != ():
        flat = b.temp(slot.dtype, ())
        b.emit(ir.ReshapeNode(x=slot.tid, out=flat.tid, shape=[]))
        slot = flat
    return b.cast(slot, torch.int32)
