"""Joining sibling products: products of one input by several constant
weights (a layer's query, key and value projections; an MLP's gate and up
projections) become one product by the weights stacked along their outputs,
then a split of its result into the old results.

Why: a decode step is bound by how many kernels it launches, not by the bytes
it reads (a 1B model's step is about 280 kernels on a GPU, each costing the
host its encoding and launch), and on the CPU each product is a dispatch to
the thread pool. Joined, a Llama layer's seven products become four. The split
parts are views of the joined result (MLX's split slices), so nothing is
copied. Each result is the same dot products as before, though a kernel may
sum them in another order for another width.

ROWS: only products of one row, or of a symbolic number of rows (an LLM's
method serves one-token decode steps and prefill alike), are joined. With a
fixed batch of rows, the split parts are strided, and what reads them pays a
copy or a strided kernel that costs more than the launches saved: a llama-like
block on the CPU at 32 rows took 1.05 ms joined against 0.70 apart, at 128
rows 5.16 against 4.80 (`bench/models.py`). An LLM's prefill pays it too
(symbolic rows): about 6% of its prefill on the CPU, against a decode that
gains, in int4, 25-35% on the CPU and 20% on an H100. One loss is known: a
1B's bf16 decode on an H100, 4-11%, where MLX's bf16 product of the joined
gate/up (16,384 rows) is slower than its two halves (README, "Joined
products"); the compiler does not know the device.

Joined: `LinearNode`s and `QuantizedLinearNode`s with their groups along the
weight's inputs (`transpose`), whose weights (and scales, biases, bias) are
constants of one dtype and inner shape and attributes. A product with a bias
joins one without: the latter's part of the joined bias is zeros."""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

import torch

from ...builder.deferred import DeferredConstant, active_session
from ...builder.emitter import LoweredProgram, constant_key
from ...builder.slots import SlotKind, TensorSlot, tensor_bytes
from ....formats.ir import schema as ir
from .dataflow import Dataflow

# The weight-like operands of each product joined along the weight's rows.
_STACKED = {
    ir.LinearNode: ("weight",),
    ir.QuantizedLinearNode: ("w", "scales", "biases"),
}


def join_sibling_products(lowered: LoweredProgram) -> None:
    flow = Dataflow.of(lowered.instructions)
    siblings: dict[tuple, list[int]] = {}
    for index, node in enumerate(lowered.instructions):
        key = _sibling_key(node, flow, lowered)
        if key is not None:
            siblings.setdefault(key, []).append(index)
    joined: dict[int, list] = {}
    for indices in siblings.values():
        if len(indices) > 1:
            nodes = [lowered.instructions[i] for i in indices]
            joined[indices[0]] = _join(lowered, nodes)
            joined.update((i, []) for i in indices[1:])
    if joined:
        lowered.instructions[:] = [
            new
            for index, node in enumerate(lowered.instructions)
            for new in joined.get(index, [node])
        ]


def _sibling_key(node: Any, flow: Dataflow, lowered: LoweredProgram) -> Optional[tuple]:
    """What a product must share with another to join it (None: it joins
    nothing): its op, its input, the dtype and inner shape of each stacked
    operand, and its attributes."""
    stacked = _STACKED.get(type(node))
    if stacked is None or not flow.is_stable(node.x) or not flow.is_single_temp(node.out):
        return None
    if _static_rows(node.out) > 1:
        return None  # not a decode step's product (see ROWS)
    if isinstance(node, ir.QuantizedLinearNode) and (
        not node.transpose or node.tensor_scale is not None
    ):
        return None  # groups along the outputs, or one scale for the whole weight
    parts = [getattr(node, name) for name in stacked]
    if node.bias is not None:
        parts.append(node.bias)
    if not all(p is None or _is_stored_constant(p, lowered) for p in parts):
        return None
    if len(parts[0].shape) != 2 or node.out.shape[-1] != parts[0].shape[0]:
        return None
    if node.bias is not None and (
        node.bias.shape != parts[0].shape[:1] or node.bias.dtype != node.out.dtype
    ):
        return None  # a bias of another dtype would not stack with the others'
    operands = tuple(
        None if getattr(node, n) is None else (getattr(node, n).dtype, getattr(node, n).shape[1:])
        for n in stacked
    )
    attributes = tuple(
        (f.name, getattr(node, f.name))
        for f in dataclasses.fields(node)
        if f.name not in {"x", "out", "bias", "tensor_scale", *stacked}
    )
    # the results' leading axes are the input's (they may be symbolic: not in the key)
    return (type(node), node.x, node.out.dtype, operands, attributes)


def _static_rows(out: TensorSlot) -> int:
    """The rows of a product's result (all but its last axis), 0 when one of
    them is symbolic (a token count: the product serves one-token steps too)."""
    rows = 1
    for size in out.shape[:-1]:
        if not isinstance(size, int):
            return 0
        rows *= size
    return rows


def _is_stored_constant(slot: Any, lowered: LoweredProgram) -> bool:
    return (
        isinstance(slot, TensorSlot)
        and slot.kind == SlotKind.CONSTANT
        and slot.name in lowered.constants
    )


def _join(lowered: LoweredProgram, nodes: list) -> list:
    """The joined product and the split of its result into `nodes`' results."""
    first = nodes[0]
    rows = [n.out.shape[-1] for n in nodes]
    operands = {
        name: _stacked_constant(lowered, [getattr(n, name) for n in nodes])
        for name in _STACKED[type(first)]
        if getattr(first, name) is not None
    }
    if any(n.bias is not None for n in nodes):
        operands["bias"] = _stacked_constant(
            lowered, [n.bias for n in nodes], zeros_like=[n.out for n in nodes]
        )
    out = TensorSlot(SlotKind.TEMP, first.out.dtype, (*first.out.shape[:-1], sum(rows)))
    lowered.tensor_slots.append(out)
    product = dataclasses.replace(first, out=out, **operands)
    split = ir.SplitNode(x=out, outs=[n.out for n in nodes], sizes=rows, axis=-1)
    return [product, split]


def _stacked_constant(
    lowered: LoweredProgram, parts: list, zeros_like: Optional[list] = None
) -> TensorSlot:
    """A new constant slot holding `parts` (constant slots) stacked along
    their first axis; a part that is None (a missing bias) is zeros as long as
    the last axis of its `zeros_like` slot. Stored where the first part was,
    so an export writes the data in about the checkpoint's order."""
    present = next(p for p in parts if p is not None)
    inner = present.shape[1:]
    makers, rows = [], 0
    for index, part in enumerate(parts):
        if part is None:
            length = zeros_like[index].shape[-1]
            makers.append(lambda n=length: torch.zeros((n, *inner), dtype=present.dtype))
        else:
            length = part.shape[0]
            makers.append(_maker(lowered, part))
        rows += length

    def make() -> torch.Tensor:
        return torch.cat([m() for m in makers])

    slot = TensorSlot(SlotKind.CONSTANT, present.dtype, (rows, *inner))
    if isinstance(lowered.constants[present.name], DeferredConstant):
        slot.name = active_session().new_key()
        data: Any = DeferredConstant(make, slot.dtype, slot.shape)
    else:
        data = tensor_bytes(make())
        slot.name = constant_key(data)
    _insert_before(lowered.constants, present.name, slot.name, data)
    lowered.tensor_slots.append(slot)
    return slot


def _maker(lowered: LoweredProgram, slot: TensorSlot):
    """How to make the tensor of constant `slot`."""
    data = lowered.constants[slot.name]
    if isinstance(data, DeferredConstant):
        return data.tensor
    return (
        lambda: torch.frombuffer(bytearray(data), dtype=torch.uint8)
        .view(slot.dtype)
        .reshape(slot.shape)
    )


def _insert_before(constants: dict, anchor: str, key: str, data: Any) -> None:
    """`constants` with `key` added just before `anchor` (dicts keep order)."""
    if key in constants:
        return
    items = list(constants.items())
    at = next(i for i, (k, _) in enumerate(items) if k == anchor)
    items.insert(at, (key, data))
    constants.clear()
    constants.update(items)
