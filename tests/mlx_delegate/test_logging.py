"""The compiler reads MLX_DELEGATE_LOG as the runtime does (the runtime's side:
tests/runtime_cpp/test_log.py) and logs its decisions at debug only."""

import pytest

from mlx_delegate import _logging


@pytest.mark.parametrize(
    "value, level",
    [
        (None, "warning"),
        ("", "warning"),
        ("debug", "debug"),
        ("DEBUG", "debug"),
        ("info", "info"),
        ("1", "info"),
        ("warning", "warning"),
        ("0", "warning"),
        ("error", "error"),
        ("off", "off"),
        ("Off", "off"),
        ("verbose", "warning"),
        ("yes", "warning"),
    ],
)
def test_the_level_a_value_names(monkeypatch, value, level):
    if value is None:
        monkeypatch.delenv("MLX_DELEGATE_LOG", raising=False)
    else:
        monkeypatch.setenv("MLX_DELEGATE_LOG", value)
    assert _logging.log_level() == level
    assert _logging.debug_enabled() == (level == "debug")


def test_debug_logs_the_compiler(monkeypatch, capsys):
    monkeypatch.setenv("MLX_DELEGATE_LOG", "debug")
    monkeypatch.setattr(_logging.logger, "handlers", [])
    _logging.debug("node %s: %s", "add", "lowered")
    assert "[mlx_delegate] node add: lowered" in capsys.readouterr().err


def test_the_retired_switch_logs_nothing_and_says_what_does(monkeypatch, capsys):
    monkeypatch.delenv("MLX_DELEGATE_LOG", raising=False)
    monkeypatch.setenv("ET_MLX_DEBUG", "1")
    monkeypatch.setattr(_logging, "_told_retired", False)
    _logging.debug("node %s", "add")
    _logging.debug("node %s", "mul")
    err = capsys.readouterr().err
    assert "node" not in err
    assert err.count("ET_MLX_DEBUG is not read any more: set MLX_DELEGATE_LOG=debug") == 1
