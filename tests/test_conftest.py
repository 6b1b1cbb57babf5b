"""tests/conftest.py's xdist scheduling under `make test`'s `-n 2` (`--dist
load`): the tests of modules marked with one xdist_group are one work unit
(one worker runs their module fixtures: one wheel build, one export a
quantization format); a module without the mark is a unit a test."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _root_conftest():
    spec = importlib.util.spec_from_file_location("_root_conftest", REPO / "tests" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_xdist_group_module_is_one_unit_under_dist_load(pytestconfig, monkeypatch):
    monkeypatch.setattr(pytestconfig.option, "dist", "load")
    monkeypatch.setattr(pytestconfig.option, "tx", ["2*popen"])
    scheduler = _root_conftest().pytest_xdist_make_scheduler(pytestconfig, None)
    scope = scheduler._split_scope
    wheel = "tests/runtime_cpp/test_wheel.py::"
    assert scope(wheel + "test_wheel_carries_the_runtime_and_codegen_data") == "wheel"
    assert scope(wheel + "test_installed_package_exports_and_runs_a_model") == "wheel"
    quantize = ["tests/mlx_delegate/llm/test_quantize.py::test_fewer_bits_write_fewer_bytes",
                "tests/mlx_delegate/llm/test_quantize.py::test_each_format_generates_the_"
                "quantized_modules_tokens[int4]"]  # fmt: skip
    assert {scope(nodeid) for nodeid in quantize} == {"quantize"}
    # modules that share a made-once fixture, one group of modules each
    llama = ["tests/mlx_delegate/llm/test_generate.py::test_the_hot_path_is_fused",
             "tests/mlx_delegate/llm/test_export.py::test_a_missing_shard_is_named"]  # fmt: skip
    assert {scope(nodeid) for nodeid in llama} == {"llama"}
    whisper = ["tests/mlx_delegate/asr/test_audio.py::test_not_a_program",
               "tests/mlx_delegate/asr/test_transcribe.py::test_cli_ids_equal_transformers"]  # fmt: skip
    assert {scope(nodeid) for nodeid in whisper} == {"asr"}
    for alone in ["tests/mlx_delegate/llm/test_moe.py::test_group_limited_routing_changes_the_choice",
                  "tests/mlx_delegate/llm/test_model.py::test_unknown_family_is_refused"]:  # fmt: skip
        assert scope(alone) == alone
    assert scope(wheel + "test_x@other") == "other"  # --dist loadgroup's suffix wins


def test_only_a_module_level_xdist_group_mark_counts(tmp_path):
    module_group = _root_conftest()._module_group
    (tmp_path / "test_a.py").write_text(
        'import pytest\npytestmark = pytest.mark.xdist_group("g")\n'
    )
    (tmp_path / "test_b.py").write_text('import pytest\npytestmark = pytest.mark.slow("g")\n')
    (tmp_path / "test_c.py").write_text("def test_x():\n    pytestmark = 1\n")
    (tmp_path / "test_d.py").write_text(
        'import pytest\npytestmark = [pytest.mark.slow, pytest.mark.xdist_group("h")]\n'
    )
    assert module_group(str(tmp_path), "test_a.py") == "g"
    assert module_group(str(tmp_path), "test_d.py") == "h"
    assert module_group(str(tmp_path), "test_b.py") is None
    assert module_group(str(tmp_path), "test_c.py") is None
    assert module_group(str(tmp_path), "missing.py") is None
