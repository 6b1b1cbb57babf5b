"""ProgramBuilder: walks an exported program's FX graph, lowering each node
with its handler (or a pattern covering it) through an `Emitter`, then hands
the lowered program to the graph passes and the finaliser."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Optional

import torch
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind, OutputKind
from torch.fx import Node

from ..._logging import debug
from ..shared_state import SharedState
from ...formats.ir import schema as ir
from .emitter import Emitter, LoweredProgram
from .finalize import finalize
from .registry import HandlerRegistry
from .signature import constant_value, input_spec, mutated_buffers
from .slots import IR_DTYPES, CompileTimeConstant, SlotKind, TensorSlot, Unsupported


@dataclass(frozen=True)
class BuiltProgram:
    graph: Any  # ir.MLXGraph; None in a dry run
    constants: dict[str, Any]  # named-data key -> the tensor's bytes, or a DeferredConstant
    support: dict[str, Optional[str]]  # node name -> None if lowered, else why not
    lowered: Optional[LoweredProgram] = None  # what the finaliser numbered


class ProgramBuilder:
    """`ProgramBuilder(program, registry).build()` compiles; with `dry_run=True`
    it only decides, per node, whether the node can be lowered."""

    def __init__(
        self,
        program: ExportedProgram,
        registry: HandlerRegistry,
        *,
        dry_run: bool = False,
        graph_passes: tuple = (),
        shared_state: Optional[SharedState] = None,
    ):
        """`shared_state`: buffers shared with the program's other methods
        (`mlx_delegate/compiler/shared_state.py`)."""
        self.program = program
        self.shared_state = shared_state
        self.registry = registry
        self.dry_run = dry_run
        self.graph_passes = graph_passes  # each: pass(LoweredProgram) -> None, in place
        self.emitter = Emitter(program, registry, dry_run=dry_run)
        self.support: dict[str, Optional[str]] = {}
        self._buffers: dict[str, TensorSlot] = {}  # mutated buffer name -> its slot

    def build(self) -> BuiltProgram:
        graph = self.program.graph_module.graph
        anchors, inside = match_patterns(graph, self.registry)
        for node in graph.nodes:
            if node.op == "placeholder":
                self._placeholder(node)
            elif node.op == "call_function" and node in inside:
                self.support[node.name] = None  # lowered by the pattern anchored further on
            elif node.op == "call_function" and node in anchors:
                match = anchors[node]
                self._call(node, lambda: match.lower(self.emitter), f"pattern {match.name}")
            elif node.op == "call_function":
                handler = self.registry.lookup(node.target)
                self._call(node, handler and (lambda: handler(self.emitter, node)))
            elif node.op == "output" and not self.dry_run:
                self._outputs(node)
        if self.dry_run:
            return BuiltProgram(None, {}, self.support)
        lowered = self.emitter.lowered
        for graph_pass in self.graph_passes:
            graph_pass(lowered)
        return BuiltProgram(finalize(lowered), dict(lowered.constants), self.support, lowered)

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
        self.emitter.bind(node, self._placeholder_slot(node.meta.get("val")))

    def _attempt(self, lower) -> Optional[str]:
        mark = self.emitter.checkpoint()
        try:
            lower()
            return None
        except Unsupported as why:
            self.emitter.rollback(mark)
            return str(why)

    def _placeholder_slot(self, value: Any) -> Any:
        if isinstance(value, torch.Tensor):
            return self.emitter.temp(value.dtype, tuple(value.shape))
        if isinstance(value, (list, tuple)):
            return [self._placeholder_slot(v) for v in value]
        return self.emitter.new_value()

    def _placeholder(self, node: Node) -> None:
        e = self.emitter
        spec = input_spec(self.program, node.name)
        value = node.meta.get("val")
        if spec is None or spec.kind == InputKind.USER_INPUT:
            if isinstance(value, torch.Tensor):
                slot = e.new_tensor(SlotKind.INPUT, value.dtype, tuple(value.shape))
            else:  # a symbolic or plain scalar input
                slot = e.new_value()
            e.lowered.inputs.append(slot)
        elif spec.kind in (InputKind.PARAMETER, InputKind.BUFFER, InputKind.CONSTANT_TENSOR):
            tensor = constant_value(self.program, spec)  # a meta tensor in a streamed export
            if self._is_shared(spec):
                self._shared_buffer(node, spec.target, tensor)
                return
            mutable = spec.kind == InputKind.BUFFER and spec.target in mutated_buffers(self.program)
            if not mutable and tensor.dtype not in IR_DTYPES:
                # Only read at compile time, by the handlers that can (a float8 weight)
                e.bind(node, CompileTimeConstant(tensor.dtype))
                return
            kind = SlotKind.MUTABLE_BUFFER if mutable else SlotKind.CONSTANT
            slot = e.new_tensor(kind, tensor.dtype, tuple(tensor.shape))
            # The partitioner's program holds fake tensors. A mutable buffer that starts
            # as zeros (a KV cache) stays unnamed: the runtime makes its zeros.
            if not self.dry_run and not (mutable and self._starts_as_zeros(spec.target, tensor)):
                target = spec.target
                slot.name = e.store(lambda: e.real(target, tensor), tensor.dtype, tensor.shape)
            if mutable:
                self._buffers[spec.target] = slot
        else:
            raise Unsupported(f"input kind {spec.kind} is not supported")
        e.bind(node, slot)

    def _is_shared(self, spec) -> bool:
        shared = self.shared_state
        return (
            shared is not None and spec.kind == InputKind.BUFFER and spec.target in shared.buffers
        )

    def _shared_buffer(self, node: Node, target: str, tensor: torch.Tensor) -> None:
        """A buffer the program's methods share: a mutable buffer bound by its
        shared name, written or only read here, never stored (it starts as zeros)."""
        slot = self.emitter.new_tensor(SlotKind.MUTABLE_BUFFER, tensor.dtype, tuple(tensor.shape))
        slot.name = self.shared_state.name(target)
        self._buffers[target] = slot
        self.emitter.bind(node, slot)

    def _starts_as_zeros(self, target: str, tensor: torch.Tensor) -> bool:
        return not self.emitter.real(target, tensor).any()

    def _outputs(self, node: Node) -> None:
        """User outputs get output slots; a buffer mutation is written back into
        its buffer's slot, which persists across executions."""
        e = self.emitter
        specs = self.program.graph_signature.output_specs
        for arg, spec in zip(node.args[0], specs):
            slot = e.slot(arg)
            if not isinstance(slot, TensorSlot):
                raise Unsupported("non-tensor outputs are not supported")
            if spec.kind == OutputKind.BUFFER_MUTATION:
                buffer = self._buffers[spec.target]
                if slot is not buffer:
                    e.emit(ir.CopyNode(x=slot.tid, out=buffer.tid))
                continue
            if slot.kind == SlotKind.TEMP:
                slot.kind = SlotKind.OUTPUT
            else:
                copy = e.new_tensor(SlotKind.OUTPUT, slot.dtype, slot.shape)
                e.emit(ir.CopyNode(x=slot.tid, out=copy.tid))
                slot = copy
            e.lowered.outputs.append(slot)


def match_patterns(graph, registry: HandlerRegistry) -> tuple[dict, set]:
    """Pattern matches by anchor (their last node), and the nodes inside them.
    Later anchors are matched first, so a larger match wins over its parts; a
    node inside a match must have no user outside it."""
    anchors, inside = {}, set()
    for node in reversed(graph.nodes):
        if node.op != "call_function" or node in inside:
            continue
        for pattern in registry.patterns():
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


def _target_name(target: Any) -> str:
    if target is operator.getitem:
        return "getitem"
    return getattr(target, "__name__", str(target))
