"""MLXPartitioner: tags the nodes that the program builder can lower.

Support is decided by running the very builder that compiles, in dry-run mode,
so the partitioner and preprocess cannot disagree."""

from __future__ import annotations

import re
from typing import Callable, Optional

import torch
from executorch.exir.backend.compile_spec_schema import CompileSpec
from executorch.exir.backend.partitioner import DelegationSpec, Partitioner, PartitionResult
from executorch.exir.backend.utils import tag_constant_data, tag_mutated_buffer
from torch.export import ExportedProgram
from torch.export.graph_signature import OutputKind
from torch.fx import Node
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase

from .._logging import debug, debug_enabled
from .builder import ProgramBuilder, target_key
from .ops import default_registry
from .passes import rewrite_non_core_ops
from .run_ahead import RunAhead
from .shared_state import SharedState
from .preprocess import BACKEND_ID, COMPILE_SPEC, JOIN_SPEC

# The device strings the delegate parses (runtime_cpp/src/host/parsing.cpp). A
# program runs on one device; several devices are several processes
# (mlx_delegate/llm/tensor_parallel.py, launch.py).
_DEVICE = re.compile(r"auto|(cpu|gpu)(:[0-9]{1,6})?")


class MLXPartitioner(Partitioner):
    def __init__(
        self,
        compile_specs: Optional[list[CompileSpec]] = None,
        *,
        device: Optional[str] = None,
        compile: Optional[bool] = None,
        shared_state: Optional[SharedState] = None,
        run_ahead: Optional[RunAhead] = None,
        join_products: Optional[bool] = None,
    ):
        """`device`: where the program runs ("cpu", "gpu:0"; the best backend
        when unset). `compile=False` runs the program instruction by
        instruction instead of as compiled functions (for debugging; the
        results are the same). `run_ahead`: the next call the program
        predicts, which the runtime starts before this one returns
        (`run_ahead.py`). `join_products=False` keeps products of one input
        apart (`passes/lowered/join_products.py`; for benchmarks, the results
        are the same)."""
        specs = list(compile_specs or [])
        if device is not None:
            if not _DEVICE.fullmatch(device):
                raise ValueError(
                    f"device {device!r}: expected cpu, gpu, cpu:N, gpu:N or auto "
                    "(N: the global index over the loaded backends, checked at load time); "
                    "a model over several devices runs as a process a device (llm --tp)"
                )
            specs.append(CompileSpec("device", device.encode()))
        if compile is not None:
            specs.append(CompileSpec(COMPILE_SPEC, b"1" if compile else b"0"))
        if join_products is not None:
            specs.append(CompileSpec(JOIN_SPEC, b"1" if join_products else b"0"))
        if shared_state is not None:
            specs.append(shared_state.compile_spec())
        if run_ahead is not None:
            specs.append(run_ahead.compile_spec())
        super().__init__()
        self.delegation_spec = DelegationSpec(BACKEND_ID, specs)

    def transform_for_pre_decomposition(self, exported_program: ExportedProgram) -> ExportedProgram:
        return rewrite_non_core_ops(exported_program)

    def ops_to_not_decompose(
        self, ep: ExportedProgram
    ) -> tuple[list, Optional[Callable[[Node], bool]]]:
        """The ops we lower whole, less those with a node in `ep` that we cannot
        lower (those decompose, everywhere in `ep`).

        The decision is per program, never per node: a per-node filter makes
        ExecuTorch swap each kept node for an `EDGE_DO_NOT_DECOMP` copy and
        re-trace, and that copy's meta function lays its output out differently
        from the op's own (SDPA: contiguous, where CPU flash attention's layout
        made `attn.transpose(1, 2)` contiguous). A `view` that export recorded
        after such a node then fails ("Cannot view a tensor with shape ...").
        Kept whole without a filter, each op keeps its own meta through every
        re-trace, so the strides export saw stay true."""
        keep = default_registry().keep_whole()
        refused = _unlowerable_targets(ep, {target_key(op) for op in keep})
        kept = [op for op in keep if target_key(op) not in refused]
        debug("ops kept whole: %s", ", ".join(str(op) for op in kept))
        if refused:
            debug(
                "decomposed instead (a node of theirs cannot be lowered): %s",
                ", ".join(sorted(map(str, refused))),
            )
        return kept, None

    def partition(self, exported_program: ExportedProgram) -> PartitionResult:
        supported = supported_nodes(exported_program)
        graph_module = exported_program.graph_module
        if debug_enabled():
            debug("graph:\n%s", graph_module.graph)
        proposer = CapabilityBasedPartitioner(
            graph_module, _Support(supported), allows_single_node_partition=True
        )
        tags = {}
        for partition in proposer.propose_partitions():
            tag = f"mlx_{partition.id}"
            for node in partition.nodes:
                node.meta["delegation_tag"] = tag
                _tag_sub_graphs(node, tag)
            tags[tag] = self.delegation_spec
        tag_constant_data(exported_program)
        tag_mutated_buffer(exported_program)  # the delegate owns buffers it writes in place
        _tag_written_only_buffers(exported_program)
        debug("%d partition(s)", len(tags))
        return PartitionResult(tagged_exported_program=exported_program, partition_tags=tags)


def _tag_written_only_buffers(program: ExportedProgram) -> None:
    """A buffer the program writes whole and never reads (Whisper's encoder
    writes the cross-attention state its decoder reads: shared_state.py) has
    no user for `tag_mutated_buffer` to follow: it goes with the partition
    that computes its new value, which then writes it in place."""
    signature = program.graph_signature
    placeholders = {n.name: n for n in program.graph_module.graph.nodes if n.op == "placeholder"}
    by_buffer = {b: placeholders.get(i) for i, b in signature.inputs_to_buffers.items()}
    output = program.graph_module.graph.output_node()
    for value, spec in zip(output.args[0], signature.output_specs):
        if spec.kind != OutputKind.BUFFER_MUTATION:
            continue
        buffer = by_buffer.get(spec.target)
        source = _unwrapped(value)
        tag = source.meta.get("delegation_tag") if isinstance(source, Node) else None
        if buffer is not None and tag and "delegation_tag" not in buffer.meta:
            buffer.meta["delegation_tag"] = tag


def _unwrapped(value):
    """The node a delegate output comes out of (through getitem)."""
    import operator

    if isinstance(value, Node) and value.target is operator.getitem:
        return value.args[0]
    return value


def supported_nodes(program: ExportedProgram) -> set[str]:
    """Names of the call_function nodes the builder lowers, less runtime values
    (sizes, item()) that would have to leave a delegate: a delegate outputs tensors."""
    support = ProgramBuilder(program, default_registry(), dry_run=True).build().support
    supported = {name for name, reason in support.items() if reason is None}
    nodes = {n.name: n for n in program.graph_module.graph.nodes}
    changed = True
    while changed:
        changed = False
        for name in list(supported):
            node = nodes[name]
            if isinstance(node.meta.get("val"), torch.Tensor):
                continue
            if any(user.name not in supported for user in node.users if user.op != "output") or any(
                user.op == "output" for user in node.users
            ):
                supported.discard(name)
                changed = True
                debug("node %s: not delegated (a runtime value used outside the delegate)", name)
    return supported


def _tag_sub_graphs(node: Node, tag: str) -> None:
    """A control-flow node's sub-graphs (`get_attr` arguments) go into its
    delegate with it: the delegate lowers them into chains of its own."""
    for arg in node.args:
        if isinstance(arg, Node) and arg.op == "get_attr":
            arg.meta["delegation_tag"] = tag


class _Support(OperatorSupportBase):
    def __init__(self, supported: set[str]):
        self.supported = supported

    def is_node_supported(self, submodules, node: Node) -> bool:
        return node.op == "call_function" and node.name in self.supported


def _unlowerable_targets(program: ExportedProgram, candidates: set) -> set:
    """Keys of the `candidates` targets that have a node in `program` which a
    dry run of the builder does not lower (a dtype MLX lacks, an argument the
    handler refuses)."""
    support = ProgramBuilder(program, default_registry(), dry_run=True).build().support
    return {
        target_key(n.target)
        for n in program.graph_module.graph.nodes
        if n.op == "call_function"
        and target_key(n.target) in candidates
        and support.get(n.name) is not None
    }
