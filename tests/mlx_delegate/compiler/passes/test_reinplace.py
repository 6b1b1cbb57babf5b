"""The re-inplacing pass: which nodes become in-place (graph before and after),
that every in-place variant registered is produced by an op case, and that an
in-place result shares its operand's slot in the IR."""

from __future__ import annotations

import pytest
import torch
from executorch.exir import to_edge, to_edge_transform_and_lower

from mlx_delegate.compiler.builder import ProgramBuilder, target_key
from mlx_delegate.compiler.ops import default_registry, inplace
from mlx_delegate.compiler.partitioner import MLXPartitioner
from mlx_delegate.compiler.passes.reinplace import reinplace
from testbench.cases import all_cases
from testbench.framework import Lambda


def edge_program(fn, *args):
    class Fn(torch.nn.Module):
        def forward(self, *inputs):
            return fn(*inputs)

    return to_edge(torch.export.export(Fn(), args)).exported_program()


def call_targets(program) -> list[str]:
    return [
        str(target_key(n.target)).removeprefix("aten::")
        for n in program.graph_module.graph.nodes
        if n.op == "call_function"
    ]


X = torch.randn(3, 4)


def test_an_operand_that_dies_is_written_in_place():
    program = edge_program(lambda x: (x * x).relu().sin(), X)
    assert call_targets(program) == ["mul.Tensor", "relu", "sin"]
    assert reinplace(program, default_registry()) == 2
    assert call_targets(program) == ["mul.Tensor", "relu_", "sin_"]


def test_an_operand_read_later_or_an_input_is_not():
    # t = x * x is read after the relu; cos reads the input x
    program = edge_program(lambda x: (lambda t: t.relu() + t)(x * x) + x.cos(), X)
    assert call_targets(program) == ["mul.Tensor", "relu", "add.Tensor", "cos", "add.Tensor"]
    assert reinplace(program, default_registry()) == 2
    assert call_targets(program) == ["mul.Tensor", "relu", "add_.Tensor", "cos", "add_.Tensor"]


def test_a_result_of_another_dtype_is_not():
    program = edge_program(lambda x: (x * x).to(torch.float16).sin(), X)
    assert reinplace(program, default_registry()) == 1  # only the sin
    assert call_targets(program)[-1] == "sin_"


CASE = all_cases()["in_place"]


@pytest.mark.parametrize("config", CASE.configs(), ids=lambda c: c.label)
def test_op_case_produces_its_variant(config):
    """The program our partitioner hands the delegate, re-inplaced as
    preprocess does, holds the variant the configuration is named after."""
    module = Lambda(config.args["fn"])
    exported = torch.export.export(module, CASE.inputs(config))
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner()])
    (delegated,) = [
        m.original_module
        for m in edge.exported_program().graph_module.children()
        if hasattr(m, "original_module")
    ]
    reinplace(delegated, default_registry())
    assert config.label in call_targets(delegated)


def test_every_in_place_variant_has_an_op_case():
    variants = {str(k).removeprefix("aten::") for k in inplace.HANDLERS.handlers()}
    labels = {c.label for c in CASE.configs()}
    assert variants == {label.removesuffix(".default") for label in labels}


def test_in_place_result_shares_its_operands_slot():
    program = edge_program(lambda x: (x * x).relu() * 3, X)
    reinplace(program, default_registry())
    graph = ProgramBuilder(program, default_registry()).build().graph
    mul, relu = (i.op for i in graph.instruction_chains[0].instructions[:2])
    assert type(relu).__name__ == "ReluNode"
    assert relu.x.idx == mul.out.idx == relu.out.idx
