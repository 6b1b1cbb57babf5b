"""The quantization modes of QuantizedLinearNode, DequantizeNode and
GatherQMMNode run by the CPU plugin from hand-built programs, against a NumPy
decoding of each mode's bytes written from the schema's description
(schema/schema.fbs, QuantMode): Mxfp4, which no torchao or ExecuTorch export
form produces yet (ExecuTorch's MX config takes float8 elements only), and
the fp modes in a batched expert product, which the compiler does not emit;
and the checks on biases."""

from __future__ import annotations

import numpy as np
import pytest

from mlx_delegate.host import backends
from mlx_delegate.formats.ir import schema as ir

E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6], np.float32)
DTYPES = {np.dtype(np.float32): ir.DType.Float32, np.dtype(np.uint8): ir.DType.UInt8}
DTYPES[np.dtype(np.uint32)] = ir.DType.UInt32
DTYPES[np.dtype(np.int64)] = ir.DType.Int64
rng = np.random.default_rng(0)


def _meta(a: np.ndarray):
    return ir.TensorMeta(shape=[ir.IntOrVid(literal=d) for d in a.shape], dtype=DTYPES[a.dtype])


def run(make_node, constants: list, inputs: list) -> np.ndarray:
    """One instruction, `make_node(*slots)` over the constants' slots, the
    inputs' and one output's (slots numbered in that order)."""
    tid = [ir.Tid(idx=i) for i in range(len(constants) + len(inputs) + 1)]
    first_input, output = len(constants), len(constants) + len(inputs)
    graph = ir.MLXGraph(
        num_constant_tensors=len(constants),
        num_input_tensors=len(inputs),
        num_output_tensors=1,
        num_mutable_buffer_tensors=0,
        num_temp_tensors=0,
        num_values=0,
        instruction_chains=[ir.InstructionChain(instructions=[ir.Instruction(op=make_node(*tid))])],
        init_chain=-1,
        input_map=[
            ir.SlotRef(kind=ir.SlotKind.Tensor, idx=first_input + i) for i in range(len(inputs))
        ],
        output_map=[ir.SlotRef(kind=ir.SlotKind.Tensor, idx=output)],
        mutable_buffer_map=[],
        named_slots=[ir.NamedSlot(name=f"c{i}", slot=tid[i]) for i in range(len(constants))],
        tensor_meta=[_meta(a) for a in constants + inputs] + [ir.TensorMeta()],
    )
    named = {f"c{i}": a for i, a in enumerate(constants)}
    program = backends.load_program(ir.encode(graph), named, device="cpu")
    (out,) = program.run(*inputs)
    return out


def mxfp4(rows: int, cols: int):
    """Random E2M1 codes packed 8 to a word, the first in the low bits, and
    E8M0 scales (2 ** (byte - 127)) per 32 values; with their decoding."""
    codes = rng.integers(0, 16, size=(rows, cols))
    words = (codes.reshape(rows, -1, 8) << (4 * np.arange(8))).sum(-1).astype(np.uint32)
    scales = rng.integers(122, 130, size=(rows, cols // 32)).astype(np.uint8)
    weight = E2M1[codes] * np.repeat(2.0 ** (scales.astype(np.float32) - 127), 32, axis=1)
    return words, scales, weight


def test_mxfp4_products_and_dequantization_decode_e2m1_values_and_e8m0_scales():
    words, scales, weight = mxfp4(16, 64)
    x = rng.standard_normal((3, 64)).astype(np.float32)
    product = run(
        lambda w, s, xs, out: ir.QuantizedLinearNode(
            x=xs, w=w, scales=s, out=out, group_size=32, bits=4, mode=ir.QuantMode.Mxfp4
        ),
        [words, scales],
        [x],
    )
    np.testing.assert_allclose(product, x @ weight.T, rtol=1e-5, atol=1e-5)
    # the values are exact in float32: the dequantized weight is too
    rows = run(
        lambda w, s, out: ir.DequantizeNode(
            w=w, scales=s, out=out, group_size=32, bits=4, mode=ir.QuantMode.Mxfp4
        ),
        [words, scales],
        [],
    )
    assert rows.dtype == np.float32 and np.array_equal(rows, weight)


def test_a_tensor_scale_multiplies_the_product_and_the_dequantized_weight():
    words, scales, weight = mxfp4(16, 64)
    x = rng.standard_normal((2, 64)).astype(np.float32)
    factor = np.array(0.375, np.float32)  # a power-of-two fraction: exact either way
    product = run(
        lambda w, s, t, xs, out: ir.QuantizedLinearNode(
            x=xs,
            w=w,
            scales=s,
            tensor_scale=t,
            out=out,
            group_size=32,
            bits=4,
            mode=ir.QuantMode.Mxfp4,
        ),
        [words, scales, factor],
        [x],
    )
    np.testing.assert_allclose(product, x @ (weight * factor).T, rtol=1e-5, atol=1e-5)
    rows = run(
        lambda w, s, t, out: ir.DequantizeNode(
            w=w,
            scales=s,
            tensor_scale=t,
            out=out,
            group_size=32,
            bits=4,
            mode=ir.QuantMode.Mxfp4,
        ),
        [words, scales, factor],
        [],
    )
    assert np.array_equal(rows, weight * factor)


def test_gathered_expert_products_take_the_fp_modes():
    experts, rows, cols = 3, 8, 64
    values = rng.integers(-20, 20, size=(experts, rows, cols)).astype(np.float32) / 8
    import torch

    e4m3 = torch.from_numpy(values).to(torch.float8_e4m3fn)  # exact: few significant bits
    words = e4m3.view(torch.uint8).numpy().view(np.uint32)
    scales = rng.integers(125, 129, size=(experts, rows, cols // 32)).astype(np.uint8)
    weight = e4m3.float().numpy() * np.repeat(2.0 ** (scales.astype(np.float32) - 127), 32, -1)
    x = rng.standard_normal((5, 1, cols)).astype(np.float32)
    ids = np.array([2, 0, 1, 2, 2], np.int64)
    product = run(
        lambda w, s, xs, i, out: ir.GatherQMMNode(
            x=xs,
            w=w,
            scales=s,
            out=out,
            rhs_indices=i,
            group_size=32,
            bits=8,
            mode=ir.QuantMode.Mxfp8,
        ),
        [words, scales],
        [x, ids],
    )
    want = np.stack([x[k] @ weight[e].T for k, e in enumerate(ids)])
    np.testing.assert_allclose(product, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "mode, with_biases, message",
    [
        (ir.QuantMode.Affine, False, "affine quantization needs biases"),
        (ir.QuantMode.Nvfp4, True, "nvfp4 quantization takes no biases"),
    ],
)
def test_biases_go_with_the_affine_mode_only(mode, with_biases, message):
    words, scales, _ = mxfp4(16, 64)
    float_scales = np.ones((16, 4), np.float32)
    x = rng.standard_normal((2, 64)).astype(np.float32)
    constants = [words, float_scales, float_scales] if with_biases else [words, float_scales]

    def node(w, s, *rest):
        *biases, xs, out = rest
        return ir.QuantizedLinearNode(
            x=xs,
            w=w,
            scales=s,
            biases=biases[0] if biases else None,
            out=out,
            group_size=16,
            bits=4,
            mode=mode,
        )

    with pytest.raises(backends.BackendError, match=message):
        run(node, constants, [x])
