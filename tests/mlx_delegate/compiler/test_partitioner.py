"""Ops kept whole (`ops_to_not_decompose`) survive ExecuTorch's re-traces.

Each kept-whole target gets a model whose output of the op is transposed or
permuted and then reshaped or viewed, the shape of every attention block in
`transformers`: export records `reshape`/`contiguous` as a bare `view` when the
eager kernel's output layout allows it, and the lowered program must still
build, keep the op as one node, and compute what eager computes."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from executorch.exir import to_edge_transform_and_lower
from executorch.runtime import Runtime

import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
from mlx_delegate.compiler.ops import default_registry
from mlx_delegate.compiler.builder.registry import target_key
from mlx_delegate.tools.inspector import delegates, describe
from mlx_delegate.compiler.partitioner import MLXPartitioner
from testbench.framework import Lambda, check_delegation, Config

aten = torch.ops.aten


def _attention(q, k, v):
    b, _, s, _ = q.shape
    a = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
    return a.transpose(1, 2).contiguous().reshape(b, s, -1)


def _conv2d(x, w):
    y = F.conv2d(x, w, padding=1)  # (N, C, H, W) -> channels last, flattened per pixel
    return y.permute(0, 2, 3, 1).contiguous().view(y.shape[0], -1, y.shape[1])


def _repeat_interleave(x):
    counts = torch.tensor([1, 0, 2])  # a lifted constant: the indices are computed at compile time
    y = torch.repeat_interleave(x, counts, dim=1, output_size=3)
    return y.transpose(1, 2).reshape(2, -1)


# target key -> (function, input shapes, the IR op the delegate must contain)
CASES = {
    "aten::scaled_dot_product_attention": (
        _attention,
        [(1, 8, 24, 16), (1, 2, 24, 16), (1, 2, 24, 16)],
        "ScaledDotProductAttention",
    ),
    "aten::linear": (
        lambda x, w: F.linear(x, w).transpose(1, 2).reshape(2, -1),
        [(2, 5, 16), (32, 16)],
        "Linear",
    ),
    "aten::matmul": (
        lambda a, b: torch.matmul(a, b).permute(2, 0, 1).contiguous().view(-1),
        [(2, 4, 8), (8, 6)],
        "Matmul",
    ),
    "aten::mm": (lambda a, b: torch.mm(a, b).t().contiguous().view(-1), [(4, 8), (8, 6)], "Matmul"),
    "aten::bmm": (
        lambda a, b: torch.bmm(a, b).transpose(0, 2).reshape(6, -1),
        [(3, 4, 8), (3, 8, 6)],
        "Matmul",
    ),
    "aten::layer_norm": (
        lambda x: F.layer_norm(x, (16,)).transpose(0, 1).reshape(-1, 16),
        [(2, 5, 16)],
        "LayerNorm",
    ),
    "aten::rms_norm": (
        lambda x: F.rms_norm(x, (16,), eps=1e-6).permute(1, 0, 2).contiguous().view(5, -1),
        [(2, 5, 16)],
        "RmsNorm",
    ),
    "aten::conv1d": (
        lambda x, w: F.conv1d(x, w).transpose(1, 2).reshape(2, -1),
        [(2, 4, 10), (6, 4, 3)],
        "Conv",
    ),
    "aten::conv2d": (_conv2d, [(1, 3, 6, 6), (8, 3, 3, 3)], "Conv"),
    "aten::stack": (
        lambda a, b: torch.stack([a, b], dim=1).transpose(0, 2).reshape(-1),
        [(2, 3, 4), (2, 3, 4)],
        "Stack",
    ),
    "aten::tril": (lambda x: torch.tril(x).t().contiguous().view(-1), [(5, 5)], "Tril"),
    "aten::triu": (lambda x: torch.triu(x, 1).t().contiguous().view(-1), [(5, 5)], "Triu"),
    "aten::all": (lambda x: torch.all(x > 0).reshape(1), [(3, 4)], "All"),
    "aten::sum": (lambda x: torch.sum(x).reshape(1), [(3, 4)], "Sum"),
    "aten::isposinf": (lambda x: torch.isposinf(x / 0).t().reshape(-1), [(3, 4)], "IsPosInf"),
    "aten::isneginf": (lambda x: torch.isneginf(x / 0).t().reshape(-1), [(3, 4)], "IsNegInf"),
    "aten::max": (lambda x: torch.max(x).reshape(1), [(3, 4)], "Max"),
    "aten::min": (lambda x: torch.min(x).reshape(1), [(3, 4)], "Min"),
    "aten::all.dim": (lambda x: torch.all(x > -2, dim=1).t().reshape(-1), [(3, 4, 5)], "All"),
    "aten::all.dims": (lambda x: torch.all(x > -2, dim=(0, 2)).reshape(-1), [(3, 4, 5)], "All"),
    "aten::std.correction": (
        lambda x: torch.std(x, dim=1, correction=0).t().reshape(-1),
        [(3, 4, 5)],
        "Std",
    ),
    "aten::std.dim": (
        lambda x: torch.std(x, dim=[1], unbiased=True).t().reshape(-1),
        [(3, 4, 5)],
        "Std",
    ),
    "aten::silu": (lambda x: F.silu(x).transpose(1, 2).reshape(2, -1), [(2, 3, 4)], "Silu"),
    "aten::gelu": (
        lambda x: F.gelu(x, approximate="tanh").transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "Gelu",
    ),
    "aten::leaky_relu": (
        lambda x: F.leaky_relu(x, 0.2).transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "LeakyRelu",
    ),
    "aten::hardtanh": (
        lambda x: F.hardtanh(x, -0.5, 0.5).transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "Clip",
    ),
    "aten::upsample_nearest1d.vec": (
        lambda x: F.interpolate(x, scale_factor=2).transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "Upsample",
    ),
    "aten::upsample_linear1d.vec": (
        lambda x: F.interpolate(x, size=7, mode="linear").transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "Upsample",
    ),
    "aten::upsample_nearest3d.vec": (
        lambda x: F.interpolate(x, scale_factor=2).permute(0, 2, 3, 4, 1).reshape(-1, 2),
        [(1, 2, 2, 2, 3)],
        "Upsample",
    ),
    "aten::sgn": (lambda x: torch.sgn(x).transpose(1, 2).reshape(2, -1), [(2, 3, 4)], "Sign"),
    "aten::square": (
        lambda x: torch.square(x).transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "Square",
    ),
    "aten::logaddexp": (
        lambda a, b: torch.logaddexp(a, b).transpose(1, 2).reshape(2, -1),
        [(2, 3, 4), (2, 3, 4)],
        "LogAddExp",
    ),
    "aten::logsumexp": (
        lambda x: torch.logsumexp(x, dim=1).t().reshape(-1),
        [(3, 4, 5)],
        "LogSumExp",
    ),
    "aten::hardswish": (
        lambda x: F.hardswish(x * 4).transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "Clip",
    ),
    "aten::hardsigmoid": (
        lambda x: F.hardsigmoid(x * 4).transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "Clip",
    ),
    "aten::mish": (lambda x: F.mish(x).transpose(1, 2).reshape(2, -1), [(2, 3, 4)], "LogAddExp"),
    "aten::softplus": (
        lambda x: F.softplus(x * 10, beta=2.0, threshold=5.0).transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "LogAddExp",
    ),
    "aten::roll": (
        lambda x: torch.roll(x, shifts=(1, -2), dims=(1, 2)).permute(0, 2, 1).reshape(2, -1),
        [(2, 3, 4)],
        "Roll",
    ),
    "aten::repeat_interleave.self_Tensor": (_repeat_interleave, [(2, 3, 4)], "Take"),
    "aten::argsort": (
        lambda x: torch.argsort(x, dim=1).transpose(0, 1).reshape(-1).float(),
        [(3, 5)],
        "Sort",
    ),
    "aten::avg_pool1d": (
        lambda x: F.avg_pool1d(x, 3, 2, padding=1).transpose(1, 2).reshape(2, -1),
        [(2, 3, 8)],
        "Pool",
    ),
    "aten::max_pool1d": (
        lambda x: F.max_pool1d(x, 2).transpose(1, 2).reshape(2, -1),
        [(2, 3, 8)],
        "Pool",
    ),
    "aten::max_pool1d_with_indices": (
        lambda x: F.max_pool1d(x, 3, 1, return_indices=True)[0].transpose(1, 2).reshape(2, -1),
        [(2, 3, 8)],
        "Pool",
    ),
    "aten::conv3d": (
        lambda x, w: F.conv3d(x, w, padding=1).permute(0, 2, 3, 4, 1).reshape(-1, 4),
        [(1, 2, 3, 3, 3), (4, 2, 3, 3, 3)],
        "Conv",
    ),
    "aten::conv_transpose1d": (
        lambda x, w: F.conv_transpose1d(x, w, stride=2, output_padding=1)
        .transpose(1, 2)
        .reshape(2, -1),
        [(2, 4, 5), (4, 3, 3)],
        "Conv",
    ),
    "aten::conv_transpose2d.input": (
        lambda x, w: F.conv_transpose2d(x, w, stride=2, padding=1)
        .permute(0, 2, 3, 1)
        .reshape(-1, 3),
        [(1, 2, 4, 4), (2, 3, 3, 3)],
        "Conv",
    ),
    "aten::conv_transpose3d.input": (
        lambda x, w: F.conv_transpose3d(x, w).permute(0, 2, 3, 4, 1).reshape(-1, 3),
        [(1, 2, 2, 2, 2), (2, 3, 2, 2, 2)],
        "Conv",
    ),
    "aten::repeat_interleave.self_int": (
        lambda x: torch.repeat_interleave(x, 2, dim=1).transpose(1, 2).reshape(2, -1),
        [(2, 3, 4)],
        "Take",
    ),
    "aten::upsample_nearest2d": (
        lambda x: aten.upsample_nearest2d(x, [5, 7]).permute(0, 2, 3, 1).reshape(-1, 2),
        [(1, 2, 3, 3)],
        "Upsample",
    ),
    "aten::upsample_trilinear3d.vec": (
        lambda x: F.interpolate(x, size=(3, 4, 5), mode="trilinear", align_corners=True)
        .permute(0, 2, 3, 4, 1)
        .reshape(-1, 2),
        [(1, 2, 2, 2, 3)],
        "Upsample",
    ),
}


def test_every_kept_whole_target_has_a_case():
    kept = {target_key(op) for op in default_registry().keep_whole()}
    assert kept - set(CASES) == set(), "add a case for each target kept whole"


def _lowered_ops(pte: bytes) -> list[str]:
    ops = []
    for _, payload, specs, _ in delegates(pte):
        lines = [line.split() for line in describe(payload, specs)]
        ops += [words[1].split("(")[0] for words in lines if words and words[0].isdigit()]
    return ops


def _delegated_targets(edge) -> set:
    """Keys of the targets of the nodes that the delegates took."""
    return {
        target_key(node.target)
        for module in edge.exported_program().graph_module.children()
        if hasattr(module, "original_module")
        for node in module.original_module.graph.nodes
        if node.op == "call_function"
    }


@pytest.mark.parametrize("target", sorted(CASES))
def test_kept_whole_output_transposed_then_viewed(target):
    fn, shapes, ir_op = CASES[target]
    model = Lambda(fn).eval()
    gen = torch.Generator().manual_seed(0)
    inputs = tuple(torch.randn(shape, generator=gen) for shape in shapes)
    edge = to_edge_transform_and_lower(
        torch.export.export(model, inputs, strict=False), partitioner=[MLXPartitioner()]
    )
    assert check_delegation(edge.exported_program().graph_module, Config(target)) is None
    assert target in _delegated_targets(edge), f"{target} was not kept whole"
    pte = edge.to_executorch().buffer
    assert ir_op in _lowered_ops(pte), f"{target} was not lowered to {ir_op}"
    program = Runtime.get().load_program(pte)
    (got,) = program.load_method("forward").execute(list(inputs))
    torch.testing.assert_close(got, fn(*inputs), rtol=1e-4, atol=1e-4)


def test_a_kept_target_that_cannot_be_lowered_is_decomposed():
    """rms_norm over two axes is refused by its handler: it decomposes into ops
    we lower, rather than staying whole outside the delegate."""
    fn = lambda x: F.rms_norm(x, (4, 8), eps=1e-6).transpose(0, 1).reshape(4, -1)  # noqa: E731
    x = torch.randn(3, 4, 8)
    edge = to_edge_transform_and_lower(
        torch.export.export(Lambda(fn), (x,)), partitioner=[MLXPartitioner()]
    )
    assert check_delegation(edge.exported_program().graph_module, Config("rms_norm_2d")) is None
    pte = edge.to_executorch().buffer
    assert "RmsNorm" not in _lowered_ops(pte)
    (got,) = Runtime.get().load_program(pte).load_method("forward").execute([x])
    torch.testing.assert_close(got, fn(x), rtol=1e-4, atol=1e-4)


def test_the_compile_spec_switches_compiled_chains_off():
    from executorch.exir.backend.compile_spec_schema import CompileSpec

    model = Lambda(lambda x: torch.tanh(x) * 2 + 1)
    x = torch.randn(3, 4)
    for kwargs, shown in (
        ({}, "compiled"),
        ({"compile": True}, "compiled"),
        ({"compile": False}, "interpreted"),
    ):
        pte = (
            to_edge_transform_and_lower(
                torch.export.export(model, (x,)), partitioner=[MLXPartitioner(**kwargs)]
            )
            .to_executorch()
            .buffer
        )
        ((_, payload, specs, _),) = list(delegates(pte))
        assert f"  chains run {shown}" in describe(payload, specs)
    bad = MLXPartitioner([CompileSpec("compile", b"yes")])
    with pytest.raises(Exception, match="compile spec 'compile' takes b'0' or b'1'"):
        to_edge_transform_and_lower(torch.export.export(model, (x,)), partitioner=[bad])


def test_the_device_goes_into_the_compile_spec():
    specs = MLXPartitioner(device="gpu:1").delegation_spec.compile_specs
    assert [(s.key, s.value) for s in specs] == [("device", b"gpu:1")]
    for bad in ("cuda:1", "gpu:", "gpu:-1", "gpu1", "gpu:0,gpu:1"):
        with pytest.raises(ValueError, match=r"expected cpu, gpu, cpu:N, gpu:N or auto .*llm --tp"):
            MLXPartitioner(device=bad)
