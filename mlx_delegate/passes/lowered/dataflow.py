"""Who writes and who reads each slot of a lowered program, and the rewrites
passes share: replacing a slot by another in every later read."""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Iterator

from ...builder.slots import SlotKind, TensorSlot, ValueSlot
from ...ir import inspector


def _field_infos(ir_node: Any):
    return inspector.OPS_BY_TABLE[type(ir_node).__name__].fields


def slots_in(value: Any) -> Iterator[Any]:
    """Every tensor or value slot inside an IR value (a slot, a list, a struct)."""
    if isinstance(value, (TensorSlot, ValueSlot)):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from slots_in(item)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from slots_in(getattr(value, f.name))


def reads(ir_node: Any) -> list:
    return [
        s
        for f in _field_infos(ir_node)
        if f.role == "input"
        for s in slots_in(getattr(ir_node, f.name))
    ]


def writes(ir_node: Any) -> list:
    return [
        s
        for f in _field_infos(ir_node)
        if f.role == "output"
        for s in slots_in(getattr(ir_node, f.name))
    ]


def replace_reads(ir_node: Any, mapping: dict) -> None:
    """Makes `ir_node` read `mapping[s]` wherever it read slot `s`."""
    for f in _field_infos(ir_node):
        if f.role == "input":
            setattr(ir_node, f.name, _replaced(getattr(ir_node, f.name), mapping))


def replace_writes(ir_node: Any, mapping: dict) -> None:
    """Makes `ir_node` write `mapping[s]` wherever it wrote slot `s`."""
    for f in _field_infos(ir_node):
        if f.role == "output":
            setattr(ir_node, f.name, _replaced(getattr(ir_node, f.name), mapping))


def _replaced(value: Any, mapping: dict) -> Any:
    if isinstance(value, (TensorSlot, ValueSlot)):
        return mapping.get(value, value)
    if isinstance(value, list):
        return [_replaced(v, mapping) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            setattr(value, f.name, _replaced(getattr(value, f.name), mapping))
    return value


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
