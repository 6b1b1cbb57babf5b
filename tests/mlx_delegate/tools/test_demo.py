"""The demo's closing pointer (mlx_delegate/tools/demo.py)."""

from __future__ import annotations

import torch

from mlx_delegate.tools import demo
from mlx_delegate.tools.inspector import delegates


def test_what_next_shows_the_lines_that_export_a_model(tmp_path, monkeypatch):
    """The lines the demo prints, run as printed on a model of the user's, write a .pte whose
    work is one MLX delegate."""
    text = demo.what_next()
    code = [line.strip() for line in text.splitlines() if line.startswith("    ")]
    assert code == list(demo.YOUR_MODEL)
    assert "README" in text
    monkeypatch.chdir(tmp_path)
    model = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU())
    exec("\n".join(code), {"torch": torch, "model": model, "inputs": (torch.randn(2, 8),)})
    assert len(list(delegates((tmp_path / "model.pte").read_bytes()))) == 1
