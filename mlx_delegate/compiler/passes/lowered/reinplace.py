"""Writing mutable buffers in place: a buffer mutation ends in a copy of the
new value into the buffer's slot. When nothing reads the buffer after the
value is computed, the node computing it writes the buffer's slot directly and
the copy goes: the old buffer array then has no holder left once that node
has read it, so MLX can update its memory in place (a KV cache written at one
position no longer copies the whole cache)."""

from __future__ import annotations

from ...builder.slots import SlotKind, TensorSlot
from ....formats.ir import schema as ir
from .dataflow import Dataflow, every_instruction, replace_reads, replace_writes


def write_buffers_in_place(lowered) -> None:
    flow = Dataflow.of(lowered.instructions)
    for copy in [n for n in lowered.instructions if _writes_back_buffer(n)]:
        value, buffer = copy.x, copy.out
        if not _fits(flow, value, buffer):
            continue
        producer = flow.writers[value][0]
        if any(producer < reader for reader in flow.readers.get(buffer, ())):
            continue  # the old value is still needed after the new one exists
        del lowered.instructions[next(i for i, n in enumerate(lowered.instructions) if n is copy)]
        replace_writes(lowered.instructions[producer], {value: buffer})
        for node in every_instruction(lowered):
            replace_reads(node, {value: buffer})  # none reads it up to the producer
        flow = Dataflow.of(lowered.instructions)


def _fits(flow: Dataflow, value: TensorSlot, buffer: TensorSlot) -> bool:
    """`value` can live in `buffer`'s slot: one write each (the copy is the
    buffer's only writer), the same dtype and shape."""
    return (
        flow.is_single_temp(value)
        and len(flow.writers.get(buffer, ())) == 1
        and value.dtype == buffer.dtype
        and tuple(value.shape) == tuple(buffer.shape)
    )


def _writes_back_buffer(node) -> bool:
    return (
        isinstance(node, ir.CopyNode)
        and isinstance(node.out, TensorSlot)
        and node.out.kind == SlotKind.MUTABLE_BUFFER
    )
