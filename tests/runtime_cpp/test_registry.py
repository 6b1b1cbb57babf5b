"""The backend registry against deliberately broken test plugins
(runtime_cpp/tests/fake_plugin.cpp, built by the `mlxd_test_plugins` target)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

INTERFACE = (
    Path(__file__).resolve().parents[2] / "runtime_cpp/include/mlx_delegate/backend_interface.h"
)
API_VERSION = int(re.search(r"#define MLX_BACKEND_API_VERSION (\d+)", INTERFACE.read_text())[1])

EXPECTED_SKIPS = {
    "libmlx-garbage.so": "dlopen",
    "libmlx-badabi.so": "abi",
    "libmlx-zero.so": "score",
    "libmlx-nullinit.so": "init",
    "libmlx-throwinit.so": "init",
    "libmlx-oldapi.so": "api_version",
    "libmlx-filtered.so": "filter",
    "libmlx-multi-low.so": "outscored",
}
EXPECTED_LOADED = {
    "libmlx-fakecpu.so",
    "libmlx-agpu.so",
    "libmlx-zgpu.so",
    "libmlx-noscore.so",
    "libmlx-multi-high.so",
}


def _by_file(report):
    return {c["path"].rsplit("/", 1)[1]: c for c in report}


def test_every_reason_code_and_the_rest_still_load(scenario, test_plugin_dir):
    result, proc = scenario.run(
        """
        n = backends.load_all(blocked=["filtered"])
        result = {"n": n, "report": [c.__dict__ for c in backends.report()],
                  "loaded": [b.path for b in backends.list()]}
        """,
        backend_path=str(test_plugin_dir),
    )
    report = _by_file(result["report"])
    assert set(report) == set(EXPECTED_SKIPS) | EXPECTED_LOADED
    for name, reason in EXPECTED_SKIPS.items():
        assert report[name]["status"] == "skipped", report[name]
        assert report[name]["reason"] == reason, report[name]
        assert report[name]["message"], report[name]
    for name in EXPECTED_LOADED:
        assert report[name]["status"] == "loaded", report[name]
        assert report[name]["reason"] == ""
    assert result["n"] == len(EXPECTED_LOADED)
    assert {p.rsplit("/", 1)[1] for p in result["loaded"]} == EXPECTED_LOADED

    # The messages say what went wrong.
    assert (
        "invalid ELF header" in report["libmlx-garbage.so"]["message"]
        or "too short" in report["libmlx-garbage.so"]["message"]
    )
    assert "libc++" in report["libmlx-badabi.so"]["message"]
    assert "sizeof(std::string)" in report["libmlx-badabi.so"]["message"]
    assert "returned 0" in report["libmlx-zero.so"]["message"]
    assert "factory returned nullptr" in report["libmlx-nullinit.so"]["message"]
    assert "fake device exploded during init" in report["libmlx-throwinit.so"]["message"]
    assert (
        f"is {API_VERSION + 41}" in report["libmlx-oldapi.so"]["message"]
        and f"expects {API_VERSION}" in report["libmlx-oldapi.so"]["message"]
    )
    assert "blocked pattern 'filtered'" in report["libmlx-filtered.so"]["message"]
    assert "libmlx-multi-high.so" in report["libmlx-multi-low.so"]["message"]
    assert report["libmlx-multi-low.so"]["group"] == "multi"
    assert report["libmlx-multi-low.so"]["variant"] == "low"
    # A plugin without mlx_backend_score() scores 1.
    assert report["libmlx-noscore.so"]["score"] == 1

    # Warnings and errors are logged with the library path and the reason.
    for name in (
        "libmlx-garbage.so",
        "libmlx-badabi.so",
        "libmlx-nullinit.so",
        "libmlx-throwinit.so",
        "libmlx-oldapi.so",
    ):
        line = next(l for l in proc.stderr.splitlines() if name in l)
        assert f"{test_plugin_dir}/{name}: {EXPECTED_SKIPS[name]}:" in line, line


def test_debug_log_shows_every_rejection(scenario, test_plugin_dir):
    _, proc = scenario.run(
        "backends.load_all(blocked=['filtered'])",
        backend_path=str(test_plugin_dir),
        env={"MLX_DELEGATE_LOG": "debug"},
    )
    for name, reason in EXPECTED_SKIPS.items():
        assert f"{test_plugin_dir}/{name}: {reason}:" in proc.stderr, (name, proc.stderr)


def test_device_index_mapping_two_fake_gpu_backends(scenario, test_plugin_dir):
    # agpu: score 50, 1 device; zgpu: score 100, 2 devices. Higher score first.
    result, _ = scenario.run(
        """
        backends.load_all(allowed=["agpu", "zgpu"])
        result = {
            "list": [(b.name, b.first_index, b.device_count, b.devices) for b in backends.list()],
            "count": backends.device_count("gpu"),
            "available": backends.is_available("gpu"),
            "cpu_available": backends.is_available("cpu"),
            "devices": {d: (backends.device(d)["backend"]["name"], backends.device(d)["local_index"])
                        for d in ["gpu", "gpu:0", "gpu:1", "gpu:2"]},
        }
        try:
            backends.device("gpu:3")
        except backends.BackendError as e:
            result["out_of_range"] = str(e)
        """,
        backend_path=str(test_plugin_dir),
    )
    assert result["list"] == [
        ["zgpu", 0, 2, ["gpu:0", "gpu:1"]],
        ["agpu", 2, 1, ["gpu:2"]],
    ]
    assert result["count"] == 3
    assert result["available"] is True
    assert result["cpu_available"] is False
    assert result["devices"] == {
        "gpu": ["zgpu", 0],
        "gpu:0": ["zgpu", 0],
        "gpu:1": ["zgpu", 1],
        "gpu:2": ["agpu", 0],
    }
    assert "gpu:3 is out of range" in result["out_of_range"]
    assert "zgpu gpu:0-1" in result["out_of_range"] and "agpu gpu:2" in result["out_of_range"]


def test_memory_routing(scenario, test_plugin_dir):
    # Fake memory figures: active = M, peak = 2M, cache = 3M, cache limit 4M,
    # memory limit 5M; agpu M = 234, zgpu M = 1000.
    result, _ = scenario.run(
        """
        backends.load_all(allowed=["agpu", "zgpu", "fakecpu"])
        m = backends.memory
        result = {
            "active": m("get_active_memory"),
            "peak": m("get_peak_memory"),
            "cache": m("get_cache_memory"),
            "limit": m("get_memory_limit"),
            "active_gpu2": m("get_active_memory", "gpu:2"),
            "active_gpu1": m("get_active_memory", "gpu:1"),
            "active_cpu": m("get_active_memory", "cpu"),
            "old_cache_limit_gpu2": m("set_cache_limit", "gpu:2", 77),
            "new_cache_limit_gpu2": m("set_cache_limit", "gpu:2", 78),
            "old_memory_limit_gpu0": m("set_memory_limit", "gpu:0", 5),
            "memory_limit_gpu0": m("get_memory_limit", "gpu:0"),
            "memory_limit_gpu2": m("get_memory_limit", "gpu:2"),
        }
        m("clear_cache", "gpu:0")
        result["cache_after_clear_gpu0"] = m("get_cache_memory")
        m("clear_cache")
        result["cache_after_clear_all"] = m("get_cache_memory")
        errors = {}
        for fn in ["set_cache_limit", "set_memory_limit", "set_wired_limit"]:
            try:
                m(fn, None, 1)
            except backends.BackendError as e:
                errors[fn] = str(e)
        result["errors"] = errors
        """,
        backend_path=str(test_plugin_dir),
    )
    assert result["active"] == 1234  # summed over GPU backends only
    assert result["peak"] == 2 * 1234
    assert result["cache"] == 3 * 1234
    assert result["limit"] == 5 * 1234
    assert result["active_gpu2"] == 234
    assert result["active_gpu1"] == 1000
    assert result["active_cpu"] == 100
    assert result["old_cache_limit_gpu2"] == 4 * 234
    assert result["new_cache_limit_gpu2"] == 77
    assert result["old_memory_limit_gpu0"] == 5000
    assert result["memory_limit_gpu0"] == 5
    assert result["memory_limit_gpu2"] == 5 * 234
    assert result["cache_after_clear_gpu0"] == 3 * 234
    assert result["cache_after_clear_all"] == 0
    assert set(result["errors"]) == {"set_cache_limit", "set_memory_limit", "set_wired_limit"}
    for fn, msg in result["errors"].items():
        assert "ambiguous with 2 GPU backends" in msg and f"{fn}(device, limit)" in msg


def test_no_device_setter_with_one_gpu_backend(scenario, test_plugin_dir):
    result, _ = scenario.run(
        """
        backends.load_all(allowed=["zgpu"])
        result = [backends.memory("set_cache_limit", None, 9),
                  backends.memory("set_cache_limit", None, 10),
                  backends.memory("set_cache_limit", "gpu:1", 11)]
        """,
        backend_path=str(test_plugin_dir),
    )
    assert result == [4000, 9, 10]


def test_memory_without_backends_is_zero(scenario, tmp_path):
    result, _ = scenario.run(
        """
        backends.load_all()
        result = [backends.memory("get_active_memory"), backends.memory("set_cache_limit", None, 5),
                  backends.memory("get_active_memory", "gpu:0")]
        """,
        backend_path=str(tmp_path),
    )
    assert result == [0, 0, 0]


def test_empty_backend_path_gives_no_cpu_backend_error(scenario, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    result, proc = scenario.run(
        """
        n = backends.load_all()
        try:
            backends.device("cpu")
            result = {"n": n, "error": None}
        except backends.BackendError as e:
            result = {"n": n, "error": str(e), "paths": backends.search_paths(),
                      "report": [c.__dict__ for c in backends.report()]}
        """,
        backend_path=str(empty),
    )
    assert proc.returncode == 0
    assert result["n"] == 0
    assert result["report"] == []
    assert result["paths"] == [str(empty)]
    assert "no CPU backend loaded" in result["error"]
    assert str(empty) in result["error"] and "MLX_BACKEND_PATH" in result["error"]


def test_backend_path_is_colon_separated_and_exclusive(scenario, test_plugin_dir, tmp_path):
    result, _ = scenario.run(
        "result = backends.search_paths()",
        backend_path=f"{tmp_path}:{test_plugin_dir}",
    )
    assert result == [str(tmp_path), str(test_plugin_dir)]


def test_default_search_path_is_backends_next_to_host(scenario, runtime_build):
    result, _ = scenario.run("result = backends.search_paths()")
    assert result == [str(runtime_build / "backends")]


def test_custom_filter_callback(scenario, test_plugin_dir):
    result, _ = scenario.run(
        """
        seen = []
        def keep(name, score):
            seen.append([name, score])
            return score >= 50
        backends.load_all(allowed=["agpu", "zgpu", "fakecpu", "multi-*"], custom=keep)
        result = {"seen": sorted(seen), "loaded": sorted(b.name for b in backends.list()),
                  "report": {c.path.rsplit("/", 1)[1]: [c.status, c.reason, c.message]
                             for c in backends.report()}}
        """,
        backend_path=str(test_plugin_dir),
    )
    assert result["seen"] == [
        ["agpu", 50],
        ["fakecpu", 5],
        ["multi-high", 30],
        ["multi-low", 10],
        ["zgpu", 100],
    ]
    assert result["loaded"] == ["agpu", "zgpu"]
    assert result["report"]["libmlx-fakecpu.so"] == [
        "skipped",
        "filter",
        "rejected by the custom filter",
    ]
    assert result["report"]["libmlx-multi-high.so"][1] == "filter"


def test_glob_filters(scenario, test_plugin_dir):
    result, _ = scenario.run(
        """
        backends.load_all(allowed=["multi-*", "z*"], blocked=["multi-high"])
        result = {c.path.rsplit("/", 1)[1]: [c.status, c.reason] for c in backends.report()}
        """,
        backend_path=str(test_plugin_dir),
    )
    assert result["libmlx-multi-high.so"] == ["skipped", "filter"]
    assert result["libmlx-multi-low.so"] == ["loaded", ""]  # the only one left in its group
    assert result["libmlx-zgpu.so"] == ["loaded", ""]
    assert result["libmlx-zero.so"] == ["skipped", "score"]
    assert result["libmlx-agpu.so"] == ["skipped", "filter"]


def test_load_explicit_path_and_errors(scenario, test_plugin_dir):
    result, _ = scenario.run(
        f"""
        backends.load("{test_plugin_dir}/libmlx-agpu.so")
        backends.load("{test_plugin_dir}/libmlx-agpu.so")  # again: no-op
        errors = {{}}
        for name in ["garbage", "badabi", "zero", "nullinit", "throwinit", "oldapi"]:
            try:
                backends.load("{test_plugin_dir}/libmlx-" + name + ".so")
            except backends.BackendError as e:
                errors[name] = str(e)
        try:
            backends.load("/nonexistent/libmlx-nothing.so")
        except backends.BackendError as e:
            errors["missing"] = str(e)
        result = {{"list": [b.name for b in backends.list()], "errors": errors}}
        """,
        backend_path=str(test_plugin_dir),
    )
    assert result["list"] == ["agpu"]
    errors = result["errors"]
    for name, reason in [
        ("garbage", "dlopen"),
        ("badabi", "abi"),
        ("zero", "score"),
        ("nullinit", "init"),
        ("throwinit", "init"),
        ("oldapi", "api_version"),
    ]:
        assert errors[name].startswith(
            f"cannot load backend {test_plugin_dir}/libmlx-{name}.so: " f"{reason}: "
        ), errors[name]
    assert "cannot load backend /nonexistent/libmlx-nothing.so: dlopen:" in errors["missing"]


def test_load_best(scenario, test_plugin_dir):
    result, _ = scenario.run(
        """
        backends.load_best("multi")
        try:
            backends.load_best("zero")
        except backends.BackendError as e:
            err = str(e)
        result = {"list": [b.name for b in backends.list()], "err": err}
        """,
        backend_path=str(test_plugin_dir),
    )
    assert result["list"] == ["multi-high"]
    assert "no backend 'zero' could be loaded" in result["err"]
    assert "libmlx-zero.so: score:" in result["err"]


def test_load_all_twice_is_idempotent(scenario, test_plugin_dir):
    result, _ = scenario.run(
        """
        a = backends.load_all(allowed=["zgpu"])
        b = backends.load_all(allowed=["zgpu"])
        result = [a, b, [x.name for x in backends.list()]]
        """,
        backend_path=str(test_plugin_dir),
    )
    assert result == [1, 0, ["zgpu"]]


# Each query, called first, answers about every group's best (load_all() with no filter).
FIRST_QUERIES = {
    "sorted(b.name for b in backends.list())": [
        "agpu", "fakecpu", "filtered", "multi-high", "noscore", "zgpu",
    ],
    "sorted(c.path.rsplit('/', 1)[1] for c in backends.report() if c.status == 'loaded')": sorted(
        EXPECTED_LOADED | {"libmlx-filtered.so"}
    ),
    "backends.is_available('gpu')": True,
    "backends.device_count('gpu')": 5,  # zgpu's 2, agpu, multi-high, filtered
    "backends.device('gpu:2')['backend']['name']": "agpu",
    "backends.memory('get_active_memory') >= 1234": True,  # agpu's and zgpu's alone
}  # fmt: skip


@pytest.mark.parametrize("query", FIRST_QUERIES)
def test_the_first_query_loads_the_plugins(scenario, test_plugin_dir, query):
    result, _ = scenario.run(f"result = {query}", backend_path=str(test_plugin_dir))
    assert result == FIRST_QUERIES[query]


def test_a_choice_before_the_first_query_stands(scenario, test_plugin_dir):
    result, _ = scenario.run(
        """
        backends.load_all(allowed=["nothing-matches"])
        result = [[b.name for b in backends.list()], backends.device_count("gpu")]
        """,
        backend_path=str(test_plugin_dir),
    )
    assert result == [[], 0]


def test_host_links_no_mlx(runtime_build):
    out = subprocess.run(
        ["readelf", "-d", str(runtime_build / "libmlx_delegate_host.so")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    needed = [l for l in out.splitlines() if "NEEDED" in l]
    assert needed and not any("mlx" in l for l in needed), needed
    # One shared libstdc++ for host and plugins (a toolchain that links it
    # statically, e.g. a wrapper g++, breaks iostreams across the boundary).
    assert any("libstdc++.so" in l or "libc++.so" in l for l in needed), needed
    # Plugin fronts carry no MLX either; their implementation libraries do.
    for front in (runtime_build / "backends").glob("libmlx-*.so"):
        out = subprocess.run(
            ["readelf", "-d", str(front)], capture_output=True, text=True, check=True
        ).stdout
        assert "libmlx.so" not in out, front


def test_host_abi_info(scenario):
    result, _ = scenario.run("result = backends.host_info()")
    assert result["api_version"] == API_VERSION
    assert result["stdlib_id"] in ("libstdc++", "libc++")
    assert result["sizeof_string"] in (24, 32)
    assert result["sizeof_BackendInfo"] > 0
