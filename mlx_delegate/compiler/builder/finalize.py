"""The finaliser: numbers a lowered program's slots and builds the IR graph
from it, fresh (the lowered program is left as it was).

Tensor slots are numbered in the global order constants -> inputs -> outputs ->
mutable buffers -> temps; temps whose lifetimes do not overlap share an id.
Temps a control-flow sub-chain touches each keep an id of their own: their
lifetimes are not visible in the main chain's order."""

from __future__ import annotations

from typing import Any, Iterable

import torch

from ..._logging import debug
from ...formats.ir import schema as ir
from .emitter import LoweredProgram
from .slots import SlotKind, TensorSlot, ir_dtype, map_slots, node_slots


def finalize(lowered: LoweredProgram):
    """The `MLXGraph` of `lowered`."""
    order = sorted(lowered.tensor_slots, key=lambda s: s.kind)  # stable: creation order per kind
    counts = {kind: sum(1 for s in order if s.kind == kind) for kind in SlotKind}
    fixed = [s for s in order if s.kind != SlotKind.TEMP]
    tids = {slot: idx for idx, slot in enumerate(fixed)}
    temps, num_temps = _share_temps(lowered, first=len(fixed))
    tids.update(temps)
    vids = {slot: idx for idx, slot in enumerate(lowered.value_slots)}

    def fresh(value: Any) -> Any:
        return _fresh(value, tids, vids)

    graph = ir.MLXGraph(
        num_constant_tensors=counts[SlotKind.CONSTANT],
        num_input_tensors=counts[SlotKind.INPUT],
        num_output_tensors=counts[SlotKind.OUTPUT],
        num_mutable_buffer_tensors=counts[SlotKind.MUTABLE_BUFFER],
        num_temp_tensors=num_temps,
        num_values=len(lowered.value_slots),
        instruction_chains=[
            ir.InstructionChain(instructions=[ir.Instruction(op=fresh(n)) for n in chain])
            for chain in [lowered.instructions, *lowered.sub_chains]
        ],
        input_map=[_slot_ref(s, tids, vids) for s in lowered.inputs],
        output_map=[_slot_ref(s, tids, vids) for s in lowered.outputs],
        mutable_buffer_map=[
            _slot_ref(s, tids, vids) for s in fixed if s.kind == SlotKind.MUTABLE_BUFFER
        ],
        named_slots=[
            ir.NamedSlot(name=s.name, slot=fresh(s))
            for s in fixed
            # an unnamed mutable buffer starts as zeros, made by the runtime
            if s.kind in (SlotKind.CONSTANT, SlotKind.MUTABLE_BUFFER) and s.name is not None
        ],
        tensor_meta=[_meta(s) for s in fixed] + [ir.TensorMeta() for _ in range(num_temps)],
    )
    debug(
        "built %d instructions, tensor slots %s, %d temps after reuse, %d values",
        len(lowered.instructions),
        {k.name: v for k, v in counts.items()},
        num_temps,
        len(lowered.value_slots),
    )
    return graph


def _fresh(value: Any, tids: dict, vids: dict) -> Any:
    """A copy of IR `value` with every slot replaced by its numbered id."""

    def number(slot: Any) -> Any:
        if isinstance(slot, TensorSlot):
            return ir.Tid(idx=tids[slot])
        return ir.Vid(idx=vids[slot])

    return map_slots(value, number)


def _meta(slot: TensorSlot):
    shape = [
        ir.IntOrVid(literal=int(d) if not isinstance(d, torch.SymInt) else -1) for d in slot.shape
    ]
    return ir.TensorMeta(shape=shape, dtype=ir_dtype(slot.dtype))


def _slot_ref(slot: Any, tids: dict, vids: dict):
    if isinstance(slot, TensorSlot):
        return ir.SlotRef(kind=ir.SlotKind.Tensor, idx=tids[slot])
    return ir.SlotRef(kind=ir.SlotKind.Value, idx=vids[slot])


def _share_temps(lowered: LoweredProgram, first: int) -> tuple[dict[TensorSlot, int], int]:
    """Physical ids from `first` on for the temps the instructions use, an id
    reused once the last reader of its previous temp has run; and how many ids
    were used. A temp no instruction writes still gets an id (`first`).

    The result of an in-place op takes its operand's id when the instruction
    writing it is the operand's last reader: the slot then stops holding the
    operand, so MLX may compute into the operand's memory."""
    instructions = lowered.instructions
    created = {slot: i for i, slot in enumerate(lowered.tensor_slots)}
    last_read: dict[TensorSlot, int] = {}
    written_at: dict[TensorSlot, int] = {}
    temps: dict[TensorSlot, None] = {}  # in order of first appearance
    own_id = _sub_chain_temps(lowered)
    for index, node in enumerate(instructions):
        for slot, role in slots_of(node):
            if slot.kind != SlotKind.TEMP or slot in own_id:  # numbered below
                continue
            temps.setdefault(slot)
            if role == "output":
                written_at.setdefault(slot, index)
            last_read[slot] = index
    writes_at: dict[int, list[TensorSlot]] = {}
    for slot, index in written_at.items():
        writes_at.setdefault(index, []).append(slot)
    physical: dict[TensorSlot, int] = {}
    free: list[int] = []
    releases: dict[int, list[int]] = {}
    used = 0
    for index in range(len(instructions)):
        for slot in sorted(writes_at.get(index, []), key=created.__getitem__):
            operand = lowered.reuses.get(slot)
            if operand in physical and physical[operand] in releases.get(index, ()):
                physical[slot] = physical[operand]
                releases[index].remove(physical[operand])
            elif free:
                physical[slot] = free.pop()
            else:
                physical[slot] = first + used
                used += 1
            releases.setdefault(last_read[slot], []).append(physical[slot])
        # ids whose last reader is this instruction are free for later writers
        free.extend(sorted(releases.pop(index, []), reverse=True))
    for slot in own_id:
        physical[slot] = first + used
        used += 1
    for slot in temps:
        physical.setdefault(slot, first)
    return physical, used


def _sub_chain_temps(lowered: LoweredProgram) -> dict[TensorSlot, None]:
    """The temps that control-flow sub-chains read or write, in order of first use."""
    found: dict[TensorSlot, None] = {}
    for chain in lowered.sub_chains:
        for node in chain:
            for slot, _ in slots_of(node):
                if slot.kind == SlotKind.TEMP:
                    found.setdefault(slot)
    return found


def slots_of(ir_node: Any) -> Iterable[tuple[TensorSlot, str]]:
    """(slot, role) for every tensor slot an IR node reads or writes."""
    return ((slot, role) for slot, role in node_slots(ir_node) if isinstance(slot, TensorSlot))
