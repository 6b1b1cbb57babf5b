"""IR programs serialized by the Python side (mlx_delegate.formats.ir.schema, generated
from schema/schema.fbs) loaded and run by the CPU plugin through the host."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

from mlx_delegate.formats.ir import inspector
from mlx_delegate.formats.ir import schema as ir

DT = {
    np.dtype("float32"): ir.DType.Float32,
    np.dtype("float16"): ir.DType.Float16,
    np.dtype("int32"): ir.DType.Int32,
    np.dtype("int64"): ir.DType.Int64,
    np.dtype("bool"): ir.DType.Bool,
    np.dtype("uint8"): ir.DType.UInt8,
    np.dtype("int8"): ir.DType.Int8,
    np.dtype("float64"): ir.DType.Float64,
}


def T(i):
    return ir.Tid(idx=i)


def meta(a):
    a = np.asarray(a)
    return ir.TensorMeta(shape=[ir.IntOrVid(literal=d) for d in a.shape], dtype=DT[a.dtype])


def graph(
    instructions,
    *,
    constants=(),
    inputs=(),
    n_outputs=1,
    n_temps=0,
    n_values=0,
    input_map=None,
    output_map=None,
    mutable=(),
    init=None,
):
    """Slots: constants, inputs, outputs, mutable buffers, temps (in that order)."""
    C, I, M = len(constants), len(inputs), len(mutable)
    tensor_meta = [meta(a) for _, a in constants] + [meta(a) for a in inputs]
    tensor_meta += [ir.TensorMeta() for _ in range(n_outputs)]
    tensor_meta += [meta(a) for _, a in mutable] + [ir.TensorMeta() for _ in range(n_temps)]
    chains = [ir.InstructionChain(instructions=[ir.Instruction(op=n) for n in instructions])]
    if init is not None:
        chains.append(ir.InstructionChain(instructions=[ir.Instruction(op=n) for n in init]))
    first_mut = C + I + n_outputs
    return ir.MLXGraph(
        num_constant_tensors=C,
        num_input_tensors=I,
        num_output_tensors=n_outputs,
        num_mutable_buffer_tensors=M,
        num_temp_tensors=n_temps,
        num_values=n_values,
        instruction_chains=chains,
        init_chain=1 if init is not None else -1,
        input_map=(
            input_map
            if input_map is not None
            else [ir.SlotRef(kind=ir.SlotKind.Tensor, idx=C + i) for i in range(I)]
        ),
        output_map=(
            output_map
            if output_map is not None
            else [ir.SlotRef(kind=ir.SlotKind.Tensor, idx=C + I + i) for i in range(n_outputs)]
        ),
        mutable_buffer_map=[
            ir.SlotRef(kind=ir.SlotKind.Tensor, idx=first_mut + i) for i in range(M)
        ],
        named_slots=[ir.NamedSlot(name=n, slot=T(i)) for i, (n, _) in enumerate(constants)]
        + [ir.NamedSlot(name=n, slot=T(first_mut + i)) for i, (n, _) in enumerate(mutable)],
        tensor_meta=tensor_meta,
    )


def mlx0(flatbuffer: bytes) -> bytes:
    """The delegate payload layout: 24-byte MLX0 header, FlatBuffer, padding."""
    body = flatbuffer + b"\0" * (-len(flatbuffer) % 16)
    offset = 24 + len(body)
    return b"\0\0\0\0MLX0" + offset.to_bytes(8, "little") + (0).to_bytes(8, "little") + body


def run_single(backends, make_node, *inputs, constants=(), n_outputs=1, **kw):
    """One op: inputs are slots C.., outputs follow."""
    C, I = len(constants), len(inputs)
    ins = [T(C + i) for i in range(I)]
    outs = [T(C + I + i) for i in range(n_outputs)]
    node = make_node(*([T(i) for i in range(C)] + ins + outs))
    g = graph(
        [node],
        constants=constants,
        inputs=[np.asarray(x) for x in inputs],
        n_outputs=n_outputs,
        **kw,
    )
    program = backends.load_program(ir.encode(g), dict(constants))
    return program.run(*inputs)


rng = np.random.default_rng(0)
X = rng.standard_normal((2, 3, 4)).astype(np.float32)
Y = rng.standard_normal((2, 3, 4)).astype(np.float32)
P = np.abs(X) + 0.5


def test_linear_relu_with_constants_and_mlx0_header(backends):
    W = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float32)
    x = rng.standard_normal((2, 4)).astype(np.float32)
    g = graph(
        [ir.LinearNode(x=T(2), weight=T(0), bias=T(1), out=T(4)), ir.ReluNode(x=T(4), out=T(3))],
        constants=[("w", W), ("b", b)],
        inputs=[x],
        n_temps=1,
    )
    for payload in (ir.encode(g), mlx0(ir.encode(g))):
        p = backends.load_program(payload, {"w": W, "b": b})
        assert p.info["num_inputs"] == 1 and p.info["num_outputs"] == 1
        assert p.backend == backends.device("cpu")["backend"]["name"]
        (out,) = p.run(x)
        np.testing.assert_allclose(out, np.maximum(x @ W.T + b, 0), rtol=1e-5, atol=1e-5)
        (out2,) = p.run(2 * x)  # runs again with new inputs
        np.testing.assert_allclose(out2, np.maximum(2 * x @ W.T + b, 0), rtol=1e-5, atol=1e-5)


def test_mutable_buffer_persists_across_executions(backends):
    # buf += x; out = buf * 1 ; buf initialised by the init chain to 10.
    x = np.ones((2, 2), np.float32)
    buf = np.zeros((2, 2), np.float32)
    # slots: 0 input x, 1 output, 2 mutable buf, 3 temp
    g = graph(
        [ir.AddNode(a=T(2), b=T(0), out=T(2)), ir.CopyNode(x=T(2), out=T(1))],
        inputs=[x],
        mutable=[("state.buf", buf)],
        n_temps=1,
        init=[
            ir.FullNode(
                out=T(2),
                shape=[ir.IntOrVid(literal=2)] * 2,
                value=ir.FloatOrVid(literal=10.0),
                dtype=ir.DType.Float32,
            )
        ],
    )
    p = backends.load_program(ir.encode(g), {})
    assert p.run(x)[0].tolist() == [[11, 11], [11, 11]]
    assert p.run(x)[0].tolist() == [[12, 12], [12, 12]]
    assert p.run(3 * x)[0].tolist() == [[15, 15], [15, 15]]
    # A named initial value from the named data replaces zeros.
    g2 = graph(
        [ir.AddNode(a=T(2), b=T(0), out=T(2)), ir.CopyNode(x=T(2), out=T(1))],
        inputs=[x],
        mutable=[("state.buf", buf)],
        n_temps=1,
    )
    p2 = backends.load_program(ir.encode(g2), {"state.buf": np.full((2, 2), 5, np.float32)})
    assert p2.run(x)[0].tolist() == [[6, 6], [6, 6]]
    p3 = backends.load_program(ir.encode(g2), {})  # absent: zeros
    assert p3.run(x)[0].tolist() == [[1, 1], [1, 1]]


def test_a_predicted_call_runs_ahead_and_a_wrong_prediction_runs_as_usual(backends):
    """RunAhead: out = tokens + pos, the next tokens fed from out and pos moved
    on by the tokens taken. Calls as predicted, calls against the prediction
    (other tokens, another position, another shape) and calls after them all
    give their own results; a program that says nothing of its next call is
    not affected."""
    tokens, pos = np.zeros((1, 2), np.int64), np.zeros(1, np.int64)
    g = graph(
        [
            ir.AddNode(a=T(0), b=T(1), out=T(3)),
            ir.SumNode(x=T(3), axes=[1], keepdims=False, out=T(2)),
        ],
        inputs=[tokens, pos],
        n_temps=1,
    )
    g.tensor_meta[0].shape[1] = ir.IntOrVid(literal=-1)  # the tokens' length is dynamic
    g.tensor_meta[2] = meta(pos)  # the output, fed back: its dtype is the tokens'
    g.run_ahead = ir.RunAhead(fed_inputs=[0], fed_from_outputs=[0], advanced_inputs=[1])
    program = backends.load_program(ir.encode(g), {})

    def run(t, p):
        (out,) = program.run(np.array([t], np.int64), np.array([p], np.int64))
        assert out.tolist() == [sum(t) + p * len(t)]
        return out.tolist()

    out = run([3, 4], 0)  # a prompt of two tokens: next, (out) at position 2
    for p in range(2, 8):  # as predicted: from the second on, each started by the last
        out = run(out, p)
    run([1], 2)  # other tokens at another position
    run([1, 2, 3], 1)  # another shape
    out = run([5], 0)
    for p in range(1, 4):
        out = run(out, p)
    run(out, 9)  # the right tokens at another position


def test_value_slots_dynamic_reshape_and_value_io(backends):
    # v0 = sym_size(x, 0); v1 = v0 * 2 (int_binary); out0 = reshape(x, [v1, -1]);
    # out1 = value v1; input 1 is a scalar value v2, out2 = full([v2], 7)
    x = rng.standard_normal((4, 6)).astype(np.float32)
    V = lambda i: ir.Vid(idx=i)
    g = graph(
        [
            ir.SymSizeNode(x=T(0), dim=0, out=V(0)),
            ir.IntBinaryNode(
                op=ir.IntBinaryOp.Mul, a=ir.IntOrVid(vid=V(0)), b=ir.IntOrVid(literal=2), out=V(1)
            ),
            ir.ReshapeNode(
                x=T(0), out=T(1), shape=[ir.IntOrVid(vid=V(1)), ir.IntOrVid(literal=-1)]
            ),
            ir.FullNode(
                out=T(2),
                shape=[ir.IntOrVid(vid=V(2))],
                value=ir.FloatOrVid(literal=7.0),
                dtype=ir.DType.Int32,
            ),
        ],
        inputs=[x],
        n_outputs=2,
        n_values=3,
        input_map=[
            ir.SlotRef(kind=ir.SlotKind.Tensor, idx=0),
            ir.SlotRef(kind=ir.SlotKind.Value, idx=2),
        ],
        output_map=[
            ir.SlotRef(kind=ir.SlotKind.Tensor, idx=1),
            ir.SlotRef(kind=ir.SlotKind.Value, idx=1),
            ir.SlotRef(kind=ir.SlotKind.Tensor, idx=2),
        ],
    )
    p = backends.load_program(ir.encode(g), {})
    r, v, f = p.run(x, np.int64(3))
    assert r.shape == (8, 3) and np.array_equal(r, x.reshape(8, 3))
    assert v.dtype == np.int64 and int(v) == 8
    assert f.dtype == np.int32 and f.tolist() == [7, 7, 7]


BINARY = [
    (ir.AddNode, np.add),
    (ir.SubtractNode, np.subtract),
    (ir.MultiplyNode, np.multiply),
    (ir.MaximumNode, np.maximum),
    (ir.MinimumNode, np.minimum),
    (ir.EqualNode, np.equal),
    (ir.NotEqualNode, np.not_equal),
    (ir.LessNode, np.less),
    (ir.LessEqualNode, np.less_equal),
    (ir.GreaterNode, np.greater),
    (ir.GreaterEqualNode, np.greater_equal),
]


@pytest.mark.parametrize("node,ref", BINARY, ids=[n.__name__ for n, _ in BINARY])
def test_binary_ops(backends, node, ref):
    (out,) = run_single(backends, lambda a, b, o: node(a=a, b=b, out=o), X, Y)
    np.testing.assert_allclose(out, ref(X, Y), rtol=1e-6)


def test_divide_power_logical(backends):
    (d,) = run_single(backends, lambda a, b, o: ir.DivideNode(a=a, b=b, out=o), X, P)
    np.testing.assert_allclose(d, X / P, rtol=1e-6)
    a = np.array([7, -7, 7, -7], np.int32)
    b = np.array([2, 2, -2, -2], np.int32)
    (fl,) = run_single(
        backends,
        lambda x, y, o: ir.DivideNode(a=x, b=y, out=o, rounding=ir.DivRounding.Floor),
        a,
        b,
    )
    assert fl.tolist() == [3, -4, -4, 3]
    (tr,) = run_single(
        backends,
        lambda x, y, o: ir.DivideNode(a=x, b=y, out=o, rounding=ir.DivRounding.Trunc),
        a,
        b,
    )
    assert tr.tolist() == [3, -3, -3, 3] and tr.dtype == np.int32
    (trf,) = run_single(
        backends,
        lambda x, y, o: ir.DivideNode(a=x, b=y, out=o, rounding=ir.DivRounding.Trunc),
        X,
        P,
    )
    np.testing.assert_allclose(trf, np.trunc(X / P), rtol=1e-6)
    (pw,) = run_single(backends, lambda x, y, o: ir.PowerNode(a=x, b=y, out=o), P, Y)
    np.testing.assert_allclose(pw, P**Y, rtol=1e-5)
    m, n = X > 0, Y > 0
    (la,) = run_single(backends, lambda x, y, o: ir.LogicalAndNode(a=x, b=y, out=o), m, n)
    (lo,) = run_single(backends, lambda x, y, o: ir.LogicalOrNode(a=x, b=y, out=o), m, n)
    (ln,) = run_single(backends, lambda x, o: ir.LogicalNotNode(x=x, out=o), m)
    assert np.array_equal(la, m & n) and np.array_equal(lo, m | n) and np.array_equal(ln, ~m)


t = torch.from_numpy
UNARY = [
    (ir.NegNode, lambda x: -x, X),
    (ir.AbsNode, np.abs, X),
    (ir.ExpNode, np.exp, X),
    (ir.LogNode, np.log, P),
    (ir.SqrtNode, np.sqrt, P),
    (ir.RsqrtNode, lambda x: 1 / np.sqrt(x), P),
    (ir.SinNode, np.sin, X),
    (ir.CosNode, np.cos, X),
    (ir.TanhNode, np.tanh, X),
    (ir.SigmoidNode, lambda x: torch.sigmoid(t(x)).numpy(), X),
    (ir.ErfNode, lambda x: torch.erf(t(x)).numpy(), X),
    (ir.FloorNode, np.floor, 3 * X),
    (ir.CeilNode, np.ceil, 3 * X),
    (ir.ReciprocalNode, lambda x: 1 / x, P),
    (ir.ReluNode, lambda x: np.maximum(x, 0), X),
    (ir.SiluNode, lambda x: torch.nn.functional.silu(t(x)).numpy(), X),
    (ir.CopyNode, lambda x: x, X),
]


@pytest.mark.parametrize("node,ref,x", UNARY, ids=[n.__name__ for n, _, _ in UNARY])
def test_unary_ops(backends, node, ref, x):
    (out,) = run_single(backends, lambda a, o: node(x=a, out=o), x)
    np.testing.assert_allclose(out, ref(x), rtol=1e-5, atol=1e-6)


def test_activations_and_casts(backends):
    F = torch.nn.functional
    (g,) = run_single(backends, lambda a, o: ir.GeluNode(x=a, out=o), X)
    np.testing.assert_allclose(g, F.gelu(t(X)).numpy(), rtol=1e-5, atol=1e-6)
    (gt,) = run_single(
        backends, lambda a, o: ir.GeluNode(x=a, out=o, approximation=ir.GeluApproximation.Tanh), X
    )
    np.testing.assert_allclose(gt, F.gelu(t(X), approximate="tanh").numpy(), rtol=1e-5, atol=1e-6)
    (lr,) = run_single(backends, lambda a, o: ir.LeakyReluNode(x=a, out=o, negative_slope=0.2), X)
    np.testing.assert_allclose(lr, F.leaky_relu(t(X), 0.2).numpy(), rtol=1e-6)
    (r,) = run_single(backends, lambda a, o: ir.RoundNode(x=a, out=o, decimals=1), X)
    np.testing.assert_allclose(r, np.round(X, 1), atol=1e-6)
    (c,) = run_single(
        backends,
        lambda a, lo, o: ir.ClipNode(x=a, out=o, min=ir.TidOrVid(tid=lo)),
        X,
        np.float32(-0.1),
    )
    np.testing.assert_allclose(c, np.maximum(X, -0.1))
    (w,) = run_single(
        backends, lambda cnd, a, b, o: ir.WhereNode(condition=cnd, a=a, b=b, out=o), X > 0, X, Y
    )
    np.testing.assert_array_equal(w, np.where(X > 0, X, Y))
    (i,) = run_single(backends, lambda a, o: ir.AsTypeNode(x=a, out=o, dtype=ir.DType.Int32), 3 * X)
    np.testing.assert_array_equal(i, (3 * X).astype(np.int32))


def test_reductions(backends):
    for node, ref in [
        (ir.SumNode, np.sum),
        (ir.MeanNode, np.mean),
        (ir.MaxNode, np.max),
        (ir.MinNode, np.min),
        (ir.ProdNode, np.prod),
    ]:
        (o,) = run_single(backends, lambda a, o: node(x=a, out=o, axes=[1, -1], keepdims=True), X)
        np.testing.assert_allclose(o, ref(X, axis=(1, 2), keepdims=True), rtol=1e-5)
        (o,) = run_single(backends, lambda a, o: node(x=a, out=o, axes=[0, 1, 2]), X)
        np.testing.assert_allclose(o, ref(X), rtol=1e-5)
        (o,) = run_single(backends, lambda a, o: node(x=a, out=o), X)  # no axis: nothing reduced
        np.testing.assert_allclose(o, X, rtol=1e-5)
    (a,) = run_single(backends, lambda x, o: ir.AnyNode(x=x, out=o, axes=[0]), X > 1)
    (al,) = run_single(backends, lambda x, o: ir.AllNode(x=x, out=o, axes=[0]), X > -1)
    np.testing.assert_array_equal(a, (X > 1).any(0))
    np.testing.assert_array_equal(al, (X > -1).all(0))
    (v,) = run_single(backends, lambda x, o: ir.VarNode(x=x, out=o, axes=[2], ddof=1), X)
    (s,) = run_single(backends, lambda x, o: ir.StdNode(x=x, out=o, axes=[2], ddof=0), X)
    np.testing.assert_allclose(v, X.var(2, ddof=1), rtol=1e-5)
    np.testing.assert_allclose(s, X.std(2), rtol=1e-5)
    (am,) = run_single(backends, lambda x, o: ir.ArgMaxNode(x=x, out=o, axis=1), X)
    (an,) = run_single(backends, lambda x, o: ir.ArgMinNode(x=x, out=o), X)
    assert am.dtype == np.int64 and np.array_equal(am, X.argmax(1))
    assert int(an) == X.argmin()
    (cs,) = run_single(backends, lambda x, o: ir.CumSumNode(x=x, out=o, axis=2), X)
    (csr,) = run_single(backends, lambda x, o: ir.CumSumNode(x=x, out=o, axis=1, reverse=True), X)
    np.testing.assert_allclose(cs, np.cumsum(X, 2), rtol=1e-5)
    np.testing.assert_allclose(csr, np.flip(np.cumsum(np.flip(X, 1), 1), 1), rtol=1e-5)
    (sm,) = run_single(backends, lambda x, o: ir.SoftmaxNode(x=x, out=o, axis=-1), X)
    (lsm,) = run_single(backends, lambda x, o: ir.LogSoftmaxNode(x=x, out=o, axis=1), X)
    np.testing.assert_allclose(sm, torch.softmax(t(X), -1).numpy(), rtol=1e-5)
    np.testing.assert_allclose(lsm, torch.log_softmax(t(X), 1).numpy(), rtol=1e-5, atol=1e-6)


def test_linear_algebra_and_norms(backends):
    F = torch.nn.functional
    A = rng.standard_normal((3, 5)).astype(np.float32)
    B = rng.standard_normal((5, 2)).astype(np.float32)
    bias = rng.standard_normal(2).astype(np.float32)
    (mm,) = run_single(backends, lambda a, b, o: ir.MatmulNode(a=a, b=b, out=o), A, B)
    np.testing.assert_allclose(mm, A @ B, rtol=1e-5)
    (ad,) = run_single(
        backends,
        lambda c, a, b, o: ir.AddmmNode(bias=c, mat1=a, mat2=b, out=o, alpha=2.0, beta=0.5),
        bias,
        A,
        B,
    )
    np.testing.assert_allclose(ad, 0.5 * bias + 2 * (A @ B), rtol=1e-5)
    (li,) = run_single(backends, lambda a, w, o: ir.LinearNode(x=a, weight=w, out=o), A, B.T.copy())
    np.testing.assert_allclose(li, A @ B, rtol=1e-5)
    w = rng.standard_normal(4).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    (ln,) = run_single(
        backends,
        lambda x, w_, b_, o: ir.LayerNormNode(x=x, weight=w_, bias=b_, out=o, eps=1e-5),
        X,
        w,
        b,
    )
    np.testing.assert_allclose(
        ln, F.layer_norm(t(X), (4,), t(w), t(b)).numpy(), rtol=1e-4, atol=1e-5
    )
    ln2, mean, rstd = run_single(
        backends,
        lambda x, o, m, r: ir.LayerNormNode(x=x, out=o, num_axes=2, mean_out=m, rstd_out=r),
        X,
        n_outputs=3,
    )
    np.testing.assert_allclose(ln2, F.layer_norm(t(X), (3, 4)).numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mean[..., 0, 0], X.mean((1, 2)), rtol=1e-5, atol=1e-6)
    (rn,) = run_single(backends, lambda x, w_, o: ir.RmsNormNode(x=x, weight=w_, out=o), X, w)
    ref = X / np.sqrt((X**2).mean(-1, keepdims=True) + 1e-6) * w
    np.testing.assert_allclose(rn, ref, rtol=1e-4, atol=1e-5)


def test_conv_and_attention(backends):
    F = torch.nn.functional
    x = rng.standard_normal((2, 4, 9, 9)).astype(np.float32)
    w = rng.standard_normal((6, 2, 3, 3)).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    (c,) = run_single(
        backends,
        lambda x_, w_, b_, o: ir.ConvNode(
            x=x_, weight=w_, bias=b_, out=o, stride=[2], padding=[1, 1], dilation=[1], groups=2
        ),
        x,
        w,
        b,
    )
    ref = F.conv2d(t(x), t(w), t(b), stride=2, padding=1, groups=2).numpy()
    np.testing.assert_allclose(c, ref, rtol=1e-4, atol=1e-4)
    x1 = rng.standard_normal((1, 3, 10)).astype(np.float32)
    w1 = rng.standard_normal((5, 3, 3)).astype(np.float32)
    (c1,) = run_single(
        backends, lambda x_, w_, o: ir.ConvNode(x=x_, weight=w_, out=o, dilation=[2]), x1, w1
    )
    np.testing.assert_allclose(c1, F.conv1d(t(x1), t(w1), dilation=2).numpy(), rtol=1e-4, atol=1e-4)
    q, k, v = (rng.standard_normal((1, 2, 5, 8)).astype(np.float32) for _ in range(3))
    (a,) = run_single(
        backends,
        lambda q_, k_, v_, o: ir.ScaledDotProductAttentionNode(
            q=q_, k=k_, v=v_, out=o, causal=True
        ),
        q,
        k,
        v,
    )
    ref = F.scaled_dot_product_attention(t(q), t(k), t(v), is_causal=True).numpy()
    np.testing.assert_allclose(a, ref, rtol=1e-4, atol=1e-5)
    mask = rng.standard_normal((5, 5)) > 0
    mask[:, 0] = True
    (am,) = run_single(
        backends,
        lambda q_, k_, v_, m, o: ir.ScaledDotProductAttentionNode(
            q=q_, k=k_, v=v_, mask=m, out=o, scale=0.5
        ),
        q,
        k,
        v,
        mask,
    )
    ref = F.scaled_dot_product_attention(t(q), t(k), t(v), attn_mask=t(mask), scale=0.5).numpy()
    np.testing.assert_allclose(am, ref, rtol=1e-4, atol=1e-5)


def test_shape_ops(backends):
    L = lambda v: ir.IntOrVid(literal=v)
    (r,) = run_single(backends, lambda x, o: ir.ReshapeNode(x=x, out=o, shape=[L(6), L(-1)]), X)
    assert np.array_equal(r, X.reshape(6, 4))
    (tr,) = run_single(backends, lambda x, o: ir.TransposeNode(x=x, out=o, perm=[2, 0, 1]), X)
    assert np.array_equal(tr, X.transpose(2, 0, 1))
    (e,) = run_single(backends, lambda x, o: ir.ExpandDimsNode(x=x, out=o, axes=[0, -1]), X)
    assert e.shape == (1, 2, 3, 4, 1)
    (s,) = run_single(backends, lambda x, o: ir.SqueezeNode(x=x, out=o, axes=[0, 1]), X[:1].copy())
    assert s.shape == (3, 4)
    (b,) = run_single(
        backends,
        lambda x, o: ir.BroadcastToNode(x=x, out=o, shape=[L(5), L(-1), L(3), L(4)]),
        X[:, :1],
    )
    assert np.array_equal(b, np.broadcast_to(X[:, :1], (5, 2, 3, 4)))
    (sl,) = run_single(
        backends, lambda x, o: ir.SliceNode(x=x, out=o, axis=2, start=L(-3), stop=L(100), step=2), X
    )
    assert np.array_equal(sl, X[:, :, -3:100:2])
    (sel,) = run_single(backends, lambda x, o: ir.SelectNode(x=x, out=o, axis=1, index=L(-1)), X)
    assert np.array_equal(sel, X[:, -1])
    (cat,) = run_single(
        backends, lambda a, b, o: ir.ConcatenateNode(inputs=[a, b], out=o, axis=-1), X, Y
    )
    assert np.array_equal(cat, np.concatenate([X, Y], -1))
    (st,) = run_single(backends, lambda a, b, o: ir.StackNode(inputs=[a, b], out=o, axis=1), X, Y)
    assert np.array_equal(st, np.stack([X, Y], 1))
    parts = run_single(
        backends,
        lambda x, o1, o2: ir.SplitNode(x=x, outs=[o1, o2], sizes=[1, 3], axis=2),
        X,
        n_outputs=2,
    )
    assert np.array_equal(parts[0], X[..., :1]) and np.array_equal(parts[1], X[..., 1:])
    (ti,) = run_single(backends, lambda x, o: ir.TileNode(x=x, out=o, reps=[1, 2, 1]), X)
    assert np.array_equal(ti, np.tile(X, (1, 2, 1)))
    (fl,) = run_single(backends, lambda x, o: ir.FlipNode(x=x, out=o, axes=[0, 2]), X)
    assert np.array_equal(fl, X[::-1, :, ::-1])
    (pd,) = run_single(
        backends, lambda x, o: ir.PadNode(x=x, out=o, pad=[0, 0, 1, 2], value=9.0), X
    )
    assert np.array_equal(pd, np.pad(X, [(0, 0), (1, 2), (0, 0)], constant_values=9))
    M = rng.standard_normal((4, 5)).astype(np.float32)
    (tl,) = run_single(backends, lambda x, o: ir.TrilNode(x=x, out=o, k=-1), M)
    (tu,) = run_single(backends, lambda x, o: ir.TriuNode(x=x, out=o, k=1), M)
    assert np.array_equal(tl, np.tril(M, -1)) and np.array_equal(tu, np.triu(M, 1))


def test_indexing_ops(backends):
    idx = np.array([2, 0, -1], np.int64)
    (tk,) = run_single(backends, lambda x, i, o: ir.TakeNode(x=x, indices=i, out=o, axis=2), X, idx)
    assert np.array_equal(tk, np.take(X, idx, 2))
    ia = np.argsort(X, axis=1).astype(np.int32)
    (ta,) = run_single(
        backends, lambda x, i, o: ir.TakeAlongAxisNode(x=x, indices=i, out=o, axis=1), X, ia
    )
    assert np.array_equal(ta, np.take_along_axis(X, ia, 1))
    i0 = np.array([[0], [1]], np.int64)
    i1 = np.array([2, 0, 1], np.int64)
    (ix,) = run_single(
        backends, lambda x, a, b, o: ir.IndexNode(x=x, indices=[a, b], out=o), X, i0, i1
    )
    assert np.array_equal(ix, X[i0, i1])
    base = np.zeros((3, 4), np.float32)
    upd = rng.standard_normal((2, 4)).astype(np.float32)
    si = np.array([[0, 1, 2, 0], [2, 2, 0, 1]], np.int64)
    (sa,) = run_single(
        backends,
        lambda x, i, u, o: ir.ScatterAddNode(x=x, indices=i, updates=u, out=o, axis=0),
        base,
        si,
        upd,
    )
    ref = torch.zeros(3, 4).scatter_add(0, t(si), t(upd)).numpy()
    np.testing.assert_allclose(sa, ref, rtol=1e-6)
    (su,) = run_single(
        backends,
        lambda tg, u, o: ir.SliceUpdateNode(
            target=tg, update=u, out=o, axis=1, start=ir.IntOrVid(literal=1)
        ),
        X,
        Y[:, :2].copy(),
    )
    ref = X.copy()
    ref[:, 1:3] = Y[:, :2]
    assert np.array_equal(su, ref)


def test_creation_and_value_ops(backends):
    F = lambda v: ir.FloatOrVid(literal=v)
    (ar,) = run_single(
        backends,
        lambda o: ir.ArangeNode(out=o, start=F(2), stop=F(11), step=F(3), dtype=ir.DType.Int64),
    )
    assert ar.tolist() == [2, 5, 8] and ar.dtype == np.int64
    (fu,) = run_single(
        backends,
        lambda o: ir.FullNode(
            out=o, shape=[ir.IntOrVid(literal=2)], value=F(1.5), dtype=ir.DType.Float16
        ),
    )
    assert fu.dtype == np.float16 and fu.tolist() == [1.5, 1.5]
    (fl,) = run_single(backends, lambda x, o: ir.FullLikeNode(x=x, out=o, value=3.0), X)
    assert fl.shape == X.shape and (fl == 3).all() and fl.dtype == np.float32
    # item + int_binary (floor div / mod like Python) into a value output
    V = lambda i: ir.Vid(idx=i)
    g = graph(
        [
            ir.ItemNode(x=T(0), out=V(0)),
            ir.IntBinaryNode(
                op=ir.IntBinaryOp.FloorDiv,
                a=ir.IntOrVid(vid=V(0)),
                b=ir.IntOrVid(literal=-4),
                out=V(1),
            ),
            ir.IntBinaryNode(
                op=ir.IntBinaryOp.Mod, a=ir.IntOrVid(vid=V(0)), b=ir.IntOrVid(literal=-4), out=V(2)
            ),
        ],
        inputs=[np.array([7], np.int32)],
        n_outputs=0,
        n_values=3,
        output_map=[ir.SlotRef(kind=ir.SlotKind.Value, idx=i) for i in range(3)],
    )
    outs = backends.load_program(ir.encode(g), {}).run(np.array([7], np.int32))
    assert [int(o) for o in outs] == [7, 7 // -4, 7 % -4]


@pytest.mark.parametrize(
    "x, summed, want",
    [
        (np.array([2.5], np.float16), False, 2.5),
        (np.array([True]), False, True),
        (np.array([-3], np.int8), False, -3),
        (np.array([3, 4], np.int64), True, 7),
        (np.array([1.5, 2.0], np.float32), True, 3.5),
    ],
)
def test_item_reads_an_input_in_place_and_computes_anything_else_first(backends, x, summed, want):
    """item() of a program input reads its element where it is; of a computed
    tensor (a sum), evaluates it first. Each dtype's value comes out as the
    value slot's kind: a float, an integer or a bool."""
    V = lambda i: ir.Vid(idx=i)
    nodes = [ir.ItemNode(x=T(1) if summed else T(0), out=V(0))]
    if summed:
        nodes.insert(0, ir.SumNode(x=T(0), axes=[0], keepdims=False, out=T(1)))
    g = graph(
        nodes,
        inputs=[x],
        n_outputs=0,
        n_temps=1 if summed else 0,
        n_values=1,
        output_map=[ir.SlotRef(kind=ir.SlotKind.Value, idx=0)],
    )
    (out,) = backends.load_program(ir.encode(g), {}).run(x)
    assert out.item() == want and type(out.item()) is type(want)


# ---- every op node of the schema round-trips through the generated loader --


def _sample(field_type: str, k: int):
    """A value of the schema type `field_type`; an enum's is its last member."""
    enum = getattr(ir, field_type, None)
    if isinstance(enum, type) and issubclass(enum, int):
        return list(enum)[-1]
    L = lambda v: ir.IntOrVid(literal=v)
    return {
        "Tid": ir.Tid(idx=k % 4),
        "[Tid]": [ir.Tid(idx=1), ir.Tid(idx=2)],
        "Vid": ir.Vid(idx=k % 2),
        "IntOrVid": L(k + 1),
        "[IntOrVid]": [L(2), ir.IntOrVid(vid=ir.Vid(idx=1))],
        "FloatOrVid": ir.FloatOrVid(literal=k + 0.5),
        "TidOrVid": ir.TidOrVid(vid=ir.Vid(idx=0)),
        "int32": k + 1,
        "uint32": 1,  # a chain index: control-flow nodes name chain 1
        "[int32]": [0, k + 1],
        "float32": 0.25,
        "float64": 1.5,
        "[float64]": [0.5, 2.0],
        "bool": True,
    }[field_type]


def _every_op_graph():
    nodes = []
    for info in inspector.OPS_BY_TABLE.values():
        cls = getattr(ir, info.table)
        kwargs = {f.name: _sample(f.type, k) for k, f in enumerate(info.fields)}
        if "group_size" in kwargs:  # a collective: this process is a group of one
            kwargs["group_size"] = 1
        nodes.append(cls(**kwargs))
    assert len(nodes) == len(inspector.OPS) > 0
    g = graph(nodes, inputs=[np.zeros(2, np.float32)], n_outputs=1, n_temps=2, n_values=2)
    g.instruction_chains.append(ir.InstructionChain(instructions=[]))  # for control flow
    return g


def test_every_op_node_loads(backends):
    p = backends.load_program(ir.encode(_every_op_graph()), {})
    assert p.info["num_inputs"] == 1
    # Running it fails cleanly (slots are read before being written), no crash.
    with pytest.raises(backends.BackendError, match=r"instruction 0 of chain 0 \(Add\)"):
        p.run(np.zeros(2, np.float32))


# ---- malformed payloads are rejected with a message, never a crash ----------


def test_malformed_payloads_are_rejected(backends):
    good = ir.encode(
        graph([ir.AddNode(a=T(0), b=T(0), out=T(1))], inputs=[np.zeros(2, np.float32)])
    )
    cases = {
        b"": "empty delegate payload",
        b"\0" * 3: "verification failed",
        b"not a flatbuffer at all, just text": "verification failed",
        good[: len(good) // 2]: "verification failed",
        b"\0\0\0\0MLX0" + b"\xff" * 16 + good: "MLX0 header",
        b"\0\0\0\0MLX0" + b"\0" * 4: "truncated MLX0 header",
        good[:4] + b"XXXX" + good[8:]: "verification failed",  # wrong file identifier
    }
    for payload, message in cases.items():
        with pytest.raises(backends.BackendError, match=message):
            backends.load_program(payload, {})

    def bad_graph(**overrides):
        g = graph([ir.AddNode(a=T(0), b=T(0), out=T(1))], inputs=[np.zeros(2, np.float32)])
        for k, v in overrides.items():
            setattr(g, k, v)
        return ir.encode(g)

    semantic = [
        (dict(main_chain=3), "main_chain 3 out of range"),
        (dict(init_chain=5), "init_chain 5 out of range"),
        (dict(instruction_chains=[]), "no instruction chain"),
        (dict(input_map=[ir.SlotRef(kind=ir.SlotKind.Tensor, idx=99)]), "names tensor slot 99"),
        (dict(output_map=[ir.SlotRef(kind=ir.SlotKind.Value, idx=0)]), "names value slot 0"),
        (dict(tensor_meta=[ir.TensorMeta()]), "1 tensor_meta entries for 2 tensor slots"),
        (dict(named_slots=[ir.NamedSlot(name="x", slot=T(1))]), "is a output slot"),
        (dict(num_temp_tensors=1 << 30), "tensor slots"),
        (dict(run_ahead=ir.RunAhead(fed_inputs=[5], fed_from_outputs=[0])), "fed input 5 of 1"),
        (dict(run_ahead=ir.RunAhead(fed_inputs=[0], fed_from_outputs=[3])), "output 3 of 1"),
        (dict(run_ahead=ir.RunAhead(fed_inputs=[0], fed_from_outputs=[])), "1 fed inputs, 0"),
        (dict(run_ahead=ir.RunAhead(advanced_inputs=[0])), "advanced input 0 is not an integer"),
    ]
    for overrides, message in semantic:
        with pytest.raises(backends.BackendError, match=message):
            backends.load_program(bad_graph(**overrides), {})

    # A program with collectives joins its group when it loads: one made for a
    # group of two is refused in a process alone (no MLX_RANK), before it runs.
    for op in (ir.AllSumNode, ir.AllGatherNode):
        g = graph([op(x=T(0), out=T(1), group_size=2)], inputs=[np.zeros(2, np.float32)])
        with pytest.raises(backends.BackendError, match="made for a group of 2 processes"):
            backends.load_program(ir.encode(g), {})

    # A control-flow node must name a later chain: no chain may run itself.
    for chain, message in [(0, "then_chain 0 named in chain 0"), (7, "then_chain 7 named")]:
        cond = ir.CondNode(pred=T(0), then_chain=chain, else_chain=chain, operands=[], outs=[])
        g = graph([cond], inputs=[np.zeros(1, np.float32)])
        with pytest.raises(backends.BackendError, match=message):
            backends.load_program(ir.encode(g), {})

    # Out-of-range slots inside instructions fail at run time with a message.
    g = graph([ir.AddNode(a=T(0), b=T(42), out=T(1))], inputs=[np.zeros(2, np.float32)])
    p = backends.load_program(ir.encode(g), {})
    with pytest.raises(backends.BackendError, match="tensor slot 42 out of range"):
        p.run(np.zeros(2, np.float32))
    g = graph(
        [ir.AddNode(a=T(0), b=T(0), out=T(0))],
        inputs=[np.zeros(2, np.float32)],
        constants=[("c", np.zeros(2, np.float32))],
    )
    p = backends.load_program(ir.encode(g), {"c": np.zeros(2, np.float32)})
    with pytest.raises(backends.BackendError, match="read-only"):
        p.run(np.zeros(2, np.float32))
    with pytest.raises(backends.BackendError, match="named data has 4 bytes, expected 8"):
        backends.load_program(ir.encode(g), {"c": np.zeros(1, np.float32)})


def test_fuzzed_payloads_never_crash(runtime_build):
    """Random corruptions of a valid payload, in a child process: every one is
    loaded or rejected with an exception, and the process exits normally."""
    code = r"""
import random, numpy as np, sys
sys.path.insert(0, "tests/runtime_cpp")
from test_programs import _every_op_graph, ir
from mlx_delegate.host import backends
backends.load_all()
good = ir.encode(_every_op_graph())
rnd = random.Random(1234)
loaded = rejected = 0
for i in range(400):
    b = bytearray(good)
    for _ in range(rnd.randint(1, 8)):
        b[rnd.randrange(len(b))] = rnd.randrange(256)
    if rnd.random() < 0.2:
        b = b[: rnd.randrange(len(b))]
    try:
        p = backends.load_program(bytes(b), {})
        loaded += 1
        try:
            p.run(np.zeros(2, np.float32))
        except backends.BackendError:
            pass
    except backends.BackendError:
        rejected += 1
print("OK", loaded, rejected)
"""
    env = dict(os.environ, MLX_DELEGATE_HOST_LIB=str(runtime_build / "libmlx_delegate_host.so"))
    env.pop("MLX_BACKEND_PATH", None)
    repo = runtime_build.parents[1]
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, env=env, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().startswith("OK"), proc.stdout
