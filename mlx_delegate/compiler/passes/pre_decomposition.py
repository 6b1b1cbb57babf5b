"""Rewrites applied to an ATen program before ExecuTorch decomposes it
(`Partitioner.transform_for_pre_decomposition`).

ExecuTorch keeps an op whole (`ops_to_not_decompose`) only if its default
decomposition table lists it, so an op that is neither core ATen nor in that
table cannot be kept, and the edge verifier rejects it. Each such op we meet
in models is rewritten here into core ops with the same result (or, where no
core op computes it, into an op of ours that only the delegate runs)."""

from __future__ import annotations

import copy
import operator
from typing import Optional

import torch
from torch.export import ExportedProgram
from torch.fx import Graph, Node

from .adaptive_max_pool import REWRITES as ADAPTIVE_MAX_POOL_REWRITES

aten = torch.ops.aten


@torch.library.custom_op("mlx_delegate::cumprod", mutates_args=())
def cumprod(x: torch.Tensor, dim: int, dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """aten.cumprod, which no core op computes: lowered to MLX's cumprod, it
    has no portable kernel (as aten.cumprod has none)."""
    return torch.cumprod(x, dim, dtype=dtype)


@cumprod.register_fake
def _cumprod_fake(x: torch.Tensor, dim: int, dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    return torch.cumprod(x, dim, dtype=dtype)


def _cumprod(graph: Graph, node: Node) -> Node:
    dim = node.args[1] if len(node.args) > 1 else node.kwargs["dim"]
    return _call(
        graph, torch.ops.mlx_delegate.cumprod.default, node.args[0], dim, node.kwargs.get("dtype")
    )


def _sort_stable(graph: Graph, node: Node) -> Node:
    """sort.stable (and argsort.stable, which ExecuTorch decomposes into it) as
    sort.default: the delegate's ascending and descending sorts are stable."""
    dim = node.kwargs.get("dim", -1)
    descending = node.kwargs.get("descending", False)
    result = _call(graph, aten.sort.default, node.args[0], dim, descending)
    if node.target is aten.argsort.stable:
        return _call(graph, operator.getitem, result, 1)
    return result


def _remainder_scalar_tensor(graph: Graph, node: Node) -> Node:
    """remainder(scalar, x): the scalar as a 0-d tensor of the result's dtype."""
    scalar, other = node.args
    value = node.meta["val"]
    lhs = graph.call_function(aten.full.default, ([], scalar), {"dtype": value.dtype})
    lhs.meta["val"] = value.new_full((), scalar)
    return _call(graph, aten.remainder.Tensor, lhs, other)


def _round_decimals(graph: Graph, node: Node) -> Node:
    """round(x, decimals=d): x * 10^d rounded, / 10^d (x / 10^-d, * 10^-d for
    d < 0), which is how PyTorch's kernel and MLX's round compute it."""
    x = node.args[0]
    decimals = int(node.kwargs.get("decimals", node.args[1] if len(node.args) > 1 else 0))
    scale = 10.0 ** abs(decimals)
    into, back = (
        (aten.mul.Tensor, aten.div.Tensor) if decimals >= 0 else (aten.div.Tensor, aten.mul.Tensor)
    )
    scaled = _call(graph, into, x, scale)
    rounded = _call(graph, aten.round.default, scaled)
    return _call(graph, back, rounded, scale)


def _call(graph: Graph, target, *args) -> Node:
    """A new node calling `target`, with the fake value the verifier wants."""
    node = graph.call_function(target, args)
    node.meta["val"] = target(*(a.meta["val"] if isinstance(a, Node) else a for a in args))
    return node


REWRITES = {
    aten.round.decimals: _round_decimals,
    aten.cumprod.default: _cumprod,
    aten.sort.stable: _sort_stable,
    aten.argsort.stable: _sort_stable,
    aten.remainder.Scalar_Tensor: _remainder_scalar_tensor,
    **ADAPTIVE_MAX_POOL_REWRITES,
}


def rewrite_non_core_ops(program: ExportedProgram) -> ExportedProgram:
    """`program` with every op of REWRITES rewritten (itself if it has none)."""
    if not any(_rewritable(n) for n in program.graph_module.graph.nodes):
        return program
    graph_module = copy.deepcopy(program.graph_module)  # the caller's program stays as it was
    graph = graph_module.graph
    renamed = {}
    for node in list(graph.nodes):
        if not _rewritable(node):
            continue
        with graph.inserting_before(node):
            replacement = REWRITES[node.target](graph, node)
        replacement.meta.update({k: v for k, v in node.meta.items() if k != "val"})
        node.replace_all_uses_with(replacement)
        renamed[node.name] = replacement.name
        graph.erase_node(node)
    graph_module.recompile()
    signature = copy.deepcopy(program.graph_signature)
    for spec in signature.output_specs:  # outputs are named by their node
        if getattr(spec.arg, "name", None) in renamed:
            spec.arg.name = renamed[spec.arg.name]
    return program._update(graph_module, signature)


def _rewritable(node: Node) -> bool:
    return node.op == "call_function" and node.target in REWRITES
