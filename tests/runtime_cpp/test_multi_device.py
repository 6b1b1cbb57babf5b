"""Several devices (issue 12) on the CPU: the device map and memory routing over
two fake GPUs (one backend with two devices, two backends with one each),
placement of a program on `gpu:1` by the host, the delegate and mlxd-run, the
errors for an index past the last device, and two programs run from two
threads (host C API and mlxd-run --threads)."""

from __future__ import annotations

import os
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest
import torch

import delegate_pte as d
from mlx_delegate.formats.tensor_bin import read_tensors, write_tensors

# The fake plugins (runtime_cpp/CMakeLists.txt): agpu score 50, 1 GPU, memory
# figures M = 234; multi-high score 30, 1 GPU, M = 1; zgpu score 100, 2 GPUs,
# M = 1000. Active = M, peak = 2M, memory limit = 5M.
LAYOUT = """
m = backends.memory
result = {
    "list": [(b.name, b.devices) for b in backends.list()],
    "count": backends.device_count("gpu"),
    "devices": {s: (backends.device(s)["backend"]["name"], backends.device(s)["local_index"])
                for s in ["gpu:0", "gpu:1"]},
    "memory": {s: [m(f, s) for f in ["get_active_memory", "get_peak_memory", "get_memory_limit"]]
               for s in ["gpu:0", "gpu:1"]},
}
try:
    backends.device("gpu:2")
except backends.BackendError as e:
    result["gpu2"] = str(e)
try:
    backends.load_program(b"not run: the fake backends load no program", device="gpu:1")
except backends.BackendError as e:
    result["load_gpu1"] = str(e)
"""


def test_two_gpu_backends_of_one_device_each(scenario, test_plugin_dir):
    result, _ = scenario.run(
        'backends.load_all(allowed=["agpu", "multi-high"])\n' + LAYOUT,
        backend_path=str(test_plugin_dir),
    )
    assert result["list"] == [["agpu", ["gpu:0"]], ["multi-high", ["gpu:1"]]]
    assert result["count"] == 2
    assert result["devices"] == {"gpu:0": ["agpu", 0], "gpu:1": ["multi-high", 0]}
    # Each device answers with its own backend's figures.
    assert result["memory"] == {"gpu:0": [234, 468, 1170], "gpu:1": [1, 2, 5]}
    assert "gpu:2 is out of range: 2 GPU device(s) loaded (agpu gpu:0, multi-high gpu:1)" in (
        result["gpu2"]
    )
    assert "multi-high is a fake backend" in result["load_gpu1"]
    assert "local device 0" in result["load_gpu1"]


def test_one_gpu_backend_with_two_devices(scenario, test_plugin_dir):
    result, _ = scenario.run(
        'backends.load_all(allowed=["zgpu"])\n'
        + LAYOUT
        + 'result["limit_set_on_gpu1"] = [m("set_memory_limit", "gpu:1", 77),'
        + ' m("get_memory_limit", "gpu:0")]\n',
        backend_path=str(test_plugin_dir),
    )
    assert result["list"] == [["zgpu", ["gpu:0", "gpu:1"]]]
    assert result["count"] == 2
    assert result["devices"] == {"gpu:0": ["zgpu", 0], "gpu:1": ["zgpu", 1]}
    # The plugin interface's memory functions take no device (MLX's are
    # process-wide): both devices of one backend answer the backend's figures,
    # and a limit set through gpu:1 is the backend's (PLUGINS.md).
    assert result["memory"] == {"gpu:0": [1000, 2000, 5000], "gpu:1": [1000, 2000, 5000]}
    assert result["limit_set_on_gpu1"] == [5000, 77]
    assert "gpu:2 is out of range: 2 GPU device(s) loaded (zgpu gpu:0-1)" in result["gpu2"]
    assert "zgpu is a fake backend" in result["load_gpu1"]
    assert "local device 1" in result["load_gpu1"]


# --- the delegate and the runner place the program on the device asked for ----------


@pytest.fixture(scope="module")
def fake_gpus(tmp_path_factory, test_plugin_dir) -> Path:
    """A plugin folder with only the fake zgpu (gpu:0-1) and agpu (gpu:2)."""
    folder = tmp_path_factory.mktemp("fake_gpus")
    for name in ("libmlx-zgpu.so", "libmlx-agpu.so"):
        (folder / name).symlink_to(test_plugin_dir / name)
    return folder


@pytest.fixture(scope="module")
def runner(runtime_build: Path) -> Path:
    exe = runtime_build / "mlxd-run"
    assert exe.is_file(), f"{exe} was not built"
    return exe


def run(runner: Path, *args, env: dict | None = None) -> subprocess.CompletedProcess:
    full_env = {
        k: v for k, v in os.environ.items() if k not in ("MLX_BACKEND_PATH", "MLX_DELEGATE_DEVICE")
    }
    full_env.update(env or {})
    proc = subprocess.run(
        [str(runner), *map(str, args)], capture_output=True, text=True, env=full_env, timeout=300
    )
    assert proc.returncode >= 0, f"killed by signal {-proc.returncode}:\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def add_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("add")
    a, b = torch.randn(2, 3), torch.randn(2, 3)
    write_tensors(folder / "in.bin", [a, b])
    pte = {}
    for device in (None, "gpu:1", "gpu:3"):
        pte[device] = folder / f"add_{device}.pte"
        pte[device].write_bytes(d.add_pte((2, 3), device=device))
    return folder, pte, a + b


def test_runner_device_flag_reaches_the_plugin(runner, add_files, fake_gpus, tmp_path):
    folder, pte, _ = add_files
    env = {"MLX_BACKEND_PATH": str(fake_gpus)}
    common = [pte[None], "--inputs", folder / "in.bin", "--outputs", tmp_path / "o.bin"]
    for device, backend, local in [("gpu:1", "zgpu", 1), ("gpu:2", "agpu", 0)]:
        proc = run(runner, *common, "--device", device, env=env)
        assert proc.returncode == 1
        assert f"backend '{backend}' rejected the program on {device}" in proc.stderr
        assert f"(asked for local device {local})" in proc.stderr
    proc = run(runner, *common, "--device", "gpu:3", env=env)
    assert proc.returncode == 1
    assert "gpu:3 is out of range: 3 GPU device(s) loaded (zgpu gpu:0-1, agpu gpu:2)" in (
        proc.stderr
    )


def test_runner_places_a_program_on_one_device_of_its_backend(
    runner, add_files, fake_gpus, tmp_path
):
    """The backend-local index reaches the plugin; a list of devices is
    refused: several devices are several processes."""
    folder, pte, _ = add_files
    env = {"MLX_BACKEND_PATH": str(fake_gpus)}
    common = [pte[None], "--inputs", folder / "in.bin", "--outputs", tmp_path / "o.bin"]
    proc = run(runner, *common, "--device", "gpu:1", env=env)
    assert proc.returncode == 1
    assert "backend 'zgpu' rejected the program on gpu:1" in proc.stderr
    assert "(asked for local device 1)" in proc.stderr
    proc = run(runner, *common, "--device", "gpu:2", env=env)
    assert "(asked for local device 0)" in proc.stderr  # agpu's first
    proc = run(runner, *common, "--device", "gpu:0,gpu:1", env=env)
    assert proc.returncode != 0
    assert "a model over several runs as a process a device" in proc.stderr


def test_runner_index_past_the_last_device_with_the_cpu_plugin(runner, add_files, tmp_path):
    folder, pte, _ = add_files
    common = [pte[None], "--inputs", folder / "in.bin", "--outputs", tmp_path / "o.bin"]
    proc = run(runner, *common, "--device", "cpu:1")
    assert proc.returncode == 1
    assert "cpu:1 is out of range: 1 CPU device(s) loaded (cpu-" in proc.stderr
    assert "cpu:0)" in proc.stderr
    proc = run(runner, *common, "--device", "gpu:1")
    assert proc.returncode == 1
    assert "no GPU backend loaded for device gpu:1" in proc.stderr


def test_compile_spec_device(runner, add_files, fake_gpus, tmp_path):
    folder, pte, expected = add_files
    args = ["--inputs", folder / "in.bin", "--outputs", tmp_path / "o.bin"]
    fakes = {"MLX_BACKEND_PATH": str(fake_gpus), "MLX_DELEGATE_LOG": "1"}
    # MLXPartitioner(device="gpu:1"): the program goes to gpu:1, zgpu's device 1.
    proc = run(runner, pte["gpu:1"], *args, env=fakes)
    assert proc.returncode == 1
    assert "backend 'zgpu' rejected the program on gpu:1" in proc.stderr
    assert "(asked for local device 1)" in proc.stderr
    # An index past the last GPU is an error, not a fallback.
    proc = run(runner, pte["gpu:3"], *args, env=fakes)
    assert proc.returncode == 1
    assert "device gpu:3 (from compile spec)" in proc.stderr and "using cpu" not in proc.stderr
    assert "out of range: 3 GPU device(s) loaded (zgpu gpu:0-1, agpu gpu:2)" in proc.stderr
    # Without any GPU backend, a GPU from the compile spec runs on the CPU.
    proc = run(runner, pte["gpu:3"], *args, env={"MLX_DELEGATE_LOG": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "unavailable" in proc.stderr and "using cpu" in proc.stderr
    torch.testing.assert_close(read_tensors(tmp_path / "o.bin")[0], expected)


# --- two programs from two threads ---------------------------------------------------


def test_two_programs_from_two_threads_through_the_host(runtime_build):
    """Two programs on cpu:0, each run from its own thread (ctypes releases the
    GIL, so the plugin calls overlap), against numpy."""
    os.environ["MLX_DELEGATE_HOST_LIB"] = str(runtime_build / "libmlx_delegate_host.so")
    os.environ.pop("MLX_BACKEND_PATH", None)
    from mlx_delegate.host import backends

    backends.load_all()
    shape = (64, 64)
    programs = {
        "add": (backends.load_program(d.payload(d.binary_graph(d.S.AddNode, shape))), np.add),
        "mul": (
            backends.load_program(d.payload(d.binary_graph(d.S.MultiplyNode, shape))),
            np.multiply,
        ),
    }
    errors = []

    def work(name):
        program, reference = programs[name]
        rng = np.random.default_rng(len(name))
        try:
            for _ in range(100):
                a, b = (rng.standard_normal(shape, dtype=np.float32) for _ in range(2))
                (out,) = program.run(a, b)
                np.testing.assert_array_equal(out, reference(a, b))
        except Exception as e:  # reported by the main thread
            errors.append(f"{name}: {e!r}")

    threads = [threading.Thread(target=work, args=(name,)) for name in programs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert {p.device for p, _ in programs.values()} == {"cpu:0"}


def test_runner_threads_and_per_job_devices(runner, add_files, tmp_path):
    folder, pte, expected = add_files
    w = torch.randn(2, 3)
    const_pte, module = d.constant_pte(w)
    (tmp_path / "const.pte").write_bytes(const_pte)
    x = torch.randn(2, 3)
    write_tensors(tmp_path / "x.bin", [x])
    jobs = [
        (pte[None], folder / "in.bin", tmp_path / "add0.bin", "cpu:0"),
        (tmp_path / "const.pte", tmp_path / "x.bin", tmp_path / "const0.bin", "cpu"),
        (pte[None], folder / "in.bin", tmp_path / "add1.bin"),
        (tmp_path / "const.pte", tmp_path / "x.bin", tmp_path / "const1.bin", "cpu:0"),
        (pte[None], folder / "in.bin", tmp_path / "bad.bin", "cpu:1"),
    ]
    (tmp_path / "jobs.txt").write_text("".join(" ".join(map(str, j)) + "\n" for j in jobs))
    proc = run(
        runner, "--batch", tmp_path / "jobs.txt", "--threads", "2", "--repeat", "20",
        "--results", tmp_path / "results.txt", "--device", "gpu:7",
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr  # the cpu:1 job
    lines = sorted(line.split("\t") for line in (tmp_path / "results.txt").read_text().splitlines())
    assert [line[:2] for line in lines] == [
        ["0", "ok"], ["1", "ok"], ["2", "error"], ["3", "ok"], ["4", "error"],
    ]  # fmt: skip
    assert "no GPU backend loaded for device gpu:7" in proc.stderr  # job 2 takes --device
    assert "cpu:1 is out of range" in proc.stderr
    torch.testing.assert_close(read_tensors(tmp_path / "add0.bin")[0], expected)
    assert not (tmp_path / "add1.bin").exists() and not (tmp_path / "bad.bin").exists()
    for name in ("const0", "const1"):
        torch.testing.assert_close(read_tensors(tmp_path / f"{name}.bin")[0], module(x))
    assert "mlxd-run: 5 job(s), 2 failed; " in proc.stderr and "on 2 thread(s)" in proc.stderr

    proc = run(runner, pte[None], "--inputs", "a", "--outputs", "b", "--threads", "2")
    assert proc.returncode == 2 and "--threads needs --batch" in proc.stderr
