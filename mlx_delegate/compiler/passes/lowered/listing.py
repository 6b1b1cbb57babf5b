"""A lowered program as text, one instruction a line, for tests that show a
program before and after a pass: `t2 = ReshapeNode(x=in0, shape=[6])`."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from ...builder.slots import SlotKind, TensorSlot, ValueSlot
from ....formats.ir import inspector

PREFIX = {
    SlotKind.CONSTANT: "c",
    SlotKind.INPUT: "in",
    SlotKind.OUTPUT: "out",
    SlotKind.MUTABLE_BUFFER: "buf",
    SlotKind.TEMP: "t",
}


def listing(lowered) -> str:
    names = _slot_names(lowered)
    return "\n".join(_line(node, names) for node in lowered.instructions)


def _slot_names(lowered) -> dict:
    names: dict = {}
    counts: dict = {}
    for slot in lowered.tensor_slots:
        prefix = PREFIX[slot.kind]
        names[slot] = f"{prefix}{counts.setdefault(prefix, 0)}"
        counts[prefix] += 1
    names.update({slot: f"v{i}" for i, slot in enumerate(lowered.value_slots)})
    return names


def _line(node: Any, names: dict) -> str:
    info = inspector.OPS_BY_TABLE[type(node).__name__]
    results = ", ".join(
        _text(getattr(node, f.name), names) for f in info.fields if f.role == "output"
    )
    operands = ", ".join(
        f"{f.name}={_text(getattr(node, f.name), names)}"
        for f in info.fields
        if f.role != "output" and getattr(node, f.name) is not None
    )
    return f"{results} = {type(node).__name__}({operands})"


def _text(value: Any, names: dict) -> str:
    if isinstance(value, (TensorSlot, ValueSlot)):
        return names.get(value, "?")
    if isinstance(value, list):
        return "[" + ", ".join(_text(v, names) for v in value) + "]"
    if is_dataclass(value) and not isinstance(value, type):
        present = [
            getattr(value, f.name) for f in fields(value) if getattr(value, f.name) is not None
        ]
        return _text(present[0], names) if len(present) == 1 else str(value)
    if hasattr(value, "name") and hasattr(value, "value"):  # an IR enum
        return value.name
    return repr(value)
