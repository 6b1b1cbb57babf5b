"""The ExecuTorch delegate backend (libmlx_delegate.so) through the executorch
Python runtime: registration, execution of hand-built `.pte` files against
torch, constants from the named data map, device selection, dynamic output
shapes, and malformed payloads rejected with an error instead of a crash.

Every run happens in a fresh process (the `scenario` fixture), so a crash
would show as a failed process rather than take the test session down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

import delegate_pte as d
from mlx_delegate.formats.tensor_bin import read_tensors, write_tensors

# Loads a .pte with executorch.runtime after `import mlx_delegate.runtime`,
# runs it on the inputs of IN (a .bin file) and writes the outputs to OUT;
# `result` reports the outcome instead of raising.
RUN_PTE = """
import mlx_delegate.runtime as mr
from executorch.runtime import Runtime
from mlx_delegate.formats.tensor_bin import read_tensors, write_tensors
rt = Runtime.get()
result = {"registered": "MLXDelegateBackend" in rt.backend_registry.registered_backend_names}
try:
    program = rt.load_program(PTE, data_path=DATA)
    method = program.load_method("forward")
    for _ in range(REPEAT - 1):
        method.execute(read_tensors(IN))
    outputs = method.execute(read_tensors(IN))
    write_tensors(OUT, list(outputs))
    result["ok"] = True
except Exception as e:
    result["ok"] = False
    result["error"] = f"{type(e).__name__}: {e}"
"""


@pytest.fixture(scope="session")
def delegate_lib(runtime_build: Path) -> Path:
    lib = runtime_build / "libmlx_delegate.so"
    assert lib.is_file(), f"{lib} was not built (is executorch's CMake package found?)"
    return lib


def run_pte(
    scenario,
    tmp_path: Path,
    pte: bytes,
    inputs: list,
    *,
    env=None,
    backend_path=None,
    repeat: int = 1,
    data_path: Path | None = None,
):
    pte_path = tmp_path / "model.pte"
    pte_path.write_bytes(pte)
    in_path, out_path = tmp_path / "in.bin", tmp_path / "out.bin"
    write_tensors(in_path, inputs)
    body = (
        f"PTE = {str(pte_path)!r}\nIN = {str(in_path)!r}\nOUT = {str(out_path)!r}\n"
        f"REPEAT = {repeat}\nDATA = {str(data_path) if data_path else None!r}\n" + RUN_PTE
    )
    result, proc = scenario.run(body, env=env, backend_path=backend_path, check=False, warm=True)
    assert proc.returncode == 0, f"process died (rc {proc.returncode}):\n{proc.stderr[-4000:]}"
    outputs = read_tensors(out_path) if result and result.get("ok") else None
    return result, outputs, proc


def test_backend_registered(scenario, delegate_lib):
    result, _ = scenario.run(
        """
        import mlx_delegate.runtime as mr
        from executorch.runtime import Runtime
        rt = Runtime.get()
        result = {
            "names": list(rt.backend_registry.registered_backend_names),
            "available": rt.backend_registry.is_available("MLXDelegateBackend"),
            "registered": mr.is_registered(),
            "lib": str(mr.library_path()),
        }
        """,
        warm=True,
    )
    assert "MLXDelegateBackend" in result["names"]
    assert result["available"] is True
    assert result["registered"] is True
    assert result["lib"] == str(delegate_lib)


def test_add_matches_torch(scenario, delegate_lib, tmp_path):
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    result, outputs, proc = run_pte(scenario, tmp_path, d.add_pte((2, 3)), [a, b], repeat=3)
    assert result["registered"]
    assert result["ok"], result.get("error", "") + proc.stderr[-3000:]
    assert len(outputs) == 1
    torch.testing.assert_close(outputs[0], a + b)


def test_constant_from_named_data_map(scenario, delegate_lib, tmp_path):
    w = torch.randn(3, 4)
    pte, module = d.constant_pte(w, name="weight.w")
    x = torch.randn(3, 4)
    result, outputs, proc = run_pte(scenario, tmp_path, pte, [x])
    assert result["ok"], result.get("error", "") + proc.stderr[-3000:]
    torch.testing.assert_close(outputs[0], module(x))


def test_constants_in_external_ptd(scenario, delegate_lib, tmp_path):
    w = torch.randn(2, 5)
    pte, module = d.constant_pte(w, external_tag="weights", data_dir=tmp_path)
    x = torch.randn(2, 5)
    result, outputs, proc = run_pte(
        scenario, tmp_path, pte, [x], data_path=tmp_path / "weights.ptd"
    )
    assert result["ok"], result.get("error", "") + proc.stderr[-3000:]
    torch.testing.assert_close(outputs[0], module(x))
    # Without the .ptd: the constant cannot be resolved, an error.
    result, _, proc = run_pte(scenario, tmp_path, pte, [x])
    assert result["ok"] is False
    assert "constant 'w'" in proc.stderr


def test_mutable_buffer_persists_across_calls(scenario, delegate_lib, tmp_path):
    init = torch.randn(2, 3)
    x = torch.randn(2, 3)
    # Three executions of one loaded method: acc = init + 3x afterwards.
    result, outputs, proc = run_pte(scenario, tmp_path, d.accumulate_pte(init), [x], repeat=3)
    assert result["ok"], result.get("error", "") + proc.stderr[-3000:]
    torch.testing.assert_close(outputs[0], init + 3 * x)


def test_dynamic_output_shape_resizes_the_output(scenario, delegate_lib, tmp_path):
    n = torch.export.Dim("n", min=1, max=8)
    a, b = torch.randn(8, 4), torch.randn(8, 4)
    graph = d.binary_graph(d.S.MultiplyNode, (-1, 4))  # -1: a dynamic dimension
    pte = d.build_pte(d.Mul(), (a, b), d.payload(graph), dynamic_shapes=({0: n}, {0: n}))
    for rows in (3, 8, 1):
        x, y = torch.randn(rows, 4), torch.randn(rows, 4)
        result, outputs, proc = run_pte(scenario, tmp_path, pte, [x, y])
        assert result["ok"], result.get("error", "") + proc.stderr[-3000:]
        assert outputs[0].shape == (rows, 4)
        torch.testing.assert_close(outputs[0], x * y)


def test_symbolic_int_input(scenario, delegate_lib, tmp_path):
    pte = d.symint_pte(max_rows=8)
    for rows in (2, 8):
        x = torch.randn(rows, 3)
        result, outputs, proc = run_pte(scenario, tmp_path, pte, [x])
        assert result["ok"], result.get("error", "") + proc.stderr[-3000:]
        torch.testing.assert_close(outputs[0], x.reshape(rows * 3))


def test_compile_spec_device_cpu(scenario, delegate_lib, tmp_path):
    a, b = torch.randn(4), torch.randn(4)
    result, outputs, proc = run_pte(
        scenario, tmp_path, d.add_pte((4,), device="cpu"), [a, b], env={"MLX_DELEGATE_LOG": "1"}
    )
    assert result["ok"], result.get("error", "") + proc.stderr[-3000:]
    torch.testing.assert_close(outputs[0], a + b)
    assert "on cpu:0" in proc.stderr and "device from compile spec" in proc.stderr


def test_env_device_override_is_strict(scenario, delegate_lib, tmp_path):
    a, b = torch.randn(4), torch.randn(4)
    result, _, proc = run_pte(
        scenario, tmp_path, d.add_pte((4,)), [a, b], env={"MLX_DELEGATE_DEVICE": "gpu:7"}
    )
    assert result["ok"] is False
    assert "MLX_DELEGATE_DEVICE" in proc.stderr


def test_bad_device_string_is_an_error(scenario, delegate_lib, tmp_path):
    a, b = torch.randn(4), torch.randn(4)
    result, _, proc = run_pte(
        scenario, tmp_path, d.add_pte((4,)), [a, b], env={"MLX_DELEGATE_DEVICE": "tpu:x"}
    )
    assert result["ok"] is False
    assert "bad device 'tpu:x'" in proc.stderr


def test_no_backend_plugins_is_an_error_not_a_crash(scenario, delegate_lib, tmp_path):
    empty = tmp_path / "no_backends"
    empty.mkdir()
    a, b = torch.randn(4), torch.randn(4)
    result, _, proc = run_pte(scenario, tmp_path, d.add_pte((4,)), [a, b], backend_path=str(empty))
    assert result["ok"] is False
    assert "no MLX backend plugin loaded" in proc.stderr


@pytest.mark.parametrize("name", sorted(d.malformed_payloads()))
def test_malformed_payload_is_rejected(scenario, delegate_lib, tmp_path, name):
    bad = d.malformed_payloads()[name]
    pte = d.build_pte(d.Add(), (torch.randn(2, 3), torch.randn(2, 3)), bad)
    result, _, proc = run_pte(scenario, tmp_path, pte, [torch.randn(2, 3), torch.randn(2, 3)])
    assert result["ok"] is False, f"{name} was accepted"
    assert "rejected payload" in proc.stderr or "rejected the program" in proc.stderr, proc.stderr


def test_check_payload_api(scenario, delegate_lib):
    cases = {name: payload.hex() for name, payload in d.malformed_payloads().items()}
    good = d.payload(d.binary_graph(d.S.AddNode, (2, 3))).hex()
    result, _ = scenario.run(
        f"""
        import mlx_delegate.runtime as mr
        cases = {json.dumps(cases)}
        result = {{"verifies": mr.verifies_flatbuffer()}}
        mr.check_payload(bytes.fromhex({good!r}))
        for name, hex_payload in cases.items():
            try:
                mr.check_payload(bytes.fromhex(hex_payload))
                result[name] = "accepted"
            except ValueError as e:
                result[name] = str(e)
        """,
        warm=True,
    )
    assert result.pop("verifies") is True
    for name, message in result.items():
        assert message != "accepted", name
    assert "magic" in result["bad_magic"]
    assert "FlatBuffer" in result["garbage_flatbuffer"]
    assert "verification failed" in result["garbage_with_identifier"]
    assert "verification failed" in result["truncated_flatbuffer"]


def test_set_device_validates(scenario, delegate_lib):
    result, _ = scenario.run(
        """
        import mlx_delegate.runtime as mr
        mr.set_device("cpu")
        mr.set_device(None)
        try:
            mr.set_device("gpu:zz")
            result = "accepted"
        except ValueError as e:
            result = str(e)
        """,
        warm=True,
    )
    assert "bad device" in result


def test_loading_on_a_device_restores_the_override_set_before(scenario, delegate_lib):
    # gpu:7 (no such device) stays the process's override around a block that
    # loads on the CPU: the load inside works, the one after fails again.
    pte = d.add_pte((4,)).hex()
    result, proc = scenario.run(
        f"""
        import mlx_delegate.runtime as mr
        from executorch.runtime import Runtime
        pte = bytes.fromhex({pte!r})
        def loads():
            try:
                Runtime.get().load_program(pte).load_method("forward")
                return True
            except RuntimeError:
                return False
        mr.set_device("gpu:7")
        result = [loads()]
        with mr.loading_on("cpu"):
            result.append(loads())
        result.append(loads())
        """,
        warm=True,
    )
    assert result == [False, True, False], proc.stderr[-2000:]


@pytest.mark.parametrize("name", sorted(d.invalid_programs()))
def test_invalid_program_is_an_error(scenario, delegate_lib, tmp_path, name):
    # Refused by the plugin at load time or at the first execute; either way
    # an error from the delegate, not a crash.
    pte = d.build_pte(d.Add(), (torch.randn(2, 3), torch.randn(2, 3)), d.invalid_programs()[name])
    result, _, proc = run_pte(scenario, tmp_path, pte, [torch.randn(2, 3), torch.randn(2, 3)])
    assert result["ok"] is False, f"{name} was accepted"
    assert (
        "rejected the program" in proc.stderr or "MLXDelegateBackend: execution on" in proc.stderr
    ), proc.stderr
