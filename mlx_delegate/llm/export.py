"""Export a local checkpoint to one `.pte` that serves prefill and decode.

One method, `forward`, with a dynamic token count T (1 .. max_seq_len - 1):
prefill passes the prompt, decode passes one token. We chose one method over
two (prefill + decode) because a delegate's mutable buffers belong to its
method's program: two methods would hold two KV caches, or need state shared
between delegate instances. One method keeps one cache and one copy of the
weights, and MLX handles the dynamic T without recompiling anything.

Metadata travels as constant methods (`get_max_seq_len`, `get_vocab_size`,
`get_bos_id`, `get_eos_ids`, `get_family`), which the Python and the C++
generators read."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional

import torch

from . import checkpoint
from .sampling import Generator

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}


@dataclasses.dataclass
class ExportResult:
    path: Path
    size: int
    parameters: int
    delegates: int
    ops_outside: list[str]


def example_inputs(length: int = 2) -> tuple:
    return (
        torch.ones(1, length, dtype=torch.long),
        torch.tensor([0]),
        torch.tensor([0.0]),
        torch.tensor([1.0]),
        torch.tensor([0.5]),
    )


def export_program(
    model_dir: Path,
    out: Path,
    dtype: str = "fp32",
    quantize: Optional[str] = None,
    group_size: int = 32,
    max_seq_len: int = 256,
    device: Optional[str] = None,
    split_mlps: int = 0,
) -> ExportResult:
    """`split_mlps` N > 1: every MLP split over N devices (tensor-parallel,
    `mlx_delegate.parallel`); run the program on a group of N devices."""
    from executorch.exir import to_edge_transform_and_lower

    from .._progress import steps
    from ..partitioner import MLXPartitioner

    names = ["load", "split", "quantize", "torch.export", "lower", "serialize"]
    if not quantize:
        names.remove("quantize")
    if split_mlps <= 1:
        names.remove("split")
    with steps(f"export {Path(model_dir).name}", names) as step:
        step("load")
        model = checkpoint.load(model_dir, max_seq_len, DTYPES[dtype])
        if split_mlps > 1:  # before quantizing: the parts' weights are plain tensors to slice
            from ..parallel import split_mlps as split

            step("split")
            split(model, split_mlps)
        if quantize:
            from .quantize import quantize_weights

            step("quantize")
            quantize_weights(model, quantize, group_size)
        parameters = sum(p.numel() for p in model.parameters())
        step("torch.export")
        exported = _exported(model, max_seq_len)
        step("lower")
        edge = to_edge_transform_and_lower(
            exported,
            partitioner=[MLXPartitioner(device=device)],
            constant_methods=_metadata(model, max_seq_len),
        )
        delegates, outside = _delegation(edge)
        step("serialize")
        buffer = edge.to_executorch().buffer
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(buffer)
    return ExportResult(out, len(buffer), parameters, delegates, outside)


def _exported(model, max_seq_len: int) -> torch.export.ExportedProgram:
    """The generator exported with a dynamic token count (1 .. max_seq_len - 1)."""
    from torch.export import Dim

    tokens = Dim("tokens", min=1, max=max_seq_len - 1)
    with torch.no_grad():
        return torch.export.export(
            Generator(model),
            example_inputs(),
            dynamic_shapes=({1: tokens}, None, None, None, None),
        )


def _metadata(model, max_seq_len: int) -> dict:
    """The constant methods the generators read."""
    c = model.c
    return {
        "get_max_seq_len": max_seq_len,
        "get_vocab_size": c.vocab_size,
        "get_bos_id": -1 if c.bos_token_id is None else c.bos_token_id,
        "get_eos_ids": list(c.eos_token_ids) or [-1],
        "get_family": c.family,
    }


def _delegation(edge) -> tuple[int, list[str]]:
    """(number of delegate calls, names of the ops left outside) of `forward`."""
    import operator

    delegates, outside = 0, []
    for node in edge.exported_program().graph_module.graph.nodes:
        if node.op != "call_function" or node.target is operator.getitem:
            continue
        if "executorch_call_delegate" in str(node.target):
            delegates += 1
        else:
            outside.append(str(node.target))
    return delegates, outside
