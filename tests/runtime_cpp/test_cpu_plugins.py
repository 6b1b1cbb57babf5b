"""The real CPU plugins: libmlx-cpu.so (MLX as shipped, our portable kernels),
libmlx-cpu-openblas.so (CBLAS forwarded to scipy-openblas32) and its x86
variants libmlx-cpu-avx2.so / libmlx-cpu-avx512.so (OpenBLAS and our kernels
for x86-64-v3 / v4), each scoring by what the processor reports
(runtime_cpp/src/plugin/plugin_front.cpp, src/cpu/cpu_features.h); which of them
should win is read from Linux's report, /proc/cpuinfo (cpu_report.py)."""

from __future__ import annotations

import pytest
from cpu_report import best_cpu_plugin, is_x86, runs_here

LISTING = """
    import numpy as np
    backends.load_all()
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    b = np.arange(8, dtype=np.float32).reshape(4, 2) - 3
    out, _ = backends.run_builtin_f32("cpu", "matmul", a, b)
    result = {"list": [(x.name, x.score, x.device_type, x.device_count,
                        x.device_properties[0]["blas"], x.device_properties[0].get("kernels"))
                       for x in backends.list()],
              "report": {c.path.rsplit("/", 1)[1]: [c.status, c.reason, c.message]
                         for c in backends.report()},
              "ok": bool(np.allclose(out, a @ b))}
    """
SCORES = {"cpu": 10, "cpu-openblas": 20, "cpu-avx2": 30, "cpu-avx512": 40}
KERNELS = {
    "cpu": "portable",
    "cpu-openblas": "portable",
    "cpu-avx2": "avx2",
    "cpu-avx512": "avx512",
}
V3 = "avx,avx2,fma,f16c,bmi1,bmi2,lzcnt,movbe,os_ymm"  # a processor without AVX-512


def built(backend_dir) -> list[str]:
    return [n for n in SCORES if (backend_dir / f"libmlx-{n}.so").exists()]


def test_x86_builds_every_variant(backend_dir):
    names = built(backend_dir)
    assert "cpu" in names
    if is_x86() and "cpu-openblas" in names:
        assert "cpu-avx2" in names and "cpu-avx512" in names


def test_the_best_variant_here_wins_and_the_others_say_why_not(scenario, backend_dir):
    result, _ = scenario.run(LISTING)
    best = best_cpu_plugin(backend_dir)
    blas = "reference" if best == "cpu" else "openblas"
    assert result["list"] == [[best, SCORES[best], "cpu", 1, blas, KERNELS[best]]]
    assert result["ok"]
    for name in built(backend_dir):
        status, reason, message = result["report"][f"libmlx-{name}.so"]
        if name == best:
            assert [status, reason] == ["loaded", ""]
        elif name in ("cpu-avx2", "cpu-avx512") and not runs_here(KERNELS[name]):
            assert [status, reason] == ["skipped", "score"]
            assert "kernels need what this processor lacks: " in message, message
        else:
            assert [status, reason] == ["skipped", "outscored"], (name, message)


def test_the_plugins_load_on_first_use(scenario, backend_dir):
    result, _ = scenario.run('result = backends.device("cpu")["backend"]["name"]')
    assert result == best_cpu_plugin(backend_dir)


def test_a_variant_the_processor_lacks_scores_0_and_the_listing_says_why(scenario, backend_dir):
    """A forced report (MLX_DELEGATE_CPU_FEATURES) plays a processor without AVX-512."""
    if "cpu-avx512" not in built(backend_dir):
        pytest.skip("no x86 variants in this build")
    result, _ = scenario.run(LISTING, env={"MLX_DELEGATE_CPU_FEATURES": V3})
    assert result["list"][0][0] == "cpu-avx2"
    status, reason, message = result["report"]["libmlx-cpu-avx512.so"]
    assert [status, reason] == ["skipped", "score"]
    assert message == (
        "mlx_backend_score() returned 0: the avx512 kernels need what the forced report "
        "(MLX_DELEGATE_CPU_FEATURES) lacks: avx512f, avx512bw, avx512cd, avx512dq, avx512vl, "
        "os_zmm (the OS saves the zmm registers)"
    )
    # Without AVX2 either, OpenBLAS's variant is the best that runs.
    result, _ = scenario.run(LISTING, env={"MLX_DELEGATE_CPU_FEATURES": "avx,fma,os_ymm"})
    assert result["list"][0][0] == "cpu-openblas"
    assert (
        "lacks: avx2, f16c, bmi1, bmi2, lzcnt, movbe" in result["report"]["libmlx-cpu-avx2.so"][2]
    )
    # A misspelt feature plays no processor: the variants refuse to guess.
    result, _ = scenario.run(LISTING, env={"MLX_DELEGATE_CPU_FEATURES": "avx2,avx512"})
    assert "names an unknown feature 'avx512'" in result["report"]["libmlx-cpu-avx2.so"][2]


OPENBLAS_THREADS = """
    import ctypes, os
    libc = ctypes.CDLL(None)
    libc.getenv.restype = ctypes.c_char_p
    before = len(os.listdir("/proc/self/task"))
    backends.load_all()
    (best,) = backends.list()
    value = libc.getenv(b"OPENBLAS_NUM_THREADS")
    result = {"threads": len(os.listdir("/proc/self/task")) - before, "name": best.name,
              "env": value.decode() if value is not None else None,
              "blas_kernels": best.device_properties[0].get("blas_kernels"),
              "float_gemm": best.device_properties[0].get("float_gemm")}
    """


def test_openblas_starts_no_threads_and_the_environment_is_left_as_it_was(scenario, backend_dir):
    """The OpenBLAS plugins run OpenBLAS single-threaded over their own pool; its workers,
    started by its load where OPENBLAS_NUM_THREADS is unset or above 1, spun beside the first
    calls. The front loads it with OPENBLAS_NUM_THREADS=1 and then puts back the caller's value
    (plugin_front.cpp). The plugin names the kernels OpenBLAS chose (`blas_kernels`), and the
    AVX-512 variant its own float32 GEMM (`float_gemm`, src/cpu/float_gemm.h)."""
    if best_cpu_plugin(backend_dir) == "cpu":
        pytest.skip("built without scipy-openblas32")
    runs = {
        value: scenario.run(OPENBLAS_THREADS, env={"OPENBLAS_NUM_THREADS": value})[0]
        for value in ("1", "2")
    }
    with pytest.MonkeyPatch.context() as patch:  # the scenario's environment copies ours
        patch.delenv("OPENBLAS_NUM_THREADS", raising=False)
        runs[None] = scenario.run(OPENBLAS_THREADS)[0]
    for value, result in runs.items():
        assert result["name"] == best_cpu_plugin(backend_dir)
        assert result["env"] == value
        assert result["threads"] == runs["1"]["threads"], runs
        assert result["blas_kernels"], result
        expected = "AVX-512" if result["name"] == "cpu-avx512" else None
        assert result["float_gemm"] == expected, result


def test_mlx_backend_forces_any_variant_that_runs(scenario, backend_dir):
    for name in built(backend_dir):
        if name in ("cpu-avx2", "cpu-avx512") and not runs_here(KERNELS[name]):
            continue
        result, _ = scenario.run(LISTING, env={"MLX_BACKEND": name})
        assert [row[0] for row in result["list"]] == [name]
        assert result["list"][0][5] == KERNELS[name] and result["ok"]
        for other in built(backend_dir):
            if other != name:
                status, reason, message = result["report"][f"libmlx-{other}.so"]
                assert [status, reason] == ["skipped", "filter"], (other, message)
                assert f"MLX_BACKEND='{name}' forces another backend of group 'cpu'" in message


def test_forcing_a_variant_the_processor_lacks_names_the_reason(scenario, backend_dir):
    if "cpu-avx512" not in built(backend_dir):
        pytest.skip("no x86 variants in this build")
    result, _ = scenario.run(
        """
        try:
            backends.device("cpu")
            result = {"error": None}
        except backends.BackendError as e:
            result = {"error": str(e)}
        result["report"] = {c.path.rsplit("/", 1)[1]: [c.status, c.reason, c.message]
                            for c in backends.report()}
        """,
        env={"MLX_BACKEND": "cpu-avx512", "MLX_DELEGATE_CPU_FEATURES": V3},
    )
    assert "no CPU backend loaded for device cpu:0" in result["error"]
    status, reason, message = result["report"]["libmlx-cpu-avx512.so"]
    assert [status, reason] == ["skipped", "score"]
    assert "lacks: avx512f" in message


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
                  "report": {c.path.rsplit("/", 1)[1]: [c.status, c.reason, c.message]
                             for c in backends.report()},
                  "ok": bool(np.allclose(out, a @ b, atol=1e-5)), "add": bool(np.array_equal(s, a + a))}
        """,
        env={"MLX_DELEGATE_OPENBLAS_LIB": "/nonexistent/libscipy_openblas.so"},
    )
    assert result["list"] == [["cpu", "reference"]]
    for name in built(backend_dir):
        if name != "cpu":
            status, reason, message = result["report"][f"libmlx-{name}.so"]
            assert [status, reason] == ["skipped", "score"]
            if runs_here(KERNELS[name]):
                assert "OpenBLAS does not load" in message, message
    assert result["report"]["libmlx-cpu.so"][:2] == ["loaded", ""]
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
    assert result["old"] == 1 << 30  # the CPU plugins' buffer cache (MLX's own: 32 MB)
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
