"""Adaptive max pooling, which is neither core ATen nor decomposed by ExecuTorch
(the edge verifier rejects it), rewritten before decomposition:

- output sizes that divide the input: max_pool{1,2,3}d_with_indices with the
  kernel and stride in / out, the same values and (input-plane) indices;
- otherwise `mlx_delegate::adaptive_max_pool`, an op of ours that only the
  delegate runs (ExecuTorch has no kernel for it, as it has none for
  adaptive_max_pool2d); mlx_delegate/compiler/ops/pooling.py lowers it."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch.fx import Graph, Node

aten = torch.ops.aten

_ADAPTIVE = {1: F.adaptive_max_pool1d, 2: F.adaptive_max_pool2d, 3: F.adaptive_max_pool3d}


@torch.library.custom_op("mlx_delegate::adaptive_max_pool", mutates_args=())
def adaptive_max_pool(x: torch.Tensor, output_size: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """PyTorch's adaptive_max_pool{len(output_size)}d: values and flat indices
    into each input plane."""
    values, indices = _ADAPTIVE[len(output_size)](x, output_size, return_indices=True)
    return values, indices


@adaptive_max_pool.register_fake
def _adaptive_max_pool_fake(x: torch.Tensor, output_size: list[int]):
    shape = (*x.shape[: x.dim() - len(output_size)], *output_size)
    return x.new_empty(shape), x.new_empty(shape, dtype=torch.int64)


_MAX_POOL = {
    1: aten.max_pool1d_with_indices.default,
    2: aten.max_pool2d_with_indices.default,
    3: aten.max_pool3d_with_indices.default,
}


def rewrite_adaptive_max_pool(graph: Graph, node: Node) -> Node:
    x, output_size = node.args[0], [int(o) for o in node.args[1]]
    sizes = x.meta["val"].shape[-len(output_size) :]
    if all(isinstance(s, int) and s % o == 0 for s, o in zip(sizes, output_size)):
        kernel = [s // o for s, o in zip(sizes, output_size)]
        return _call(graph, _MAX_POOL[len(output_size)], x, kernel, kernel)
    return _call(graph, torch.ops.mlx_delegate.adaptive_max_pool.default, x, output_size)


def _call(graph: Graph, target, *args) -> Node:
    node = graph.call_function(target, args)
    node.meta["val"] = target(*(a.meta["val"] if isinstance(a, Node) else a for a in args))
    return node


REWRITES = {
    aten.adaptive_max_pool1d.default: rewrite_adaptive_max_pool,
    aten.adaptive_max_pool2d.default: rewrite_adaptive_max_pool,
    aten.adaptive_max_pool3d.default: rewrite_adaptive_max_pool,
}
