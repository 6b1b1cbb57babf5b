"""Batched op tests: several configurations share one exported program.

Exporting and lowering dominate an op test, and most of that is a fixed cost
per program. So the configurations that expect one delegate and allow nothing
outside it (`batchable`) are packed (`plan`) into one module that takes all
their inputs and returns all their outputs; the batch is exported, lowered and
run once, and each configuration's outputs are compared with its own eager
outputs, with its own case's tolerances.

A configuration passes in a batch only where the batch shows what running it
alone (`run_config`) would:

- its model, inputs and eager outputs are made as alone (`prepare`: the RNG
  seeded before its model is built, inputs from its own seed);
- its dynamic dims are its own, as alone (`_batch_dims`: each configuration's
  Dims renamed, so that two configurations' "batch" are two symbols);
- its ops were lowered as they would be alone: a program-level decision of
  the partitioner (`ops_to_not_decompose` keeps an op whole for the whole
  program) that the batch took differently from a plain program moves every
  configuration with a node of that op out of the batch (`_recorder_class`);
- nothing in the batch runs outside the delegates (a node outside moves its
  configuration out), and the outputs of each configuration come from exactly
  one delegate: with nothing outside, that is `delegates == 1` alone;
- its outputs match.

A configuration moved out, or failing, runs alone (`None` in run_batch's
result: the caller runs `run_config`, which reports any failure as it always
has); the others are batched again without it. A failure that names no
configuration (an exception while exporting, lowering or running) splits the
batch in halves, each retried as a batch, down to configurations alone.

`MLXD_OP_BATCH` sets the largest batch (`1`: every configuration alone);
`MLX_DELEGATE_LOG=debug` logs what each batch did."""

from __future__ import annotations

import functools
import inspect
import operator
import os
import re
from typing import Any, Optional, Sequence

import torch
from torch.export import Dim

from mlx_delegate._logging import debug
from .cases import all_cases
from .framework import (
    Config,
    OpTestCase,
    Outcome,
    _flatten,
    compare,
    crosschecked,
    execute_compiled_and_interpreted,
    prepare,
)

Pair = tuple[OpTestCase, Config]

# Larger batches save more export overhead, smaller ones lose less to a failure
# and share out better between workers.
DEFAULT_BATCH_SIZE = 48


def batch_size() -> int:
    return max(1, int(os.environ.get("MLXD_OP_BATCH", DEFAULT_BATCH_SIZE)))


def batchable(config: Config) -> bool:
    """One delegate and nothing outside it: the configurations whose checks a
    batch can make (several delegates or a fallback are per-program facts)."""
    return config.delegates == 1 and not config.fallback


def all_pairs() -> list[Pair]:
    """Every op-test configuration (cases.all_cases), in the order the runners list them."""
    return [(case, config) for _, case in sorted(all_cases().items()) for config in case.configs()]


def plan(pairs: Sequence[Pair], size: Optional[int] = None) -> list[list[Pair]]:
    """Work units, in order: the batchable configurations in batches of at most
    `size` (consecutive, across cases; those with ExecuTorch's edge checks off
    in batches of their own), every other configuration alone."""
    size = batch_size() if size is None else size
    units, batches = [], {True: [], False: []}
    for pair in pairs:
        if size > 1 and batchable(pair[1]):
            batch = batches[pair[1].edge_checks]
            batch.append(pair)
            if len(batch) == size:
                units.append(list(batch))
                batch.clear()
        else:
            units.append([pair])
    units.extend(batch for batch in batches.values() if batch)
    return units


def run_batch(
    pairs: Sequence[Pair], device: str = "cpu", execute: bool = True
) -> list[Optional[Outcome]]:
    """One result per pair: a passing Outcome where the batch showed the
    configuration passes, None where it must run alone (`run_config`)."""
    results: list[Optional[Outcome]] = [None] * len(pairs)
    _run(list(pairs), list(range(len(pairs))), results, device, execute)
    return results


def _run(pairs: list[Pair], indices: list[int], results: list, device: str, execute: bool) -> None:
    if len(indices) < 2:
        return  # alone: the caller runs it
    members = [pairs[i] for i in indices]
    try:
        passed, again = _attempt(members, device, execute)
    except Exception as error:  # names no configuration: halve
        debug(
            "batch of %d (%s...): %s: %s; halving",
            len(members),
            _name(members[0]),
            type(error).__name__,
            str(error).splitlines()[0] if str(error) else "",
        )
        half = len(indices) // 2
        _run(pairs, indices[:half], results, device, execute)
        _run(pairs, indices[half:], results, device, execute)
        return
    message = "" if execute else "exported (not run)"
    for k in passed:
        case, config = members[k]
        results[indices[k]] = Outcome(case.name, config.label, True, message)
    if again:
        _run(pairs, [indices[k] for k in again], results, device, execute)


class _Unattributed(Exception):
    """A batch problem that names no configuration."""


def _attempt(members: list[Pair], device: str, execute: bool) -> tuple[list[int], list[int]]:
    """Exports, lowers, checks and runs `members` as one program. Returns the
    positions that passed and those to batch again (without the ones moved
    out, which run alone). Raises where the problem names no configuration."""
    from executorch.exir import EdgeCompileConfig, to_edge_transform_and_lower
    from torch.export.graph_signature import OutputKind

    prepared = []  # (position, model, inputs, flat eager outputs)
    for k, (case, config) in enumerate(members):
        try:
            model, inputs, expected = prepare(case, config)
            prepared.append((k, model, inputs, _flatten(expected)))
        except Exception:  # raises alone too, where it is reported
            debug("batch: %s fails before export; alone", _name(members[k]))
    if len(prepared) < 2:
        return [], [p[0] for p in prepared]

    module = _Batch([p[1] for p in prepared], [len(p[2]) for p in prepared]).eval()
    args = tuple(x for p in prepared for x in p[2])
    dims = [d for j, p in enumerate(prepared) for d in _batch_dims(members[p[0]][1], p[1], p[2], j)]
    dynamic = (tuple(dims),) if any(d is not None for d in dims) else None  # forward(*args)
    exported = torch.export.export(module, args, dynamic_shapes=dynamic)
    recorder = _recorder_class()(device, len(prepared))
    (checks,) = {config.edge_checks for _, config in members}  # plan() batches them apart
    edge = to_edge_transform_and_lower(
        exported,
        partitioner=[recorder],
        compile_config=EdgeCompileConfig(_check_ir_validity=checks),
    )
    program = edge.exported_program()
    graph = program.graph_module.graph

    # Nodes outside the delegates, and ops the batch kept whole or decomposed
    # unlike a plain program: their configurations run alone, the others again
    # (what is outside may have split the delegates around it).
    moved = set(recorder.moved)
    for node in graph.nodes:
        if (
            node.op == "call_function"
            and not _is_delegate(node)
            and node.target is not operator.getitem
        ):
            moved.add(_owner(node, len(prepared)))
    if moved:
        debug(
            "batch of %d: %s alone",
            len(members),
            ", ".join(_name(members[prepared[j][0]]) for j in moved),
        )
        return [], [p[0] for j, p in enumerate(prepared) if j not in moved]

    # With nothing outside, each configuration's outputs must come from one delegate.
    output = next(n for n in graph.nodes if n.op == "output")
    user = [
        value
        for value, spec in zip(output.args[0], program.graph_signature.output_specs)
        if spec.kind == OutputKind.USER_OUTPUT
    ]
    counts = [len(p[3]) for p in prepared]
    if len(user) != sum(counts):
        raise _Unattributed(f"{len(user)} outputs, expected {sum(counts)}")
    alone, start = set(), 0
    for j, count in enumerate(counts):
        if len(_delegates_behind(user[start : start + count])) != 1:
            alone.add(j)
        start += count

    pte = edge.to_executorch().buffer
    if execute:
        label = "+".join(_name(members[p[0]]) for p in prepared)
        actual = execute_compiled_and_interpreted(pte, list(args), crosscheck=crosschecked(label))
        if len(actual) != sum(counts):
            raise _Unattributed(f"{len(actual)} outputs at run time, expected {sum(counts)}")
        start = 0
        for j, count in enumerate(counts):
            case = members[prepared[j][0]][0]
            if (
                j not in alone
                and compare(case, prepared[j][3], actual[start : start + count]) is not None
            ):
                alone.add(j)
            start += count
    if alone:
        debug(
            "batch of %d: %s alone",
            len(members),
            ", ".join(_name(members[prepared[j][0]]) for j in alone),
        )
    return [p[0] for j, p in enumerate(prepared) if j not in alone], []


def _batch_dims(config: Config, model: torch.nn.Module, inputs: tuple, position: int) -> list:
    """Each input's dynamic dims ({axis: Dim} or None), in input order, as the
    configuration gives them to export alone, every Dim renamed for its batch
    position: shared Dims (op_spec's BATCH, SEQ...) would make one symbol of
    two configurations' dims, and a conflict of their sizes."""
    spec = config.dynamic_shapes
    if spec is None:
        return [None] * len(inputs)
    parameters = list(inspect.signature(model.forward).parameters.values())
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        spec = spec[0]  # forward(*args): its one argument is the tuple of inputs
    elif isinstance(spec, dict):
        spec = [spec.get(p.name) for p in parameters[: len(inputs)]]
    renamed: dict = {}

    def rename(dim):
        if dim.__name__ not in renamed:
            renamed[dim.__name__] = Dim(f"{dim.__name__}_{position}", min=dim.min, max=dim.max)
        return renamed[dim.__name__]

    return [None if axes is None else {a: rename(d) for a, d in axes.items()} for axes in spec]


class _Batch(torch.nn.Module):
    """The models of several configurations side by side: all their inputs in,
    all their flattened outputs out."""

    def __init__(self, models: list[torch.nn.Module], arities: list[int]):
        super().__init__()
        self.configs = torch.nn.ModuleList(models)  # "configs.<j>" in each node's module stack
        self.arities = arities

    def forward(self, *args):
        outputs, start = [], 0
        for model, arity in zip(self.configs, self.arities):
            outputs += _flatten(model(*args[start : start + arity]))
            start += arity
        return tuple(outputs)


@functools.cache
def _recorder_class():
    # Built on first use: planning (also done by the pytest-xdist controller)
    # imports this module and needs neither ExecuTorch nor the partitioner.
    from mlx_delegate.compiler.partitioner import MLXPartitioner

    class Recorder(MLXPartitioner):
        """MLXPartitioner noting the configurations with a node of an op whose
        keep-whole decision differs from a plain program's (it is taken per
        program, so another configuration of the batch may have caused it)."""

        def __init__(self, device: str, members: int):
            super().__init__(device=device)
            self.members = members
            self.moved: set[int] = set()

        def ops_to_not_decompose(self, ep):
            ops, check = super().ops_to_not_decompose(ep)
            differ = set(ops) ^ _plain_kept(self)
            for node in ep.graph_module.graph.nodes:
                if node.op == "call_function" and (
                    node.target in differ or getattr(node.target, "overloadpacket", None) in differ
                ):
                    self.moved.add(_owner(node, self.members))
            return ops, check

    return Recorder


_PLAIN_KEPT: dict[str, frozenset] = {}


def _plain_kept(partitioner) -> frozenset:
    """What the partitioner keeps whole for a program with nothing to refuse."""
    key = repr([(s.key, s.value) for s in partitioner.delegation_spec.compile_specs])
    if key not in _PLAIN_KEPT:
        from mlx_delegate.compiler.partitioner import MLXPartitioner

        plain = MLXPartitioner(partitioner.delegation_spec.compile_specs)
        program = torch.export.export(_Identity(), (torch.ones(2),)).run_decompositions({})
        _PLAIN_KEPT[key] = frozenset(plain.ops_to_not_decompose(program)[0])
    return _PLAIN_KEPT[key]


class _Identity(torch.nn.Module):
    def forward(self, x):
        return x


_OWNER = re.compile(r"configs\.(\d+)(?:\.|$)")


def _owner(node: torch.fx.Node, members: int) -> int:
    """The batch position of the configuration a node belongs to, from the
    module stack export records (kept by ExecuTorch's passes)."""
    owners = set()
    for value in (node.meta.get("nn_module_stack") or {}).values():
        match = _OWNER.match(value[0] if isinstance(value, tuple) else str(value))
        if match:
            owners.add(int(match.group(1)))
    if len(owners) != 1 or not 0 <= min(owners) < members:
        raise _Unattributed(f"node {node.name} ({node.target}) belongs to no one configuration")
    return owners.pop()


def _is_delegate(node: torch.fx.Node) -> bool:
    return node.op == "call_function" and "executorch_call_delegate" in str(node.target)


def _delegates_behind(values: list[Any]) -> set:
    """The delegate calls that `values` (output nodes) depend on."""
    seen, delegates = set(), set()
    stack = [v for v in values if isinstance(v, torch.fx.Node)]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if _is_delegate(node):
            delegates.add(node)
        stack.extend(node.all_input_nodes)
    return delegates


def _name(pair: Pair) -> str:
    return f"{pair[0].name}[{pair[1].label}]"
