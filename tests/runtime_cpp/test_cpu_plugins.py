"""The real CPU plugins: libmlx-cpu.so (MLX as shipped) and
libmlx-cpu-openblas.so (CBLAS forwarded to scipy-openblas32)."""

from __future__ import annotations

import pytest


def test_openblas_variant_wins_and_plain_is_outscored(scenario, backend_dir):
    if not (backend_dir / "libmlx-cpu-openblas.so").exists():
        pytest.skip("built without scipy-openblas32")
    result, _ = scenario.run("""
        import numpy as np
        backends.load_all()
        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        b = np.arange(8, dtype=np.float32).reshape(4, 2) - 3
        out, _ = backends.run_builtin_f32("cpu", "matmul", a, b)
        result = {"list": [(x.name, x.score, x.device_type, x.device_count,
                            x.device_properties[0]["blas"]) for x in backends.list()],
                  "report": {c.path.rsplit("/", 1)[1]: [c.status, c.reason] for c in backends.report()},
                  "ok": bool(np.allclose(out, a @ b)),
                  "cpu": backends.device("cpu")["backend"]["name"]}
        """)
    assert result["list"] == [["cpu-openblas", 20, "cpu", 1, "openblas"]]
    assert result["report"]["libmlx-cpu-openblas.so"] == ["loaded", ""]
    assert result["report"]["libmlx-cpu.so"] == ["skipped", "outscored"]
    assert result["ok"]
    assert result["cpu"] == "cpu-openblas"


def test_the_plugins_load_on_first_use(scenario, backend_dir):
    result, _ = scenario.run('result = backends.device("cpu")["backend"]["name"]')
    openblas = (backend_dir / "libmlx-cpu-openblas.so").exists()
    assert result == ("cpu-openblas" if openblas else "cpu")


def test_plain_cpu_is_the_fallback_when_openblas_is_missing(scenario, backend_dir):
    result, _ = scenario.run(
        """
        import numpy as np
        backends.load_all()
        a = np.random.default_rng(0).standard_normal((33, 17)).astype(np.float32)
        b = np.random.default_rng(1).standard_normal((17, 5)).astype(np.float32)
        out, _ = backends.run_builtin_f32("cpu", "matmul", a, b)
        s, _ = backends.run_builtin_f32("cpu", "add", a, a)
        result = {"list": [(x.name, x.device_properties[0]["blas"]) for x in backends.list()],
                  "report": {c.path.rsplit("/", 1)[1]: [c.status, c.reason] for c in backends.report()},
                  "ok": bool(np.allclose(out, a @ b, atol=1e-5)), "add": bool(np.array_equal(s, a + a))}
        """,
        env={"MLX_DELEGATE_OPENBLAS_LIB": "/nonexistent/libscipy_openblas.so"},
    )
    assert result["list"] == [["cpu", "reference"]]
    if (backend_dir / "libmlx-cpu-openblas.so").exists():
        assert result["report"]["libmlx-cpu-openblas.so"] == ["skipped", "score"]
    assert result["report"]["libmlx-cpu.so"] == ["loaded", ""]
    assert result["ok"] and result["add"]


def test_blocking_the_cpu_family_leaves_no_cpu_backend(scenario):
    result, proc = scenario.run("""
        backends.load_all(blocked=["cpu-*"])
        try:
            backends.run_builtin_f32("cpu", "add", [[1.0]], [[2.0]])
        except backends.BackendError as e:
            result = str(e)
        """)
    assert "no CPU backend loaded for device cpu:0" in result


def test_builtin_bad_arguments_are_errors_not_crashes(scenario):
    result, _ = scenario.run("""
        import numpy as np
        backends.load_all()
        errs = []
        for op in ["nope"]:
            try:
                backends.run_builtin_f32("cpu", op, np.ones((2, 2)), np.ones((2, 2)))
            except backends.BackendError as e:
                errs.append(str(e))
        try:
            backends.run_builtin_f32("gpu:0", "add", np.ones((2, 2)), np.ones((2, 2)))
        except backends.BackendError as e:
            errs.append(str(e))
        try:
            backends.device("tpu:0")
        except backends.BackendError as e:
            errs.append(str(e))
        result = errs
        """)
    assert "unknown builtin 'nope'" in result[0]
    assert "no GPU backend loaded for device gpu:0" in result[1]
    assert "bad device 'tpu:0'" in result[2]


def test_memory_functions_reach_mlx(scenario):
    result, _ = scenario.run("""
        import numpy as np
        backends.load_all()
        backends.run_builtin_f32("cpu", "matmul", np.ones((256, 256)), np.ones((256, 256)))
        m = backends.memory
        result = {"peak": m("get_peak_memory", "cpu"),
                  "old": m("set_cache_limit", "cpu", 1 << 20),
                  "now": m("set_cache_limit", "cpu", 1 << 21)}
        m("reset_peak_memory", "cpu")
        m("clear_cache", "cpu")
        result["cache_after_clear"] = m("get_cache_memory", "cpu")
        """)
    assert result["peak"] >= 256 * 256 * 4
    assert result["now"] == 1 << 20
    assert result["cache_after_clear"] == 0


def test_host_c_api_from_cpp(runtime_build):
    """The host's C API driven from C++ (runtime_cpp/tests/host_smoke.cpp)."""
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "MLX_BACKEND_PATH"}
    proc = subprocess.run(
        [str(runtime_build / "test_plugins" / "mlxd_host_smoke"), "cpu", "gpu:0"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "load_all: 1" in out
    assert "cpu matmul rc=0 out[0]=64 (expect 64)" in out
    assert "gpu:0: no GPU backend loaded for device gpu:0" in out
