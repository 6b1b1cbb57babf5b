"""Mixture-of-experts layers: the chosen experts' matrices multiplied where
they are, with MLX's gather_mm / gather_qmm, instead of copied per token.

transformers' `batched_mm` experts (integrations/moe.py) gather, for each of
the S = tokens x top-k (token, expert) pairs, a copy of the expert's weight,
then multiply in one batch:

    bmm(W[ids], x.unsqueeze(-1))     W (E, out, in), x (S, in): (S, out, 1)
    bmm(x.unsqueeze(1), W[ids])      W (E, in, out) ("transposed" experts)

`W[ids]` is aten.index.Tensor (or index_select on axis 0), the copy: S weight
matrices, for a prefill of T tokens T x top-k of them. Matched here, the gather
and the product become one GatherMMNode whose right operand is the stack W
itself, indexed by `ids` inside the product:

    bmm(W[ids], y)  = (gather_mm(y^T, W^T, rhs_indices=ids))^T
    bmm(y, W[ids])  =  gather_mm(y,   W,   rhs_indices=ids)

(the transposes are views MLX reads in either layout). Where W is a torchao
`dequantize_affine` of int4/int8 expert weights quantized in groups along
their last axis (block size [1, 1, group]), the product is a GatherQMMNode
over the weights packed as QuantizedLinearNode packs them, computed in float32
as quantized.py explains; `transpose` says which axis holds the groups.

The routing around it (softmax or sigmoid scores, top-k, normalisation,
group-limited choice, shared experts) is ordinary ops lowered by their own
handlers."""

from __future__ import annotations

from typing import Optional

import torch
from torch.fx import Node

from ..builder import Emitter, HandlerRegistry, PatternMatch, TensorSlot, Unsupported
from ...formats.ir import schema as ir
from .common import calls, repeated_along_new_axis, same_size
from .quantized import _cast_result, _compute_result, affine_weight, compute_dtype, repacked

HANDLERS = HandlerRegistry()

SWAP_LAST = [0, 2, 1]  # (batch, rows, cols) -> (batch, cols, rows)


def _expert_gather(node) -> Optional[tuple[Node, Node]]:
    """(the stack of expert weights, the expert ids) when `node` gathers whole
    matrices of a 3-D stack by a 1-D integer index: W[ids] or
    index_select(W, 0, ids)."""
    if calls(node, "aten::index.Tensor"):
        stack, indices = node.args[:2]
        if len(indices) != 1 or not isinstance(indices[0], Node):
            return None
        ids = indices[0]
    elif calls(node, "aten::index_select") and node.args[1] == 0:
        stack, ids = node.args[0], node.args[2]
    else:
        return None
    stack_val, ids_val = stack.meta.get("val"), ids.meta.get("val")
    if not isinstance(stack_val, torch.Tensor) or not isinstance(ids_val, torch.Tensor):
        return None
    if stack_val.dim() != 3 or ids_val.dim() != 1:
        return None
    if ids_val.dtype.is_floating_point or ids_val.dtype == torch.bool:
        return None
    return stack, ids


def _transposed(b: Emitter, slot: TensorSlot) -> TensorSlot:
    shape = tuple(slot.shape[i] for i in SWAP_LAST)
    out = b.temp(slot.dtype, shape)
    b.emit(ir.TransposeNode(x=slot.tid, out=out.tid, perm=SWAP_LAST))
    return out


@HANDLERS.register_pattern
def gathered_experts_matmul(node: Node) -> Optional[PatternMatch]:
    """bmm(W[ids], y) or bmm(y, W[ids]) with W a stack of expert matrices."""
    if not calls(node, "aten::bmm"):
        return None
    left, right = node.args[:2]
    for weights_first, gather, activations in ((True, left, right), (False, right, left)):
        found = _expert_gather(gather)
        if found is None or not isinstance(activations, Node):
            continue
        stack, ids = found
        try:
            weight = affine_weight(stack, ndim=3)
        except Unsupported:
            weight = None
        if weight is not None:
            lower = _quantized_lowering(node, weights_first, weight, ids, activations)
            return PatternMatch("gathered_experts_qmm", (stack, gather, node), lower)
        lower = _lowering(node, weights_first, stack, ids, activations)
        return PatternMatch("gathered_experts_mm", (gather, node), lower)
    return None


def _token_rows(activations: Node, ids: Node) -> Optional[tuple[Node, Node]]:
    """(x, choice) when the right operand of bmm(W[ids], y) is each token's row
    once per chosen expert, as `Experts.forward` (mlx_delegate/llm/model.py)
    makes it: y = x[:, None].expand(T, k, D).reshape(T * k, D)[..., None], with
    ids = choice.reshape(-1), x (T, D) and choice (T, k). The product then reads
    x in place, broadcast over the k experts by the gathered product itself,
    instead of a copy of the row per (token, expert) pair."""
    if not (calls(activations, "aten::unsqueeze_copy") and activations.args[1] in (2, -1)):
        return None
    found = repeated_along_new_axis(activations.args[0], 1)
    if found is None or not calls(ids, "aten::view_copy", "aten::_unsafe_view"):
        return None
    (x, expanded), choice = found, ids.args[0]
    x_val, choice_val = x.meta.get("val"), choice.meta.get("val")
    if not isinstance(x_val, torch.Tensor) or not isinstance(choice_val, torch.Tensor):
        return None
    if x_val.dim() != 2 or choice_val.dim() != 2:
        return None
    shape = expanded.meta["val"].shape
    if not all(same_size(a, b) for a, b in zip(shape, (*choice_val.shape, x_val.shape[1]))):
        return None
    return x, choice


def _left_rows(
    b: Emitter, activations: Node, ids: Node, dtype: torch.dtype
) -> tuple[TensorSlot, TensorSlot]:
    """The left operand and the expert ids of bmm(W[ids], y) as a gathered
    product: each token's row (T, 1, 1, D) with the (T, k) choice where
    `_token_rows` finds them, else y's rows (S, 1, D) with the (S,) ids."""
    found = _token_rows(activations, ids)
    if found is None:
        return _transposed(b, b.operand(activations, dtype)), b.tensor_slot(ids)
    x, choice = b.operand(found[0], dtype), b.tensor_slot(found[1])
    rows = b.temp(dtype, (x.shape[0], 1, 1, x.shape[1]))
    b.emit(ir.ExpandDimsNode(x=x.tid, out=rows.tid, axes=[1, 2]))
    return rows, choice


def _product(b: Emitter, rows: TensorSlot, choice: TensorSlot, outputs: int) -> TensorSlot:
    """Where the gathered product of `rows` by the chosen experts' (outputs,
    inputs) matrices goes: (S, 1, outputs) or (T, k, 1, outputs)."""
    return b.temp(rows.dtype, (*choice.shape, 1, outputs))


def _into_result(b: Emitter, product: TensorSlot, result: TensorSlot) -> None:
    """bmm's (S, outputs, 1) from the product's (S, 1, outputs) or (T, k, 1,
    outputs): the same values in the same order, a view either way."""
    if len(product.shape) == 3:
        b.emit(ir.TransposeNode(x=product.tid, out=result.tid, perm=SWAP_LAST))
        return
    shape = [
        ir.IntOrVid(literal=-1),
        ir.IntOrVid(literal=int(result.shape[1])),
        ir.IntOrVid(literal=1),
    ]
    b.emit(ir.ReshapeNode(x=product.tid, out=result.tid, shape=shape))


def _lowering(node: Node, weights_first: bool, stack: Node, ids: Node, activations: Node):
    def lower(b: Emitter) -> None:
        weights, y = b.tensor_slot(stack), b.tensor_slot(activations)
        if weights.dtype != y.dtype:
            raise Unsupported(f"expert weights {weights.dtype} with {y.dtype} activations")
        if not weights_first:
            b.emit(
                ir.GatherMMNode(a=y.tid, b=weights.tid, out=b.out(node).tid, rhs_indices=b.tid(ids))
            )
            return
        result = b.out(node)
        rows, choice = _left_rows(b, activations, ids, y.dtype)
        product = _product(b, rows, choice, result.shape[1])
        b.emit(
            ir.GatherMMNode(
                a=rows.tid,
                b=_transposed(b, weights).tid,
                out=product.tid,
                rhs_indices=choice.tid,
            )
        )
        _into_result(b, product, result)

    return lower


def _quantized_lowering(node: Node, weights_first: bool, weight, ids: Node, activations: Node):
    """W's groups run along its last axis: along the inputs of bmm(W[ids], y)
    (MLX's transpose=True, x @ W^T), along the outputs of bmm(y, W[ids])
    (transpose=False, x @ W)."""

    def lower(b: Emitter) -> None:
        dtype = compute_dtype(b, node)
        w, scales, biases = repacked(b, weight, dtype)
        result = _compute_result(b, node, dtype)
        if weights_first:
            x, choice = _left_rows(b, activations, ids, dtype)
            product = _product(b, x, choice, result.shape[1])
        else:
            x, choice, product = b.operand(activations, dtype), b.tensor_slot(ids), result
        b.emit(
            ir.GatherQMMNode(
                x=x.tid,
                w=w.tid,
                scales=scales.tid,
                biases=biases.tid,
                out=product.tid,
                rhs_indices=choice.tid,
                transpose=weights_first,
                group_size=weight.group_size,
                bits=weight.bits,
            )
        )
        if weights_first:
            _into_result(b, product, result)
        _cast_result(b, node, result)

    return lower
