"""Dead-code removal: instructions whose every result is a temp nobody reads."""

from __future__ import annotations

from ...builder.slots import SlotKind, TensorSlot
from .dataflow import reads, writes


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


def _is_temp(slot) -> bool:
    return not isinstance(slot, TensorSlot) or slot.kind == SlotKind.TEMP
