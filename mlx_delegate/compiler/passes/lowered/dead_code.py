"""Dead-code removal: instructions whose every result is a temp nobody reads,
then constants nobody reads (a quantized weight's original tensors, once the
instructions read the packed copy made from them), so they are not stored."""

from __future__ import annotations

from ...builder.slots import SlotKind, TensorSlot
from .dataflow import every_instruction, reads, writes


def remove_dead_code(lowered) -> None:
    live: set = set()
    kept = []
    for node in reversed(lowered.instructions):
        results = writes(node)
        if results and all(_is_temp(s) and s not in live for s in results):
            continue
        live.update(reads(node))
        kept.append(node)
    lowered.instructions[:] = reversed(kept)
    _remove_unread_constants(lowered)


def _remove_unread_constants(lowered) -> None:
    read = {slot for node in every_instruction(lowered) for slot in reads(node)}
    lowered.tensor_slots[:] = [
        s for s in lowered.tensor_slots if s.kind != SlotKind.CONSTANT or s in read
    ]
    # Constants are stored by content: a key stays while any slot still names it.
    named = {s.name for s in lowered.tensor_slots if s.name is not None}
    for key in [k for k in lowered.constants if k not in named]:
        del lowered.constants[key]


def _is_temp(slot) -> bool:
    return not isinstance(slot, TensorSlot) or slot.kind == SlotKind.TEMP
