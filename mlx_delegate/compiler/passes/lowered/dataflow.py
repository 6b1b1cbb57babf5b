"""Who writes and who reads each slot of a lowered program, and the rewrites
passes share: replacing a slot by another in every later read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from ...builder.slots import SlotKind, TensorSlot, map_slots, node_slots
from ....formats.ir import inspector


def reads(ir_node: Any) -> list:
    return [slot for slot, role in node_slots(ir_node) if role == "input"]


def writes(ir_node: Any) -> list:
    return [slot for slot, role in node_slots(ir_node) if role == "output"]


def replace_reads(ir_node: Any, mapping: dict) -> None:
    """Makes `ir_node` read `mapping[s]` wherever it read slot `s`."""
    _replace(ir_node, "input", mapping)


def replace_writes(ir_node: Any, mapping: dict) -> None:
    """Makes `ir_node` write `mapping[s]` wherever it wrote slot `s`."""
    _replace(ir_node, "output", mapping)


def _replace(ir_node: Any, role: str, mapping: dict) -> None:
    for f in inspector.OPS_BY_TABLE[type(ir_node).__name__].fields:
        if f.role == role:
            value = map_slots(getattr(ir_node, f.name), lambda s: mapping.get(s, s))
            setattr(ir_node, f.name, value)


@dataclass
class Dataflow:
    writers: dict  # slot -> indices of the instructions that write it
    readers: dict  # slot -> indices of the instructions that read it

    @classmethod
    def of(cls, instructions: list) -> "Dataflow":
        writers: dict = {}
        readers: dict = {}
        for index, node in enumerate(instructions):
            for slot in writes(node):
                writers.setdefault(slot, []).append(index)
            for slot in reads(node):
                readers.setdefault(slot, []).append(index)
        return cls(writers, readers)

    def is_single_temp(self, slot: Any) -> bool:
        """A temp written by exactly one instruction: a name for one value."""
        return (
            isinstance(slot, TensorSlot)
            and slot.kind == SlotKind.TEMP
            and len(self.writers.get(slot, ())) == 1
        )

    def is_stable(self, slot: Any) -> bool:
        """Holds one value for the whole run: written at most once, and never if
        it lives across runs or is read by the caller (inputs, constants)."""
        written = self.writers.get(slot, ())
        if isinstance(slot, TensorSlot) and slot.kind != SlotKind.TEMP:
            return not written
        return len(written) <= 1


def forward(lowered, mapping: dict) -> None:
    """Every instruction reads `mapping[s]` instead of temp `s`; the writers of
    the replaced temps become dead code (`remove_dead_code` drops them)."""
    if mapping:
        mapping = {old: _resolve(new, mapping) for old, new in mapping.items()}
        for node in every_instruction(lowered):
            replace_reads(node, mapping)


def every_instruction(lowered) -> Iterator[Any]:
    """The main chain's instructions, then those of the control-flow
    sub-chains. Passes analyse the main chain alone: a control-flow node lists
    every slot of the main chain its sub-chains read or write. A slot a pass
    renames is renamed in the sub-chains too."""
    yield from lowered.instructions
    for chain in lowered.sub_chains:
        yield from chain


def _resolve(slot: Any, mapping: dict) -> Any:
    while slot in mapping:
        slot = mapping[slot]
    return slot
