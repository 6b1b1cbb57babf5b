"""Compiled execution of instruction chains (runtime_cpp/src/plugin/compiled_chains.cpp):
segments run as mx::compile'd functions, cached per input signature, with
value slots, dynamic shapes and mutable buffers; equal to the interpreter."""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np
import pytest
from test_programs import T, graph

from mlx_delegate.formats.ir import schema as ir
from testbench.framework import interpreted


@pytest.fixture
def info_log(monkeypatch):
    monkeypatch.setenv("MLX_DELEGATE_LOG", "info")


def V(i):
    return ir.Vid(idx=i)


def test_a_segment_with_values_and_dynamic_shapes_is_cached_per_shape(backends, info_log, capfd):
    # v0 = size(x, 0); v1 = 2 * v0; out0 = tanh(reshape(exp(x), [v1, -1])) + 1;
    # out1 = v1: one segment whose value outputs and shapes follow x's shape.
    # Slots: constant 0, input 1, output 2, temps 3 and 4.
    g = graph(
        [
            ir.SymSizeNode(x=T(1), dim=0, out=V(0)),
            ir.IntBinaryNode(
                op=ir.IntBinaryOp.Mul, a=ir.IntOrVid(vid=V(0)), b=ir.IntOrVid(literal=2), out=V(1)
            ),
            ir.ExpNode(x=T(1), out=T(3)),
            ir.ReshapeNode(
                x=T(3), out=T(4), shape=[ir.IntOrVid(vid=V(1)), ir.IntOrVid(literal=-1)]
            ),
            ir.TanhNode(x=T(4), out=T(3)),
            ir.AddNode(a=T(3), b=T(0), out=T(2)),
        ],
        constants=[("one", np.ones((), np.float32))],
        inputs=[np.zeros((4, 6), np.float32)],
        n_temps=2,
        n_values=2,
        output_map=[
            ir.SlotRef(kind=ir.SlotKind.Tensor, idx=2),
            ir.SlotRef(kind=ir.SlotKind.Value, idx=1),
        ],
    )
    g.tensor_meta[1] = ir.TensorMeta(
        shape=[ir.IntOrVid(literal=-1), ir.IntOrVid(literal=6)], dtype=ir.DType.Float32
    )
    constants = {"one": np.ones((), np.float32)}
    p = backends.load_program(ir.encode(g), constants)
    assert "1 compiled segments hold 6 of 6 instructions" in capfd.readouterr().err
    rng = np.random.default_rng(1)
    for rows in (4, 2, 4, 4, 6, 2):  # misses, then hits that must restore the values
        x = rng.standard_normal((rows, 6)).astype(np.float32)
        out, v = p.run(x)
        expected = np.tanh(np.exp(x).reshape(2 * rows, -1)) + 1
        np.testing.assert_allclose(out, expected, rtol=1e-6, atol=1e-6)
        assert int(v) == 2 * rows
    assert "interpreted from now on" not in capfd.readouterr().err


def test_a_segment_that_misses_every_call_falls_back_to_the_interpreter(backends, info_log, capfd):
    g = graph(
        [ir.ExpNode(x=T(0), out=T(2)), ir.NegNode(x=T(2), out=T(1))],
        inputs=[np.zeros((1,), np.float32)],
        n_temps=1,
    )
    g.tensor_meta[0] = ir.TensorMeta(shape=[ir.IntOrVid(literal=-1)], dtype=ir.DType.Float32)
    p = backends.load_program(ir.encode(g), {})
    for n in range(1, 15):
        x = np.linspace(-1, 1, n, dtype=np.float32)
        np.testing.assert_allclose(p.run(x)[0], -np.exp(x), rtol=1e-6)
    assert "run interpreted from now on: 9 signatures in 9 calls" in capfd.readouterr().err


def test_data_dependent_values_stay_with_the_interpreter(backends, info_log, capfd):
    # v0 = item(n); out = exp(x)[:v0] * 2: the slice's end follows data, so the
    # slice and its reader are interpreted; exp alone is not worth a segment.
    g = graph(
        [
            ir.ItemNode(x=T(1), out=V(0)),
            ir.ExpNode(x=T(0), out=T(3)),
            ir.SliceNode(
                x=T(3),
                out=T(4),
                axis=0,
                start=ir.IntOrVid(literal=0),
                stop=ir.IntOrVid(vid=V(0)),
                step=1,
            ),
            ir.MultiplyNode(a=T(4), b=T(4), out=T(2)),
        ],
        inputs=[np.zeros((8,), np.float32), np.zeros((), np.int64)],
        n_temps=2,
        n_values=1,
    )
    p = backends.load_program(ir.encode(g), {})
    assert "0 compiled segments hold 0 of 4 instructions" in capfd.readouterr().err
    x = np.linspace(0, 1, 8, dtype=np.float32)
    for n in (3, 5, 8):
        np.testing.assert_allclose(p.run(x, np.int64(n))[0], np.exp(x)[:n] ** 2, rtol=1e-6)


def test_a_buffer_made_from_an_input_does_not_keep_the_callers_memory(backends):
    # out = buf + x; buf = reshape(x) (a view of x in MLX). However inputs
    # reach MLX (adopted or copied), the buffer must not alias the caller's
    # array, which the caller may change.
    g = graph(
        [
            ir.AddNode(a=T(2), b=T(0), out=T(1)),
            ir.ReshapeNode(x=T(0), out=T(2), shape=[ir.IntOrVid(literal=4)]),
        ],
        inputs=[np.zeros((4,), np.float32)],
        mutable=[("buf", np.zeros((4,), np.float32))],
    )
    for flag in (None, "0"):
        with interpreted() if flag else nullcontext():
            p = backends.load_program(ir.encode(g), {})
        first = np.arange(4, dtype=np.float32)
        assert p.run(first)[0].tolist() == [0, 1, 2, 3]
        first[:] = 100  # the caller reuses its buffer
        second = np.ones(4, np.float32)
        assert p.run(second)[0].tolist() == [1, 2, 3, 4]


def test_inputs_are_never_written(backends):
    # exp(x) + 1 would write into x's buffer if MLX donated an adopted input.
    g = graph(
        [ir.ExpNode(x=T(1), out=T(3)), ir.AddNode(a=T(3), b=T(0), out=T(2))],
        constants=[("one", np.ones((), np.float32))],
        inputs=[np.zeros((16,), np.float32)],
        n_temps=1,
    )
    p = backends.load_program(ir.encode(g), {"one": np.ones((), np.float32)})
    x = np.linspace(0, 1, 16, dtype=np.float32)
    before = x.copy()
    for _ in range(3):
        np.testing.assert_allclose(p.run(x)[0], np.exp(before) + 1, rtol=1e-6)
    assert np.array_equal(x, before)


def test_compilation_can_be_switched_off(backends, info_log, capfd):
    g = graph(
        [ir.ExpNode(x=T(0), out=T(2)), ir.NegNode(x=T(2), out=T(1))],
        inputs=[np.zeros((3,), np.float32)],
        n_temps=1,
    )
    with interpreted():
        backends.load_program(ir.encode(g), {})
    assert "the program runs instruction by instruction" in capfd.readouterr().err
    g.compile_chains = False
    backends.load_program(ir.encode(g), {})
    assert "the program runs instruction by instruction" in capfd.readouterr().err
    g.compile_chains = True
    backends.load_program(ir.encode(g), {})
    assert "1 compiled segments hold 2 of 2 instructions" in capfd.readouterr().err
