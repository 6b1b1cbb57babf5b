"""The C++ runner mlxd-run (no Python, no torch in the process), its batch
mode, and the .bin tensor format it shares with mlx_delegate.formats.tensor_bin."""

from __future__ import annotations

import os
import struct
import subprocess
from pathlib import Path

import pytest
import torch

import delegate_pte as d
from mlx_delegate.formats.tensor_bin import DTYPES, TensorFileError, read_tensors, write_tensors
from mlx_delegate.formats._generated import tensor_file_format
from mlx_delegate.formats.tensor_bin_format import read_arrays


@pytest.fixture(scope="session")
def runner(runtime_build: Path) -> Path:
    exe = runtime_build / "mlxd-run"
    assert exe.is_file(), f"{exe} was not built (is executorch's CMake package found?)"
    return exe


@pytest.fixture(scope="session")
def add_model(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("models") / "add.pte"
    path.write_bytes(d.add_pte((2, 3)))
    return path


def run(runner: Path, *args, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {
        k: v for k, v in os.environ.items() if k not in ("MLX_BACKEND_PATH", "MLX_DELEGATE_DEVICE")
    }
    full_env.update(env or {})
    return subprocess.run(
        [str(runner), *map(str, args)], capture_output=True, text=True, env=full_env, timeout=300
    )


def assert_no_crash(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode >= 0, f"killed by signal {-proc.returncode}:\n{proc.stderr}"


# --- the .bin format (no build needed) ---------------------------------------------


def test_tensor_bin_round_trip(tmp_path):
    values = [
        torch.randn(2, 3),
        torch.tensor(1.5, dtype=torch.bfloat16),
        torch.zeros(0, 4, dtype=torch.int64),
        torch.tensor([True, False]),
        torch.tensor([1, 65535], dtype=torch.uint16),
        torch.randn(3, 2, dtype=torch.float64).t(),  # non-contiguous
        torch.arange(6, dtype=torch.int8).reshape(1, 2, 3),
        7,
        2.5,
        False,
    ]
    path = tmp_path / "t.bin"
    write_tensors(path, values)
    back = read_tensors(path)
    assert len(back) == len(values)
    for a, b in zip(values, back):
        if isinstance(a, torch.Tensor):
            assert a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b)
        else:
            assert type(a) is type(b) and a == b


def test_tensor_bin_numpy_reader(tmp_path):
    """tensor_bin_format.read_arrays (no torch) reads what tensor_bin writes;
    bfloat16 comes widened to float32, exactly."""
    values = [
        torch.randn(2, 3).bfloat16(),
        torch.randn(4, dtype=torch.float16),
        torch.arange(6, dtype=torch.int64).reshape(3, 2),
        torch.tensor([True, False]),
        torch.zeros(0, 2),
        7,
        2.5,
    ]
    write_tensors(tmp_path / "t.bin", values)
    back = read_arrays(tmp_path / "t.bin")
    assert [name for name, _ in back] == [
        "bfloat16",
        "float16",
        "int64",
        "bool",
        "float32",
        "int64",
        "float64",
    ]
    for value, (_, array) in zip(values[:5], back):
        want = value.float() if value.is_floating_point() else value
        assert array.shape == tuple(value.shape)
        assert (array == want.numpy()).all()
    assert back[5][1] == 7 and back[6][1] == 2.5


def test_tensor_bin_layout(tmp_path):
    """A file is one TensorFile FlatBuffer of schema/tensor_file.fbs, as its
    generated reader reads it: identifier "MLXT", version 2, the entries."""
    path = tmp_path / "t.bin"
    write_tensors(path, [torch.tensor([[1.0, 2.0]]), 5])
    raw = path.read_bytes()
    assert raw[4:8] == b"MLXT"
    types, reader = tensor_file_format()
    root = reader.decode(raw)
    assert root.version == 2
    tensor, scalar = root.entries
    assert (tensor.kind, tensor.dtype, tensor.dims) == (types.EntryKind.Tensor, 0, [1, 2])
    assert tensor.data == struct.pack("<ff", 1.0, 2.0)
    assert (scalar.kind, scalar.dtype, scalar.dims) == (types.EntryKind.Scalar, 4, [])
    assert scalar.data == struct.pack("<q", 5)
    assert DTYPES[2] is torch.bfloat16 and DTYPES[12] is torch.float64


def raw_layout_file() -> bytes:
    """A float32 [2] tensor in the version-1 raw layout (before FlatBuffers)."""
    header = b"MLXT" + struct.pack("<III", 1, 1, 0)
    return header + struct.pack("<BBHIqQ", 0, 0, 0, 1, 2, 8) + struct.pack("<ff", 1.0, 2.0)


def newer_version_file() -> bytes:
    types, _ = tensor_file_format()
    return types.encode(types.TensorFile(version=3, entries=[]))


def test_tensor_bin_names_the_version_it_cannot_read(tmp_path):
    (tmp_path / "old.bin").write_bytes(raw_layout_file())
    with pytest.raises(TensorFileError, match="version-1 raw layout; this build reads version 2"):
        read_tensors(tmp_path / "old.bin")
    (tmp_path / "new.bin").write_bytes(newer_version_file())
    with pytest.raises(TensorFileError, match="has format version 3; this build reads version 2"):
        read_tensors(tmp_path / "new.bin")
    with pytest.raises(
        TensorFileError, match="write it again with mlx_delegate.formats.tensor_bin"
    ):
        read_arrays(tmp_path / "new.bin")


def test_tensor_bin_rejects_garbage(tmp_path):
    path = tmp_path / "t.bin"
    path.write_bytes(b"NOPE" + bytes(12))
    with pytest.raises(TensorFileError, match="file identifier"):
        read_tensors(path)
    write_tensors(path, [torch.randn(4)])
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(TensorFileError, match="truncated"):
        read_tensors(path)
    types, _ = tensor_file_format()
    entry = types.Entry(kind=types.EntryKind.Tensor, dtype=0, dims=[3], data=bytes(8))
    path.write_bytes(types.encode(types.TensorFile(version=2, entries=[entry])))
    with pytest.raises(TensorFileError, match="entry 0: 8 bytes for float32"):
        read_tensors(path)


# --- mlxd-run -------------------------------------------------------------------------


def test_usage_errors(runner):
    proc = run(runner)
    assert proc.returncode == 2 and "usage: mlxd-run" in proc.stderr
    proc = run(runner, "m.pte", "--inputs", "a.bin")
    assert proc.returncode == 2 and "--outputs is required" in proc.stderr
    proc = run(runner, "m.pte", "--inputs", "a", "--outputs", "b", "--repeat", "0")
    assert proc.returncode == 2
    assert run(runner, "--help").returncode == 0


def test_runs_add_and_matches_torch(runner, add_model, tmp_path):
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    write_tensors(tmp_path / "in.bin", [a, b])
    proc = run(
        runner,
        add_model,
        "--inputs",
        tmp_path / "in.bin",
        "--outputs",
        tmp_path / "out.bin",
        "--repeat",
        "5",
        "--warmup",
        "1",
    )
    assert proc.returncode == 0, proc.stderr
    assert "runs: 5 (warm-up 1); latency ms: median" in proc.stdout
    assert "output 0: float32[2, 3]" in proc.stdout
    (out,) = read_tensors(tmp_path / "out.bin")
    torch.testing.assert_close(out, a + b)


def test_device_flag(runner, add_model, tmp_path):
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    write_tensors(tmp_path / "in.bin", [a, b])
    proc = run(
        runner,
        add_model,
        "--inputs",
        tmp_path / "in.bin",
        "--outputs",
        tmp_path / "out.bin",
        "--device",
        "cpu",
        "--quiet",
        env={"MLX_DELEGATE_LOG": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "device from runtime spec" in proc.stderr and "on cpu:0" in proc.stderr
    torch.testing.assert_close(read_tensors(tmp_path / "out.bin")[0], a + b)

    proc = run(
        runner,
        add_model,
        "--inputs",
        tmp_path / "in.bin",
        "--outputs",
        tmp_path / "out2.bin",
        "--device",
        "gpu:9",
    )
    assert_no_crash(proc)
    assert proc.returncode == 1
    assert "gpu:9" in proc.stderr


def test_constants(runner, tmp_path):
    w = torch.randn(5, 2)
    pte, module = d.constant_pte(w)
    (tmp_path / "m.pte").write_bytes(pte)
    x = torch.randn(5, 2)
    write_tensors(tmp_path / "in.bin", [x])
    proc = run(
        runner,
        tmp_path / "m.pte",
        "--inputs",
        tmp_path / "in.bin",
        "--outputs",
        tmp_path / "out.bin",
    )
    assert proc.returncode == 0, proc.stderr
    torch.testing.assert_close(read_tensors(tmp_path / "out.bin")[0], module(x))


def test_external_data_file(runner, tmp_path):
    w = torch.randn(3, 3)
    pte, module = d.constant_pte(w, external_tag="weights", data_dir=tmp_path)
    (tmp_path / "m.pte").write_bytes(pte)
    x = torch.randn(3, 3)
    write_tensors(tmp_path / "in.bin", [x])
    args = [tmp_path / "m.pte", "--inputs", tmp_path / "in.bin", "--outputs", tmp_path / "o.bin"]
    proc = run(runner, *args, "--data", tmp_path / "weights.ptd")
    assert proc.returncode == 0, proc.stderr
    torch.testing.assert_close(read_tensors(tmp_path / "o.bin")[0], module(x))
    proc = run(runner, *args)
    assert proc.returncode == 1 and "constant 'w'" in proc.stderr


def test_mutable_buffer_persists_across_runs(runner, tmp_path):
    init, x = torch.randn(4), torch.randn(4)
    (tmp_path / "m.pte").write_bytes(d.accumulate_pte(init))
    write_tensors(tmp_path / "in.bin", [x])
    proc = run(
        runner,
        tmp_path / "m.pte",
        "--inputs",
        tmp_path / "in.bin",
        "--outputs",
        tmp_path / "out.bin",
        "--warmup",
        "1",
        "--repeat",
        "4",
    )
    assert proc.returncode == 0, proc.stderr
    torch.testing.assert_close(read_tensors(tmp_path / "out.bin")[0], init + 5 * x)


def test_dynamic_shapes(runner, tmp_path):
    n = torch.export.Dim("n", min=1, max=16)
    graph = d.binary_graph(d.S.AddNode, (-1, 3))
    pte = d.build_pte(
        d.Add(),
        (torch.randn(16, 3), torch.randn(16, 3)),
        d.payload(graph),
        dynamic_shapes=({0: n}, {0: n}),
    )
    (tmp_path / "m.pte").write_bytes(pte)
    for rows in (5, 16):
        a, b = torch.randn(rows, 3), torch.randn(rows, 3)
        write_tensors(tmp_path / "in.bin", [a, b])
        proc = run(
            runner,
            tmp_path / "m.pte",
            "--inputs",
            tmp_path / "in.bin",
            "--outputs",
            tmp_path / "out.bin",
            "--repeat",
            "2",
        )
        assert proc.returncode == 0, proc.stderr
        (out,) = read_tensors(tmp_path / "out.bin")
        assert out.shape == (rows, 3)
        torch.testing.assert_close(out, a + b)


def test_symbolic_int_input(runner, tmp_path):
    (tmp_path / "m.pte").write_bytes(d.symint_pte(max_rows=8))
    x = torch.randn(5, 3)
    write_tensors(tmp_path / "in.bin", [x])
    proc = run(
        runner,
        tmp_path / "m.pte",
        "--inputs",
        tmp_path / "in.bin",
        "--outputs",
        tmp_path / "out.bin",
    )
    assert proc.returncode == 0, proc.stderr
    torch.testing.assert_close(read_tensors(tmp_path / "out.bin")[0], x.reshape(15))


def test_bad_inputs_are_errors(runner, add_model, tmp_path):
    write_tensors(tmp_path / "one.bin", [torch.randn(2, 3)])
    proc = run(runner, add_model, "--inputs", tmp_path / "one.bin", "--outputs", tmp_path / "o")
    assert proc.returncode == 1 and "holds 1 inputs" in proc.stderr

    write_tensors(tmp_path / "ints.bin", [torch.ones(2, 3, dtype=torch.int32)] * 2)
    proc = run(runner, add_model, "--inputs", tmp_path / "ints.bin", "--outputs", tmp_path / "o")
    assert proc.returncode == 1 and "expects float32" in proc.stderr

    write_tensors(tmp_path / "cut.bin", [torch.randn(2, 3)] * 2)
    (tmp_path / "cut.bin").write_bytes((tmp_path / "cut.bin").read_bytes()[:-5])
    proc = run(runner, add_model, "--inputs", tmp_path / "cut.bin", "--outputs", tmp_path / "o")
    assert proc.returncode == 1 and "truncated or corrupt" in proc.stderr

    (tmp_path / "junk.bin").write_bytes(b"NOPE" + bytes(12))
    proc = run(runner, add_model, "--inputs", tmp_path / "junk.bin", "--outputs", tmp_path / "o")
    assert proc.returncode == 1 and 'no "MLXT" file identifier' in proc.stderr

    (tmp_path / "old.bin").write_bytes(raw_layout_file())
    proc = run(runner, add_model, "--inputs", tmp_path / "old.bin", "--outputs", tmp_path / "o")
    assert_no_crash(proc)
    assert proc.returncode == 1, proc.stderr
    assert "version-1 raw layout; this build reads version 2" in proc.stderr
    assert "write it again with mlx_delegate.formats.tensor_bin" in proc.stderr

    (tmp_path / "new.bin").write_bytes(newer_version_file())
    proc = run(runner, add_model, "--inputs", tmp_path / "new.bin", "--outputs", tmp_path / "o")
    assert (
        proc.returncode == 1 and "has format version 3; this build reads version 2" in proc.stderr
    )

    proc = run(
        runner,
        tmp_path / "missing.pte",
        "--inputs",
        tmp_path / "one.bin",
        "--outputs",
        tmp_path / "o",
    )
    assert_no_crash(proc)
    assert proc.returncode == 1


@pytest.mark.parametrize(
    "name",
    ["bad_magic", "garbage_flatbuffer", "truncated_flatbuffer", "segment_out_of_bounds", "empty"],
)
def test_malformed_payload_is_an_error(runner, tmp_path, name):
    bad = d.malformed_payloads()[name]
    pte = d.build_pte(d.Add(), (torch.randn(2, 3), torch.randn(2, 3)), bad)
    (tmp_path / "m.pte").write_bytes(pte)
    write_tensors(tmp_path / "in.bin", [torch.randn(2, 3), torch.randn(2, 3)])
    proc = run(
        runner,
        tmp_path / "m.pte",
        "--inputs",
        tmp_path / "in.bin",
        "--outputs",
        tmp_path / "out.bin",
    )
    assert_no_crash(proc)
    assert proc.returncode == 1
    assert "rejected payload" in proc.stderr, proc.stderr


def test_no_backends_is_an_error(runner, add_model, tmp_path):
    write_tensors(tmp_path / "in.bin", [torch.randn(2, 3), torch.randn(2, 3)])
    empty = tmp_path / "empty"
    empty.mkdir()
    proc = run(
        runner,
        add_model,
        "--inputs",
        tmp_path / "in.bin",
        "--outputs",
        tmp_path / "out.bin",
        env={"MLX_BACKEND_PATH": str(empty)},
    )
    assert_no_crash(proc)
    assert proc.returncode == 1
    assert "no MLX backend plugin loaded" in proc.stderr


# --- mlxd-run --batch ------------------------------------------------------------------


def write_jobs(path: Path, jobs: list) -> Path:
    path.write_text(
        "# model inputs outputs\n\n" + "".join(" ".join(map(str, j)) + "\n" for j in jobs)
    )
    return path


def test_batch_runs_every_job_and_reports_each(runner, add_model, tmp_path):
    pairs = [(torch.randn(2, 3), torch.randn(2, 3)) for _ in range(2)]
    for k, pair in enumerate(pairs):
        write_tensors(tmp_path / f"in{k}.bin", list(pair))
    write_tensors(tmp_path / "one.bin", [torch.randn(2, 3)])  # the add takes two
    jobs = write_jobs(
        tmp_path / "jobs.txt",
        [
            (add_model, tmp_path / "in0.bin", tmp_path / "out0.bin"),
            (add_model, tmp_path / "one.bin", tmp_path / "bad.bin"),
            (tmp_path / "missing.pte", tmp_path / "in0.bin", tmp_path / "gone.bin"),
            (add_model, tmp_path / "in1.bin", tmp_path / "out1.bin"),
        ],
    )
    results = tmp_path / "results.txt"
    proc = run(runner, "--batch", jobs, "--results", results, "--device", "cpu")
    assert_no_crash(proc)
    assert proc.returncode == 1, proc.stderr  # a job failed; the others ran
    lines = [line.split("\t") for line in results.read_text().splitlines()]
    assert [line[:2] for line in lines] == [
        ["0", "ok"],
        ["1", "error"],
        ["2", "error"],
        ["3", "ok"],
    ]
    assert float(lines[0][2]) > 0 and float(lines[0][3]) > 0  # load and run ms
    assert "holds 1 inputs" in lines[1][2]
    assert "missing.pte" in lines[2][2]
    for k, (a, b) in enumerate(pairs):
        torch.testing.assert_close(read_tensors(tmp_path / f"out{k}.bin")[0], a + b)
    # The log lines of each job follow its marker.
    stderr = proc.stderr.splitlines()
    assert [s for s in stderr if s.startswith("mlxd-run: job ")] == [
        f"mlxd-run: job {k}: {j}"
        for k, j in enumerate([add_model, add_model, tmp_path / "missing.pte", add_model])
    ]
    assert "mlxd-run: 4 job(s), 2 failed" in proc.stderr


def test_batch_results_on_stdout_and_usage_errors(runner, add_model, tmp_path):
    write_tensors(tmp_path / "in.bin", [torch.randn(2, 3), torch.randn(2, 3)])
    jobs = write_jobs(tmp_path / "jobs.txt", [(add_model, tmp_path / "in.bin", tmp_path / "o.bin")])
    proc = run(runner, "--batch", jobs, "--warmup", "1", "--repeat", "3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("0\tok\t")

    proc = run(runner, "--batch", jobs, "--inputs", tmp_path / "in.bin")
    assert proc.returncode == 2 and "--batch takes no MODEL" in proc.stderr
    proc = run(runner, add_model, "--inputs", "a", "--outputs", "b", "--results", "r")
    assert proc.returncode == 2 and "--results needs --batch" in proc.stderr

    (tmp_path / "bad.txt").write_text(f"{add_model} {tmp_path / 'in.bin'}\n")
    proc = run(runner, "--batch", tmp_path / "bad.txt")
    assert (
        proc.returncode == 1
        and "bad.txt:1: expected 'MODEL.pte IN.bin OUT.bin [DEVICE]'" in proc.stderr
    )
