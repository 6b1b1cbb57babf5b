"""`python -m mlx_delegate COMMAND ...` (mlx_delegate/__main__.py)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from mlx_delegate.__main__ import COMMANDS, main

ROOT = Path(__file__).resolve().parents[2]


def _python_m(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_help_lists_every_command():
    done = _python_m("mlx_delegate", "--help")
    assert done.returncode == 0, done.stderr
    for name, command in COMMANDS.items():
        assert f"  {name}" in done.stdout and command.summary in done.stdout


def test_no_command_prints_the_help(capsys):
    assert main([]) == 2
    assert "inspect" in capsys.readouterr().err


def test_every_command_is_a_module_with_main():
    for command in COMMANDS.values():
        assert callable(importlib.import_module(command.module).main), command.module


def test_the_arguments_reach_the_command_unchanged(capsys):
    command = importlib.import_module(COMMANDS["precompile-jit"].module)
    with pytest.raises(SystemExit):  # its own options: argparse exits after printing them
        command.main(["--help"])
    expected = capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["precompile-jit", "--help"])
    assert capsys.readouterr().out == expected
    assert expected.startswith("usage: python -m mlx_delegate precompile-jit")


def test_no_command_needs_the_test_bench():
    """The bench (testbench/) stays in the checkout; the wheel has none."""
    assert not any(c.module.startswith("testbench") for c in COMMANDS.values())


@pytest.fixture(scope="module")
def pte(tmp_path_factory) -> Path:
    from executorch.exir import to_edge_transform_and_lower

    from mlx_delegate import MLXPartitioner

    model = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU())
    exported = torch.export.export(model, (torch.randn(2, 8),))
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner()])
    path = tmp_path_factory.mktemp("main") / "model.pte"
    path.write_bytes(edge.to_executorch().buffer)
    return path


def test_inspect_is_python_m_mlx_delegate_inspect_and_prints_only_our_lines(pte, capsys):
    """One process that imports executorch: the torchao and pytree lines it would print
    are dropped (mlx_delegate/_quiet.py), and stdout is the inspector module's."""
    from mlx_delegate.tools import inspector

    done = _python_m("mlx_delegate", "inspect", str(pte))
    assert inspector.main([str(pte)]) == done.returncode == 0
    assert done.stdout == capsys.readouterr().out
    assert "1 MLX delegate(s)" in done.stdout
    assert done.stderr == ""
