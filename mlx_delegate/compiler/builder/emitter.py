"""The API op handlers lower nodes with: slots for the tensors and values they
read and write, compile-time constants, and the IR nodes they emit."""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional, Sequence

import torch
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind
from torch.fx import Node

from ...formats.ir import schema as ir
from .deferred import DeferredConstant, active_session
from .registry import HandlerRegistry
from .signature import constant_value, input_spec
from .slots import (
    CompileTimeConstant,
    SlotKind,
    TensorSlot,
    Unsupported,
    ValueSlot,
    check_graph_dtype,
    ir_dtype,
    tensor_bytes,
)


def constant_key(raw: bytes) -> str:
    """The named-data key of a constant's bytes: named by content, so equal
    constants are stored once."""
    return "mlxd_" + hashlib.sha256(raw).hexdigest()[:40]


@dataclass
class LoweredProgram:
    """What handlers emitted: IR nodes over logical slots, in program order.
    Graph passes rewrite it; the finaliser numbers it into an `MLXGraph`."""

    instructions: list = field(default_factory=list)
    tensor_slots: list[TensorSlot] = field(default_factory=list)
    value_slots: list[ValueSlot] = field(default_factory=list)
    inputs: list = field(default_factory=list)  # TensorSlot | ValueSlot, in input order
    outputs: list[TensorSlot] = field(default_factory=list)
    # named-data key -> bytes, or a DeferredConstant in an export session
    constants: dict[str, Any] = field(default_factory=dict)
    # result -> operand whose storage it may take: the result of an in-place
    # op. The finaliser gives both one slot when the operand dies there.
    reuses: dict[TensorSlot, TensorSlot] = field(default_factory=dict)
    # Chains of control-flow nodes (branches, loop bodies): sub_chains[k] is
    # instruction chain k + 1 of the IR, `instructions` being chain 0.
    sub_chains: list[list] = field(default_factory=list)


class Emitter:
    def __init__(self, program: ExportedProgram, registry: HandlerRegistry, *, dry_run: bool):
        self.program = program
        self.registry = registry
        self.dry_run = dry_run  # the partitioner's program holds fake tensors
        # Set while an export writes its constants to an external data file.
        self.session = active_session()
        self.lowered = LoweredProgram()
        self._slots: dict[Node, Any] = {}
        self._chain: Optional[list] = None  # where emit() appends; None: the main chain

    # ---- slots -----------------------------------------------------------

    def new_tensor(self, kind: SlotKind, dtype: torch.dtype, shape: tuple) -> TensorSlot:
        ir_dtype(dtype)  # unsupported dtypes fail here, at the handler that made them
        if kind in (SlotKind.INPUT, SlotKind.OUTPUT, SlotKind.MUTABLE_BUFFER):
            check_graph_dtype(dtype)
        slot = TensorSlot(kind, dtype, tuple(shape))
        self.lowered.tensor_slots.append(slot)
        return slot

    def new_value(self) -> ValueSlot:
        slot = ValueSlot()
        self.lowered.value_slots.append(slot)
        return slot

    def temp(self, dtype: torch.dtype, shape: tuple = ()) -> TensorSlot:
        return self.new_tensor(SlotKind.TEMP, dtype, shape)

    def out(self, node: Node, value: Any = None) -> TensorSlot:
        """A new slot for the tensor `node` produces, bound to the node."""
        value = self.val(node) if value is None else value
        if not isinstance(value, torch.Tensor):
            raise Unsupported(f"{node.name} does not produce a tensor")
        check_graph_dtype(value.dtype)
        slot = self.temp(value.dtype, tuple(value.shape))
        self._slots[node] = slot
        return slot

    def bind(self, node: Node, slot: Any) -> None:
        self._slots[node] = slot

    def reuse(self, result: TensorSlot, operand: TensorSlot) -> None:
        """`result` may be written into `operand`'s storage (an in-place op)."""
        self.lowered.reuses[result] = operand

    def is_bound(self, node: Node) -> bool:
        return node in self._slots

    def slot(self, arg: Any) -> Any:
        if not isinstance(arg, Node):
            raise Unsupported(f"expected a graph value, got {arg!r}")
        slot = self._slots[arg]
        if isinstance(slot, CompileTimeConstant):
            raise Unsupported(f"dtype {slot.dtype} has no MLX equivalent ({arg.name})")
        return slot

    def is_constant(self, node: Any) -> bool:
        """`node` is a constant input (a parameter, buffer or lifted tensor),
        of a dtype MLX has or not."""
        slot = self._slots.get(node) if isinstance(node, Node) else None
        return isinstance(slot, CompileTimeConstant) or (
            isinstance(slot, TensorSlot) and slot.kind == SlotKind.CONSTANT
        )

    def tensor_slot(self, arg: Any) -> TensorSlot:
        slot = self.slot(arg)
        if not isinstance(slot, TensorSlot):
            raise Unsupported(f"{arg} is not a tensor")
        return slot

    def tid(self, arg: Any) -> TensorSlot:
        return self.tensor_slot(arg).tid

    def val(self, node: Node) -> Any:
        return node.meta["val"]

    # ---- constants -------------------------------------------------------

    def constant(self, node: Node) -> Optional[torch.Tensor]:
        """The value of a constant input (a parameter, buffer or lifted tensor),
        None if `node` is none, or in a dry run."""
        spec = self._constant_input(node)
        return None if spec is None else self.real(spec.target, constant_value(self.program, spec))

    def constant_rows(self, node: Node) -> Iterator[torch.Tensor]:
        """`constant(node)` as consecutive slices of its first axis, made one at
        a time where the export's weight source can (`DataSession.real_rows`)."""
        spec = self._constant_input(node)
        if spec is not None and self.session is not None:
            value = constant_value(self.program, spec)
            if value.is_meta:
                yield from self.session.real_rows(spec.target, value)
                return
        yield self.constant(node)

    def _constant_input(self, node: Node):
        """The input spec of `node` if it is a constant input (a parameter,
        buffer or lifted tensor) whose value is asked for (not a dry run)."""
        if self.dry_run or node.op != "placeholder":
            return None
        spec = input_spec(self.program, node.name)
        return None if spec is None or spec.kind == InputKind.USER_INPUT else spec

    def real(self, target: str, value: torch.Tensor) -> torch.Tensor:
        """`value`, or the real tensor a meta tensor of the program stands for."""
        if not value.is_meta:
            return value
        if self.session is None:
            raise Unsupported(f"{target} holds no data (a meta tensor) outside an export session")
        return self.session.real(target, value)

    def add_constant(self, tensor: torch.Tensor) -> str:
        """Named by content, so equal constants are stored once."""
        raw = tensor_bytes(tensor)
        key = constant_key(raw)
        self.lowered.constants.setdefault(key, raw)
        return key

    def store(self, make, dtype: torch.dtype, shape: tuple) -> str:
        """The named-data key of the constant `make()`: made now and named by its
        content, or, in an export session, made when the session writes it."""
        constant = DeferredConstant(make, dtype, tuple(shape))
        if self.session is not None:
            key = self.session.new_key()
            self.lowered.constants[key] = constant
            return key
        try:
            return self.add_constant(constant.tensor())
        except ValueError as e:
            raise Unsupported(f"computed {e}") from None

    def computed_constant(self, make, dtype: torch.dtype, shape: tuple) -> TensorSlot:
        """A constant slot holding `make()`, a tensor computed at compile time from
        constants (e.g. a convolution's weights with a batch norm folded in).
        A dry run only declares the slot."""
        slot = self.new_tensor(SlotKind.CONSTANT, dtype, tuple(shape))
        if not self.dry_run:
            slot.name = self.store(make, dtype, shape)
        return slot

    # ---- IR --------------------------------------------------------------

    def emit(self, ir_node: Any) -> None:
        chain = self.lowered.instructions if self._chain is None else self._chain
        chain.append(ir_node)

    @contextmanager
    def new_chain(self) -> Iterator[int]:
        """Inside the block, `emit` appends to a new instruction chain (a branch
        or loop body a control-flow node names); yields the chain's IR index."""
        chain: list = []
        self.lowered.sub_chains.append(chain)
        outer, self._chain = self._chain, chain
        try:
            yield len(self.lowered.sub_chains)  # chain 0 is the main chain
        finally:
            self._chain = outer

    def lower_inline(self, module: torch.fx.GraphModule, inputs: Sequence) -> list:
        """Lowers the graph of `module` (a control-flow sub-graph) into the
        current chain, its placeholders bound to the slots `inputs`; returns the
        slots of its results. A loop body built around a sub-graph uses this."""
        placeholders = [n for n in module.graph.nodes if n.op == "placeholder"]
        if len(placeholders) != len(inputs):
            raise Unsupported(f"sub-graph takes {len(placeholders)} inputs, got {len(inputs)}")
        for node, slot in zip(placeholders, inputs):
            self.bind(node, slot)
        return self._lower_sub_graph(module)

    def lower_sub_chain(self, module: torch.fx.GraphModule, inputs: Sequence, outputs=None):
        """Lowers the graph of `module` (a control-flow branch or loop body) into
        a new instruction chain, its placeholders bound to the slots `inputs`.
        Returns the chain's IR index and the slots of its results; with
        `outputs` (slots, one per result) the chain ends by copying its results
        into them (`copy_results`)."""
        with self.new_chain() as index:
            results = self.lower_inline(module, inputs)
            if outputs is not None:
                self.copy_results(results, outputs)
        return index, results

    def _lower_sub_graph(self, module: torch.fx.GraphModule) -> list:
        results: list = []
        for node in module.graph.nodes:
            if node.op == "get_attr" and isinstance(getattr(module, node.target), torch.nn.Module):
                pass  # a nested control-flow sub-graph: its node's handler reads it
            elif node.op == "get_attr":
                self.bind(node, self._attribute_constant(module, node))
            elif node.op == "call_function":
                self.lower_with_handler(node)
            elif node.op == "output":
                value = node.args[0]
                results = [
                    self.slot(a) for a in (value if isinstance(value, (list, tuple)) else [value])
                ]
        return results

    def _attribute_constant(self, module: torch.fx.GraphModule, node: Node) -> TensorSlot:
        """A tensor a sub-graph holds as an attribute (ExecuTorch does not lift
        the constants of control-flow sub-graphs into the program's inputs)."""
        tensor = getattr(module, node.target)
        if not isinstance(tensor, torch.Tensor):
            raise Unsupported(f"get_attr {node.target} is not a tensor")
        return self.computed_constant(lambda: tensor, tensor.dtype, tuple(tensor.shape))

    def copy_results(self, results: list, outputs: Sequence) -> None:
        """Copies the slots `results` into `outputs`, all read before any is
        written (a loop body may permute its state)."""
        if len(results) != len(outputs):
            raise Unsupported(f"sub-graph has {len(results)} results, expected {len(outputs)}")
        written = set(outputs)
        # A result that is itself a slot being written is snapshotted first.
        sources = []
        for result in results:
            if not isinstance(result, TensorSlot):
                raise Unsupported("sub-graph results must be tensors")
            if result in written:
                snapshot = self.temp(result.dtype, result.shape)
                self.emit(ir.CopyNode(x=result.tid, out=snapshot.tid))
                result = snapshot
            sources.append(result)
        for source, out in zip(sources, outputs):
            if source.dtype != out.dtype or tuple(source.shape) != tuple(out.shape):
                raise Unsupported("a sub-graph result's dtype or shape differs from its slot's")
            self.emit(ir.CopyNode(x=source.tid, out=out.tid))

    def lower_with_handler(self, node: Node) -> None:
        """Lowers `node` with its target's registered handler (patterns that
        fall back to lowering their nodes one by one use this)."""
        handler = self.registry.lookup(node.target)
        if handler is None:
            raise Unsupported(f"no handler for {node.target}")
        handler(self, node)

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

    # ---- all or nothing --------------------------------------------------

    def checkpoint(self) -> tuple[int, ...]:
        lowered = self.lowered
        chain = lowered.instructions if self._chain is None else self._chain
        return (
            len(chain),
            len(lowered.tensor_slots),
            len(lowered.value_slots),
            len(lowered.sub_chains),
        )

    def rollback(self, mark: tuple[int, ...]) -> None:
        """Forgets what was emitted since `mark`: a failed lowering leaves nothing."""
        chain = self.lowered.instructions if self._chain is None else self._chain
        del chain[mark[0] :]
        del self.lowered.tensor_slots[mark[1] :]
        del self.lowered.value_slots[mark[2] :]
        del self.lowered.sub_chains[mark[3] :]
