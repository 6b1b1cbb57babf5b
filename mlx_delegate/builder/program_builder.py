"""MLXProgramBuilder: walks an exported program's FX graph and emits IR nodes.

Slots are allocated as logical objects while walking and numbered at the end,
in the global order constants -> inputs -> outputs -> mutable buffers -> temps;
temp slots are then shared by temps whose lifetimes do not overlap."""

from __future__ import annotations

import enum
import hashlib
import operator
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

import torch
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind, OutputKind
from torch.fx import Node

from .._logging import debug
from ..ir import TORCH_DTYPES, inspector, schema
from .registry import REGISTRY

ir = schema


class Unsupported(Exception):
    """Raised by a handler for a node it cannot lower; the message says why."""


class SlotKind(enum.IntEnum):
    CONSTANT = 0
    INPUT = 1
    OUTPUT = 2
    MUTABLE_BUFFER = 3
    TEMP = 4


@dataclass(eq=False)
class TensorSlot:
    kind: SlotKind
    dtype: torch.dtype
    shape: tuple
    name: Optional[str] = None  # named-data key of a constant or mutable buffer
    tid: Any = field(default_factory=lambda: ir.Tid(idx=0))


@dataclass(eq=False)
class ValueSlot:
    vid: Any = field(default_factory=lambda: ir.Vid(idx=0))


# What the compiler lowers: every IR dtype but the wide unsigned ones, which
# few PyTorch ops accept.
TORCH_TO_DTYPE = {
    dtype: ir.DType(code)
    for code, dtype in TORCH_DTYPES.items()
    if dtype not in (torch.uint16, torch.uint32, torch.uint64)
}


def ir_dtype(dtype: torch.dtype):
    try:
        return TORCH_TO_DTYPE[dtype]
    except KeyError:
        raise Unsupported(f"dtype {dtype} has no MLX equivalent") from None


@dataclass(frozen=True)
class BuiltProgram:
    graph: Any  # ir.MLXGraph
    constants: dict[str, bytes]  # named-data key -> the tensor's bytes
    support: dict[str, Optional[str]]  # node name -> None if lowered, else why not


class ProgramBuilder:
    def __init__(self, program: ExportedProgram, *, dry_run: bool = False):
        self.program = program
        self.dry_run = dry_run
        self.instructions: list[Any] = []
        self.tensor_slots: list[TensorSlot] = []
        self.value_slots: list[ValueSlot] = []
        self.constants: dict[str, bytes] = {}
        self.support: dict[str, Optional[str]] = {}
        self._slots: dict[Node, Any] = {}
        self._inputs: list[Any] = []
        self._buffers: dict[str, TensorSlot] = {}  # mutated buffer name -> its slot

    # ---- walking ---------------------------------------------------------

    def build(self) -> BuiltProgram:
        graph = self.program.graph_module.graph
        anchors, inside = self._match_patterns(graph)
        for node in graph.nodes:
            if node.op == "placeholder":
                self._placeholder(node)
            elif node.op == "call_function" and node in inside:
                self.support[node.name] = None  # lowered by the pattern anchored further on
            elif node.op == "call_function" and node in anchors:
                match = anchors[node]
                self._call(node, lambda: match.lower(self), f"pattern {match.name}")
            elif node.op == "call_function":
                handler = REGISTRY.lookup(node.target)
                self._call(node, handler and (lambda: handler(self, node)))
            elif node.op == "output":
                if not self.dry_run:
                    self._outputs(node)
        if self.dry_run:
            return BuiltProgram(None, {}, self.support)
        return BuiltProgram(self._finish(), dict(self.constants), self.support)

    def _match_patterns(self, graph) -> tuple[dict, set]:
        """Pattern matches by anchor (their last node), and the nodes inside them.
        Later anchors are matched first, so a larger match wins over its parts; a
        node inside a match must have no user outside it."""
        anchors, inside = {}, set()
        for node in reversed(graph.nodes):
            if node.op != "call_function" or node in inside:
                continue
            for pattern in REGISTRY.patterns():
                match = pattern(node)
                if match is None:
                    continue
                members = set(match.nodes)
                internal = members - {node}
                if internal & inside or any(u not in members for n in internal for u in n.users):
                    continue
                anchors[node] = match
                inside |= internal
                debug(
                    "pattern %s at %s covers %s",
                    match.name,
                    node.name,
                    ", ".join(n.name for n in match.nodes),
                )
                break
        return anchors, inside

    def _call(self, node: Node, lower, what: Optional[str] = None) -> None:
        """Lowers `node` with `lower()` (None: no handler), recording support;
        a failed lowering leaves nothing behind."""
        what = what or _target_name(node.target)
        reason = f"no handler for {what}" if lower is None else self._attempt(lower)
        self.support[node.name] = reason
        debug("node %s (%s): %s", node.name, what, reason or "supported")
        if reason is None:
            return
        if not self.dry_run:
            raise Unsupported(f"{node.name} ({what}): {reason}")
        # Later nodes still need a slot to read, to decide their own support.
        self._slots[node] = self._placeholder_slot(node.meta.get("val"))

    def _attempt(self, lower) -> Optional[str]:
        mark = len(self.instructions), len(self.tensor_slots), len(self.value_slots)
        try:
            lower()
            return None
        except Unsupported as why:
            del self.instructions[mark[0] :]
            del self.tensor_slots[mark[1] :]
            del self.value_slots[mark[2] :]
            return str(why)

    def _placeholder_slot(self, value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            return self.new_tensor(SlotKind.TEMP, value.dtype, tuple(value.shape))
        if isinstance(value, (list, tuple)):
            return [self._placeholder_slot(v) for v in value]
        return self.new_value()

    def _placeholder(self, node: Node) -> None:
        spec = _input_spec(self.program, node.name)
        value = node.meta.get("val")
        if spec is None or spec.kind == InputKind.USER_INPUT:
            if isinstance(value, torch.Tensor):
                slot = self.new_tensor(SlotKind.INPUT, value.dtype, tuple(value.shape))
            else:  # a symbolic or plain scalar input
                slot = self.new_value()
            self._inputs.append(slot)
        elif spec.kind in (InputKind.PARAMETER, InputKind.BUFFER, InputKind.CONSTANT_TENSOR):
            tensor = _constant_value(self.program, spec)
            mutable = spec.kind == InputKind.BUFFER and spec.target in _mutated_buffers(
                self.program
            )
            kind = SlotKind.MUTABLE_BUFFER if mutable else SlotKind.CONSTANT
            slot = self.new_tensor(kind, tensor.dtype, tuple(tensor.shape))
            if not self.dry_run:  # the partitioner's program holds fake tensors
                slot.name = self._add_constant(tensor)  # a mutable buffer's initial value
            if mutable:
                self._buffers[spec.target] = slot
        else:
            raise Unsupported(f"input kind {spec.kind} is not supported")
        self._slots[node] = slot

    def _add_constant(self, tensor: torch.Tensor) -> str:
        """Named by content, so equal constants are stored once."""
        raw = tensor_bytes(tensor)
        key = "mlxd_" + hashlib.sha256(raw).hexdigest()[:40]
        self.constants.setdefault(key, raw)
        return key

    def _outputs(self, node: Node) -> None:
        """User outputs get output slots; a buffer mutation is written back into
        its buffer's slot, which persists across executions."""
        self._output_slots = []
        specs = self.program.graph_signature.output_specs
        for arg, spec in zip(node.args[0], specs):
            slot = self.slot(arg)
            if not isinstance(slot, TensorSlot):
                raise Unsupported("non-tensor outputs are not supported")
            if spec.kind == OutputKind.BUFFER_MUTATION:
                buffer = self._buffers[spec.target]
                if slot is not buffer:
                    self.emit(ir.CopyNode(x=slot.tid, out=buffer.tid))
                continue
            if slot.kind == SlotKind.TEMP:
                slot.kind = SlotKind.OUTPUT
            else:
                copy = self.new_tensor(SlotKind.OUTPUT, slot.dtype, slot.shape)
                self.emit(ir.CopyNode(x=slot.tid, out=copy.tid))
                slot = copy
            self._output_slots.append(slot)

    # ---- API for handlers ------------------------------------------------

    def new_tensor(self, kind: SlotKind, dtype: torch.dtype, shape: tuple) -> TensorSlot:
        ir_dtype(dtype)  # unsupported dtypes fail here, at the handler that made them
        slot = TensorSlot(kind, dtype, shape)
        self.tensor_slots.append(slot)
        return slot

    def new_value(self) -> ValueSlot:
        slot = ValueSlot()
        self.value_slots.append(slot)
        return slot

    def slot(self, arg: Any) -> Any:
        if not isinstance(arg, Node):
            raise Unsupported(f"expected a graph value, got {arg!r}")
        return self._slots[arg]

    def tensor_slot(self, arg: Any) -> TensorSlot:
        slot = self.slot(arg)
        if not isinstance(slot, TensorSlot):
            raise Unsupported(f"{arg} is not a tensor")
        return slot

    def tid(self, arg: Any):
        return self.tensor_slot(arg).tid

    def constant(self, node: Node) -> Optional[torch.Tensor]:
        """The value of a constant input (a parameter, buffer or lifted tensor),
        None if `node` is none, or in a dry run (whose program holds fake tensors)."""
        spec = _input_spec(self.program, node.name) if node.op == "placeholder" else None
        if self.dry_run or spec is None or spec.kind == InputKind.USER_INPUT:
            return None
        return _constant_value(self.program, spec)

    def computed_constant(self, make, dtype: torch.dtype, shape: tuple) -> TensorSlot:
        """A constant slot holding `make()`, a tensor computed at compile time from
        constants (e.g. a convolution's weights with a batch norm folded in).
        A dry run only declares the slot: its program holds fake tensors."""
        slot = self.new_tensor(SlotKind.CONSTANT, dtype, tuple(shape))
        if not self.dry_run:
            tensor = make()
            if tensor.dtype != dtype or tuple(tensor.shape) != tuple(shape):
                raise Unsupported(
                    f"computed constant is {tensor.dtype}{tuple(tensor.shape)}, "
                    f"declared {dtype}{tuple(shape)}"
                )
            slot.name = self._add_constant(tensor)
        return slot

    def val(self, node: Node) -> Any:
        return node.meta["val"]

    def out(self, node: Node, value: Any = None) -> TensorSlot:
        """A new slot for the tensor `node` produces, bound to the node."""
        value = self.val(node) if value is None else value
        if not isinstance(value, torch.Tensor):
            raise Unsupported(f"{node.name} does not produce a tensor")
        slot = self.new_tensor(SlotKind.TEMP, value.dtype, tuple(value.shape))
        self._slots[node] = slot
        return slot

    def temp(self, dtype: torch.dtype, shape: tuple = ()) -> TensorSlot:
        return self.new_tensor(SlotKind.TEMP, dtype, shape)

    def bind(self, node: Node, slot: Any) -> None:
        self._slots[node] = slot

    def emit(self, ir_node: Any) -> None:
        self.instructions.append(ir_node)

    def int_or_vid(self, value: Any):
        if isinstance(value, ValueSlot):
            return ir.IntOrVid(vid=value.vid)
        if isinstance(value, Node):
            slot = self.slot(value)
            if not isinstance(slot, ValueSlot):
                raise Unsupported(f"{value} is not a runtime integer")
            return ir.IntOrVid(vid=slot.vid)
        if isinstance(value, torch.SymInt):
            raise Unsupported("symbolic integer without a producing node")
        return ir.IntOrVid(literal=int(value))

    def float_or_vid(self, value: Any):
        if isinstance(value, Node):
            slot = self.slot(value)
            if not isinstance(slot, ValueSlot):
                raise Unsupported(f"{value} is not a runtime scalar")
            return ir.FloatOrVid(vid=slot.vid)
        return ir.FloatOrVid(literal=float(value))

    def full(self, value: Any, dtype: torch.dtype, shape: Sequence = ()) -> TensorSlot:
        """A tensor filled with a Python scalar or a runtime value."""
        slot = self.temp(dtype, tuple(shape))
        self.emit(
            ir.FullNode(
                out=slot.tid,
                shape=[self.int_or_vid(d) for d in shape],
                value=self.float_or_vid(value),
                dtype=ir_dtype(dtype),
            )
        )
        return slot

    def cast(self, slot: TensorSlot, dtype: torch.dtype) -> TensorSlot:
        if slot.dtype == dtype:
            return slot
        out = self.temp(dtype, slot.shape)
        self.emit(ir.AsTypeNode(x=slot.tid, out=out.tid, dtype=ir_dtype(dtype)))
        return out

    def operand(self, arg: Any, dtype: torch.dtype) -> TensorSlot:
        """A tensor operand in `dtype`: a graph tensor (cast if needed), or a
        Python/runtime scalar materialized as a 0-d tensor."""
        if isinstance(arg, Node) and isinstance(self.slot(arg), TensorSlot):
            return self.cast(self.slot(arg), dtype)
        return self.full(arg, dtype)

    # ---- numbering -------------------------------------------------------

    def _finish(self):
        order = sorted(self.tensor_slots, key=lambda s: s.kind)  # stable: creation order per kind
        counts = {kind: sum(1 for s in order if s.kind == kind) for kind in SlotKind}
        for idx, slot in enumerate(s for s in order if s.kind != SlotKind.TEMP):
            slot.tid.idx = idx
        first_temp = len(order) - counts[SlotKind.TEMP]
        num_temps = self._assign_temps(first_temp)
        for idx, slot in enumerate(self.value_slots):
            slot.vid.idx = idx
        meta = [self._meta(s) for s in order if s.kind != SlotKind.TEMP]
        meta += [ir.TensorMeta() for _ in range(num_temps)]
        graph = ir.MLXGraph(
            num_constant_tensors=counts[SlotKind.CONSTANT],
            num_input_tensors=counts[SlotKind.INPUT],
            num_output_tensors=counts[SlotKind.OUTPUT],
            num_mutable_buffer_tensors=counts[SlotKind.MUTABLE_BUFFER],
            num_temp_tensors=num_temps,
            num_values=len(self.value_slots),
            instruction_chains=[
                ir.InstructionChain(instructions=[ir.Instruction(op=n) for n in self.instructions])
            ],
            input_map=[_slot_ref(s) for s in self._inputs],
            output_map=[_slot_ref(s) for s in self._output_slots],
            mutable_buffer_map=[_slot_ref(s) for s in order if s.kind == SlotKind.MUTABLE_BUFFER],
            named_slots=[
                ir.NamedSlot(name=s.name, slot=s.tid)
                for s in order
                if s.kind in (SlotKind.CONSTANT, SlotKind.MUTABLE_BUFFER)
            ],
            tensor_meta=meta,
        )
        debug(
            "built %d instructions, tensor slots %s, %d temps after reuse, %d values",
            len(self.instructions),
            {k.name: v for k, v in counts.items()},
            num_temps,
            len(self.value_slots),
        )
        return graph

    def _meta(self, slot: TensorSlot):
        shape = [
            ir.IntOrVid(literal=int(d) if not isinstance(d, torch.SymInt) else -1)
            for d in slot.shape
        ]
        return ir.TensorMeta(shape=shape, dtype=ir_dtype(slot.dtype))

    def _assign_temps(self, first: int) -> int:
        """Gives temps physical ids from `first` on, reusing an id once the last
        reader of its previous temp has run. Returns how many ids were used."""
        by_tid = {id(s.tid): s for s in self.tensor_slots if s.kind == SlotKind.TEMP}
        last_read: dict[int, int] = {}
        written_at: dict[int, int] = {}
        for index, node in enumerate(self.instructions):
            for tid, role in _tids(node):
                if id(tid) in by_tid:
                    if role == "output":
                        written_at.setdefault(id(tid), index)
                    last_read[id(tid)] = index
        creation_order = {key: i for i, key in enumerate(by_tid)}
        free: list[int] = []
        used = 0
        releases: dict[int, list[int]] = {}
        physical: dict[int, int] = {}
        for index in range(len(self.instructions)):
            for key in sorted(
                (k for k, at in written_at.items() if at == index), key=creation_order.__getitem__
            ):
                if free:
                    physical[key] = free.pop()
                else:
                    physical[key] = first + used
                    used += 1
                releases.setdefault(last_read[key], []).append(physical[key])
            # ids whose last reader is this instruction are free for later writers
            free.extend(sorted(releases.pop(index, []), reverse=True))
        for key, slot in by_tid.items():
            slot.tid.idx = physical.get(key, first)
        return used


def tensor_bytes(tensor: torch.Tensor) -> bytes:
    data = tensor.detach().contiguous().cpu()
    return data.reshape(-1).view(torch.uint8).numpy().tobytes() if data.numel() else b""


def _tids(ir_node: Any) -> Iterable[tuple[Any, str]]:
    """(Tid, role) for every tensor slot an IR node reads ("input") or writes ("output")."""
    info = inspector.OPS_BY_TABLE[type(ir_node).__name__]
    for f in info.fields:
        if f.role == "literal":
            continue
        value = getattr(ir_node, f.name)
        for item in value if isinstance(value, list) else [value]:
            yield from ((tid, f.role) for tid in _nested_tids(item))


def _nested_tids(value: Any) -> Iterable[Any]:
    if isinstance(value, ir.Tid):
        yield value
    elif isinstance(value, ir.TidOrVid) and value.tid is not None:
        yield value.tid


def _slot_ref(slot: Any):
    if isinstance(slot, TensorSlot):
        return ir.SlotRef(kind=ir.SlotKind.Tensor, idx=slot.tid.idx)
    return ir.SlotRef(kind=ir.SlotKind.Value, idx=slot.vid.idx)


def _target_name(target: Any) -> str:
    if target is operator.getitem:
        return "getitem"
    return getattr(target, "__name__", str(target))


def _input_spec(program: ExportedProgram, name: str):
    return next((s for s in program.graph_signature.input_specs if s.arg.name == name), None)


def _constant_value(program: ExportedProgram, spec) -> torch.Tensor:
    if spec.target in program.state_dict:
        return program.state_dict[spec.target]
    return program.constants[spec.target]


def _mutated_buffers(program: ExportedProgram) -> set[str]:
    return {
        s.target
        for s in program.graph_signature.output_specs
        if s.kind == OutputKind.BUFFER_MUTATION
    }
