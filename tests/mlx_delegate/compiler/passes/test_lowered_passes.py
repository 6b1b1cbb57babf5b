"""Each graph pass over lowered programs, shown on the program before and
after it runs (dead code removed after each, as the compiler does)."""

from __future__ import annotations

import pytest
import torch
from executorch.exir import EdgeCompileConfig, to_edge

from mlx_delegate.compiler.builder import ProgramBuilder, SlotKind
from mlx_delegate.compiler.ops import default_registry
from mlx_delegate.compiler.passes.lowered import (
    collapse_casts,
    collapse_views,
    eliminate_common_subexpressions,
    join_sibling_products,
    remove_dead_code,
    remove_noops,
    skip_index_casts,
    write_buffers_in_place,
)
from mlx_delegate.compiler.passes.lowered.casts import widens
from mlx_delegate.compiler.passes.lowered.listing import listing
from mlx_delegate.formats.ir import schema as ir
from testbench.op_cases_nn import with_stats
from testbench.op_cases_quant import quantized


class Fn(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


class WritesCache(torch.nn.Module):
    """A buffer updated at a position, then read (a KV cache's shape of use);
    `read_old`: the old value is read too, before the update or after it."""

    def __init__(self, read_old: str = ""):
        super().__init__()
        self.register_buffer("cache", torch.zeros(4, 3))
        self.read_old = read_old

    def forward(self, position, value):
        old = self.cache.sum(0) if self.read_old == "before" else None
        updated = self.cache.index_copy(0, position, value)
        if self.read_old == "after":
            old = self.cache.sum(0)
        self.cache.copy_(updated)
        return updated.sum(0) if old is None else updated.sum(0) - old


def lowered(module: torch.nn.Module, *args, keep_linear: bool = False):
    """`keep_linear`: linear layers stay whole, as the partitioner keeps them
    (the edge dialect decomposes them otherwise)."""
    preserve = [torch.ops.aten.linear.default] if keep_linear else []
    config = EdgeCompileConfig(preserve_ops=preserve, _check_ir_validity=not keep_linear)
    program = to_edge(torch.export.export(module, args), compile_config=config)
    return ProgramBuilder(program.exported_program(), default_registry()).build().lowered


def before_and_after(graph_pass, module, *args, keep_linear: bool = False) -> tuple[str, str]:
    program = lowered(module, *args, keep_linear=keep_linear)
    before = listing(program)
    graph_pass(program)
    remove_dead_code(program)
    return before, listing(program)


X = torch.randn(2, 3, 4)


def test_collapse_views_reshape_of_reshape():
    before, after = before_and_after(
        collapse_views, Fn(lambda x: x.reshape(6, 4).reshape(24) * x.reshape(24)), X
    )
    assert before.splitlines()[:2] == [
        "t0 = ReshapeNode(x=in0, shape=[6, 4])",
        "t1 = ReshapeNode(x=t0, shape=[24])",
    ]
    assert after.splitlines()[0] == "t1 = ReshapeNode(x=in0, shape=[24])"
    assert "shape=[6, 4]" not in after


def test_collapse_views_transposes_compose():
    before, after = before_and_after(
        collapse_views, Fn(lambda x: x.permute(1, 2, 0).permute(2, 0, 1).sin()), X
    )
    assert before == "\n".join(
        [
            "t0 = TransposeNode(x=in0, perm=[1, 2, 0])",
            "t1 = TransposeNode(x=t0, perm=[2, 0, 1])",
            "out0 = SinNode(x=t1)",
        ]
    )
    assert after == "t1 = TransposeNode(x=in0, perm=[0, 1, 2])\nout0 = SinNode(x=t1)"
    # the identity left behind is no-op removal's
    program = lowered(Fn(lambda x: x.permute(1, 2, 0).permute(2, 0, 1).sin()), X)
    for graph_pass in (collapse_views, remove_noops, remove_dead_code):
        graph_pass(program)
    assert listing(program) == "out0 = SinNode(x=in0)"


def test_collapse_views_a_transpose_that_moves_only_a_new_axis():
    """Rows made columns and transposed back into rows of one (bmm's form of a
    batch of matrix-vector products): one ExpandDims where the axis ends up."""
    before, after = before_and_after(
        collapse_views, Fn(lambda x: x.reshape(6, 4).unsqueeze(-1).transpose(1, 2).sin()), X
    )
    assert before.splitlines()[1:3] == [
        "t1 = ExpandDimsNode(x=t0, axes=[2])",
        "t2 = TransposeNode(x=t1, perm=[0, 2, 1])",
    ]
    assert after.splitlines()[1] == "t2 = ExpandDimsNode(x=t0, axes=[1])"
    assert "Transpose" not in after


def test_collapse_views_a_select_of_a_transposed_axis():
    """x.transpose(1, 2)[..., 0] is x[:, 0]; a transpose that also reorders the
    axes the Select leaves stays."""
    _, after = before_and_after(collapse_views, Fn(lambda x: x.transpose(1, 2)[..., 0].sin()), X)
    assert after == "t1 = SelectNode(x=in0, axis=1, index=0)\nout0 = SinNode(x=t1)"
    before, after = before_and_after(
        collapse_views, Fn(lambda x: x.permute(2, 0, 1)[..., 0].sin()), X
    )
    assert after == before


def test_collapse_views_a_select_of_an_axis_of_one_a_reshape_made():
    """x.reshape(6, 4, 1)[..., 0] is x.reshape(6, 4); a Select of an axis the
    reshape left longer than one stays."""
    _, after = before_and_after(collapse_views, Fn(lambda x: x.reshape(6, 4, 1)[..., 0].sin()), X)
    assert after == "t1 = ReshapeNode(x=in0, shape=[6, 4])\nout0 = SinNode(x=t1)"
    before, after = before_and_after(collapse_views, Fn(lambda x: x.reshape(6, 4)[:, 0].sin()), X)
    assert after == before


def delegated(module: torch.nn.Module, *args) -> tuple[list[str], list]:
    """The op names of the delegate's main chain, and its outputs, run on the
    CPU plugin through ExecuTorch."""
    import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    from mlx_delegate.compiler.partitioner import MLXPartitioner
    from mlx_delegate.tools.inspector import main_instructions

    program = to_edge_transform_and_lower(
        torch.export.export(module, args), partitioner=[MLXPartitioner()]
    ).to_executorch()
    ops = [str(i).split("(")[0] for i in main_instructions(program.buffer)]
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    return ops, method.execute(list(args))


def test_collapsed_views_compute_what_they_did():
    """Through the delegate, on the CPU plugin: the collapsed forms, with no
    Transpose left, give the eager results."""

    def f(x):
        columns = x.reshape(6, 4).unsqueeze(-1).transpose(1, 2)  # (6, 1, 4)
        rows = columns.sin().transpose(1, 2)[..., 0].reshape(2, 3, 4)
        return rows + x.transpose(1, 2)[..., 1][:, None, :]  # x[:, 1] broadcast over axis 1

    module = Fn(f)
    ops, (out,) = delegated(module, X)
    assert "Transpose" not in ops, ops
    torch.testing.assert_close(out, module(X))


def test_collapse_casts_through_a_widening():
    before, after = before_and_after(collapse_casts, Fn(lambda x: x.half().float().double()), X)
    assert before == "\n".join(
        [
            "t0 = AsTypeNode(x=in0, dtype=Float16)",
            "t1 = AsTypeNode(x=t0, dtype=Float32)",
            "out0 = AsTypeNode(x=t1, dtype=Float64)",
        ]
    )
    assert after == "t0 = AsTypeNode(x=in0, dtype=Float16)\nout0 = AsTypeNode(x=t0, dtype=Float64)"


def test_collapse_casts_keeps_a_narrowing():
    before, after = before_and_after(collapse_casts, Fn(lambda x: x.double().half().float()), X)
    assert before.splitlines()[0] == "t0 = AsTypeNode(x=in0, dtype=Float64)"
    # float32 -> float64 is exact, so it goes; float16 rounds, so that step stays
    assert after == "t1 = AsTypeNode(x=in0, dtype=Float16)\nout0 = AsTypeNode(x=t1, dtype=Float32)"


def test_collapse_casts_makes_a_widened_full_in_its_dtype():
    """A Full is a constant to MLX; its cast would be a kernel. A narrowing
    (which could wrap the value) stays."""
    xi = torch.arange(6).reshape(2, 3)
    before, after = before_and_after(
        collapse_casts, Fn(lambda x: x + torch.full((), 3, dtype=torch.int32).long()), xi
    )
    assert before.splitlines()[:2] == [
        "t0 = FullNode(shape=[], value=3.0, dtype=Int32)",
        "t1 = AsTypeNode(x=t0, dtype=Int64)",
    ]
    assert after == "t1 = FullNode(shape=[], value=3.0, dtype=Int64)\nout0 = AddNode(a=in0, b=t1)"
    narrowing = Fn(lambda x: x + torch.full((), 3, dtype=torch.int64).int())
    before, after = before_and_after(collapse_casts, narrowing, xi.int())
    assert after == before


def test_skip_index_casts_through_views():
    """PyTorch's int64 sort positions, read through a Select and a Reshape as
    indices alone: MLX's 32-bit positions are read instead, and the views pass
    them on in their dtype."""
    program = lowered(Fn(lambda x: x[:, x.argsort(dim=1)[0].reshape(-1)]), torch.randn(2, 5))
    before = listing(program)
    assert "t1 = AsTypeNode(x=t0, dtype=Int64)" in before
    skip_index_casts(program)
    remove_dead_code(program)
    assert listing(program).splitlines()[1:] == [
        "t2 = SelectNode(x=t0, axis=0, index=0)",
        "t3 = ReshapeNode(x=t2, shape=[-1])",
        "out0 = TakeNode(x=in0, indices=t3, axis=1)",
    ]
    views = [node for node in program.instructions if not isinstance(node, ir.TakeNode)][1:]
    assert [node.out.dtype for node in views] == [torch.int32, torch.int32]


def test_skip_index_casts_keeps_a_cast_also_read_as_values():
    def chosen(x):
        ids = x.topk(2, dim=1).indices
        return torch.gather(x, 1, ids), ids + 1

    before, after = before_and_after(skip_index_casts, Fn(chosen), torch.randn(2, 5))
    assert "AsTypeNode(x=t1, dtype=Int64)" in before
    assert after == before


def test_skipped_index_casts_compute_what_they_did():
    """A mixture of experts' routing (top-k, the chosen scores, the chosen
    experts' rows) through the delegate, with no cast left."""

    def route(scores, table):
        ids = scores.topk(2, dim=-1).indices
        rows = table[ids.reshape(-1)].reshape(3, 2, -1)
        return (rows * torch.gather(scores, -1, ids)[..., None]).sum(1)

    module, args = Fn(route), (torch.randn(3, 6), torch.randn(6, 4))
    ops, (out,) = delegated(module, *args)
    assert "AsType" not in ops, ops
    torch.testing.assert_close(out, module(*args))


@pytest.mark.parametrize(
    "source, target, exact",
    [
        (torch.float16, torch.float32, True),
        (torch.bfloat16, torch.float32, True),
        (torch.float16, torch.bfloat16, False),
        (torch.float32, torch.float16, False),
        (torch.int16, torch.float32, True),
        (torch.int32, torch.float32, False),
        (torch.int32, torch.float64, True),
        (torch.uint8, torch.int16, True),
        (torch.int8, torch.uint8, False),
        (torch.bool, torch.int8, True),
        (torch.float32, torch.int64, False),
    ],
)
def test_widens(source, target, exact):
    assert widens(source, target) is exact


def test_cse_merges_repeated_nodes():
    before, after = before_and_after(
        eliminate_common_subexpressions, Fn(lambda x: x.sin() + x.sin()), X
    )
    assert before == "t0 = SinNode(x=in0)\nt1 = SinNode(x=in0)\nout0 = AddNode(a=t0, b=t1)"
    assert after == "t0 = SinNode(x=in0)\nout0 = AddNode(a=t0, b=t0)"


def test_cse_keeps_nodes_with_other_attributes():
    fn = Fn(lambda x: x.sum(0) * x.sum(0, keepdim=True)[0])
    before, after = before_and_after(eliminate_common_subexpressions, fn, X)
    assert before.count("SumNode") == after.count("SumNode") == 2


def test_cse_leaves_reads_of_a_rewritten_buffer():
    # once the cache is written in place, its two sums read two values
    program = lowered(WritesCache(read_old="before"), torch.tensor([1]), torch.ones(1, 3))
    write_buffers_in_place(program)
    before = listing(program)
    assert before.splitlines()[0] == "t0 = SumNode(x=buf0, axes=[0], keepdims=False)"
    assert "buf0 = IndexPutNode(x=buf0" in before
    eliminate_common_subexpressions(program)
    remove_dead_code(program)
    assert listing(program) == before


def test_remove_noops_drops_a_same_shape_reshape():
    before, after = before_and_after(remove_noops, Fn(lambda x: x.reshape(2, 3, 4).cos()), X)
    assert before == "t0 = ReshapeNode(x=in0, shape=[2, 3, 4])\nout0 = CosNode(x=t0)"
    assert after == "out0 = CosNode(x=in0)"


def test_write_buffers_in_place():
    before, after = before_and_after(
        write_buffers_in_place, WritesCache(), torch.tensor([1]), torch.ones(1, 3)
    )
    assert before == "\n".join(
        [
            "t0 = IndexPutNode(x=buf0, indices=in0, values=in1, axis=0)",
            "out0 = SumNode(x=t0, axes=[0], keepdims=False)",
            "buf0 = CopyNode(x=t0)",
        ]
    )
    assert after == "\n".join(
        [
            "buf0 = IndexPutNode(x=buf0, indices=in0, values=in1, axis=0)",
            "out0 = SumNode(x=buf0, axes=[0], keepdims=False)",
        ]
    )


def test_write_buffers_in_place_keeps_the_copy_while_the_old_value_is_read():
    module = WritesCache(read_old="after")
    before, after = before_and_after(
        write_buffers_in_place, module, torch.tensor([1]), torch.ones(1, 3)
    )
    assert "buf0 = CopyNode" in before
    assert before == after


def test_remove_dead_code_drops_constants_no_instruction_reads():
    """A batch norm folded into its convolution leaves the convolution's own
    weight and bias and the statistics unread: they are not stored."""
    model = with_stats(torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4)))
    program = lowered(model, torch.randn(1, 3, 6, 6))
    assert len(program.constants) > 2
    remove_dead_code(program)
    constants = [s for s in program.tensor_slots if s.kind == SlotKind.CONSTANT]
    assert listing(program).startswith("out0 = ConvNode(x=in0, weight=c0, bias=c1")
    assert len(constants) == 2
    assert set(program.constants) == {s.name for s in constants}


class Projections(torch.nn.Module):
    """Three projections of one input, the second without a bias (Whisper's
    key projection), and a fourth of another input."""

    def __init__(self, dim: int = 32):
        super().__init__()
        self.q = torch.nn.Linear(dim, dim)
        self.k = torch.nn.Linear(dim, dim // 2, bias=False)
        self.v = torch.nn.Linear(dim, dim // 2)
        self.other = torch.nn.Linear(dim, dim // 2)

    def forward(self, x, y):
        return self.q(x)[..., : self.k.out_features] * self.k(x) + self.v(x) + self.other(y)


def test_join_sibling_products_stacks_the_weights_and_splits_the_result():
    module = Projections().eval()
    before, after = before_and_after(
        join_sibling_products, module, torch.randn(1, 32), torch.randn(1, 32), keep_linear=True
    )
    assert before.count("LinearNode") == 4
    assert after.splitlines()[:2] == [
        "t7 = LinearNode(x=in0, weight=c2, bias=c3)",
        "[t0, t2, t4] = SplitNode(x=t7, sizes=[32, 16, 16], axis=-1)",
    ]
    assert "LinearNode(x=in1, weight=c0, bias=c1)" in after  # another input: alone
    program = lowered(module, torch.randn(1, 32), torch.randn(1, 32), keep_linear=True)
    join_sibling_products(program)
    remove_dead_code(program)
    weight, bias = (
        _constant_value(program, program.instructions[0], name) for name in ("weight", "bias")
    )
    torch.testing.assert_close(
        weight, torch.cat([module.q.weight, module.k.weight, module.v.weight])
    )
    zeros = torch.zeros(module.k.out_features)
    torch.testing.assert_close(bias, torch.cat([module.q.bias, zeros, module.v.bias]))
    assert set(program.constants) == {
        s.name for s in program.tensor_slots if s.kind == SlotKind.CONSTANT
    }


def _constant_value(program, node, name: str) -> torch.Tensor:
    slot = getattr(node, name)
    raw = bytearray(program.constants[slot.name])
    return torch.frombuffer(raw, dtype=torch.uint8).view(slot.dtype).reshape(slot.shape)


def test_join_sibling_products_leaves_products_it_cannot_join():
    def fn(x, w):
        inner = torch.nn.functional.linear(x, w)  # a weight that is an input, not a constant
        return inner.sum() + torch.nn.functional.linear(x, w * 2).sum()

    module = Fn(fn)
    before, after = before_and_after(
        join_sibling_products, module, torch.randn(2, 8), torch.randn(4, 8), keep_linear=True
    )
    assert after == before
    # other inner sizes: the first product reads x, the second x's first 4 columns
    two = torch.nn.ModuleList([torch.nn.Linear(8, 4), torch.nn.Linear(4, 4)])
    before, after = before_and_after(
        join_sibling_products,
        Fn(lambda x: two[0](x) + two[1](x[:, :4])),
        torch.randn(2, 8),
        keep_linear=True,
    )
    assert after.count("LinearNode") == before.count("LinearNode") == 2


class Gated(torch.nn.Module):
    """An MLP's gate and up projections (the gate's activation written in
    place over its product's result)."""

    def __init__(self):
        super().__init__()
        self.gate = torch.nn.Linear(64, 96, bias=False)
        self.up = torch.nn.Linear(64, 32, bias=False)
        self.down = torch.nn.Linear(96, 64, bias=False)

    def forward(self, x):
        return self.down(torch.nn.functional.silu(self.gate(x)) * self.up(x).repeat(1, 3))


@pytest.mark.parametrize(
    "dtype, bits", [(torch.float32, None), (torch.float32, 4), (torch.bfloat16, 4)]
)
def test_join_sibling_products_gated_mlp(dtype, bits):
    """Quantized (4 bits in groups of 32): one quantized product, its packed
    words, scales and biases stacked along the rows."""
    module = Gated().to(dtype) if bits is None else quantized(Gated(), bits, 32, dtype)
    before, after = before_and_after(
        join_sibling_products, module, torch.randn(1, 64, dtype=dtype), keep_linear=True
    )
    op = "LinearNode" if bits is None else "QuantizedLinearNode"
    assert before.count(f" {op}(") == 3
    assert after.count(f" {op}(") == 2
    assert "SplitNode(x=t" in after and "sizes=[96, 32], axis=-1)" in after


@pytest.mark.parametrize("join", [True, False])
def test_joining_is_a_compile_spec_and_gives_the_same_results(join):
    """`MLXPartitioner(join_products=False)` (what benchmarks compare against)
    keeps the products apart; both programs give eager's results."""
    import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    from mlx_delegate.compiler.partitioner import MLXPartitioner
    from mlx_delegate.tools.inspector import main_instructions

    module, args = Projections().eval(), (torch.randn(1, 1, 32), torch.randn(1, 1, 32))
    partitioner = MLXPartitioner(join_products=None if join else False)
    program = to_edge_transform_and_lower(
        torch.export.export(module, args), partitioner=[partitioner]
    ).to_executorch()
    ops = [str(i).split("(")[0] for i in main_instructions(program.buffer)]
    assert ops.count("Linear") == (2 if join else 4)
    assert ops.count("Split") == (1 if join else 0)
    method = Runtime.get().load_program(program.buffer).load_method("forward")
    torch.testing.assert_close(method.execute(list(args))[0], module(*args), rtol=1e-5, atol=1e-5)


def test_join_sibling_products_leaves_a_fixed_batch_of_rows_apart():
    """Products of a fixed number of rows above one stay apart (their split
    parts would be strided); a symbolic number of rows (an LLM's tokens) joins."""
    module = Projections().eval()
    before, after = before_and_after(
        join_sibling_products, module, torch.randn(4, 32), torch.randn(4, 32), keep_linear=True
    )
    assert after == before
    tokens = torch.export.Dim("tokens", min=1, max=64)
    program = torch.export.export(
        module, (torch.randn(4, 32), torch.randn(4, 32)), dynamic_shapes=({0: tokens}, {0: tokens})
    )
    config = EdgeCompileConfig(
        preserve_ops=[torch.ops.aten.linear.default], _check_ir_validity=False
    )
    edge = to_edge(program, compile_config=config).exported_program()
    symbolic = ProgramBuilder(edge, default_registry()).build().lowered
    join_sibling_products(symbolic)
    assert listing(symbolic).count("LinearNode") == 2
