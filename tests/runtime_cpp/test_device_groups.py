"""Programs split over a device group (runtime_cpp/src/plugin/program.cpp):
each instruction runs on the stream of its device of the group, a compiled
segment never spans two devices, and a group that does not fit the program is
refused with a message. On the CPU, a group names cpu:0 more than once: its
parts then run on streams (threads) of their own."""

from __future__ import annotations


import numpy as np
import pytest
from test_programs import T, graph

from mlx_delegate.ir import schema as ir

RNG = np.random.default_rng(7)
X = RNG.standard_normal((3, 8)).astype(np.float32)
W = RNG.standard_normal((8, 6)).astype(np.float32)  # hidden units: its columns
V = RNG.standard_normal((6, 8)).astype(np.float32)


def split_matmuls(devices=(0, 0, 1, 1, 0), compile_chains=True) -> tuple[bytes, dict]:
    """out = x @ W @ V as the sum of two parts over halves of the hidden units:
    part k's two products on device devices[2k], devices[2k + 1]; the sum on
    devices[4]. Slots: constants W0 W1 V0 V1, input x, output, temps."""
    constants = [
        ("w0", W[:, :3].copy()),
        ("w1", W[:, 3:].copy()),
        ("v0", V[:3].copy()),
        ("v1", V[3:].copy()),
    ]
    x, out, h0, u0, h1, u1 = T(4), T(5), T(6), T(7), T(8), T(9)
    nodes = [
        ir.MatmulNode(a=x, b=T(0), out=h0),
        ir.MatmulNode(a=h0, b=T(2), out=u0),
        ir.MatmulNode(a=x, b=T(1), out=h1),
        ir.MatmulNode(a=h1, b=T(3), out=u1),
        ir.AddNode(a=u0, b=u1, out=out),
    ]
    g = graph(nodes, constants=constants, inputs=[X], n_temps=4)
    for instruction, device in zip(g.instruction_chains[0].instructions, devices):
        instruction.device = device
    g.compile_chains = compile_chains
    return ir.encode(g), dict(constants)


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "interpreted"])
def test_a_program_split_over_two_streams_of_the_cpu_matches_the_unsplit_product(
    backends, compiled
):
    payload, constants = split_matmuls(compile_chains=compiled)
    program = backends.load_program(payload, constants, device="cpu:0,cpu:0")
    for _ in range(3):  # the streams are reused call after call
        (out,) = program.run(X)
        np.testing.assert_allclose(out, X @ W @ V, rtol=1e-5, atol=1e-5)


def test_a_compiled_segment_stays_on_one_device(backends, monkeypatch, capfd):
    monkeypatch.setenv("MLX_DELEGATE_LOG", "info")
    payload, constants = split_matmuls(devices=(0, 0, 1, 1, 0))
    backends.load_program(payload, constants, device="cpu:0,cpu:0")
    err = capfd.readouterr().err
    assert "the program is split over devices 0,0" in err
    assert "2 compiled segments hold 4 of 5 instructions" in err
    payload, constants = split_matmuls(devices=(0, 1, 0, 1, 0))  # no two neighbours alike
    backends.load_program(payload, constants, device="cpu:0,cpu:0")
    assert "0 compiled segments hold 0 of 5 instructions" in capfd.readouterr().err


def test_an_unsplit_program_runs_as_before_on_one_device(backends):
    payload, constants = split_matmuls(devices=(0,) * 5)
    (out,) = backends.load_program(payload, constants, device="cpu:0").run(X)
    np.testing.assert_allclose(out, X @ W @ V, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "device, message",
    [
        ("cpu:0", "the program is split over 2 devices, and cpu:0 and the 1 after it are not all"),
        ("cpu:0,cpu:0,cpu:0", "split over 2 device(s), and the device group given has 3"),
        ("cpu:0,cpu:1", "device cpu:1 is out of range"),
        ("cpu:0,,cpu:0", "bad device group 'cpu:0,,cpu:0'"),
        ("cpu:0,tpu:0", "bad device 'tpu:0'"),
    ],
)
def test_a_group_that_does_not_fit_the_program_is_refused(backends, device, message):
    payload, constants = split_matmuls()
    with pytest.raises(backends.BackendError) as info:
        backends.load_program(payload, constants, device=device)
    assert message in str(info.value)


def test_the_one_device_message_says_what_to_do(backends):
    payload, constants = split_matmuls()
    with pytest.raises(backends.BackendError, match='e.g. "cpu:0,cpu:0" to run every part'):
        backends.load_program(payload, constants, device="cpu")
