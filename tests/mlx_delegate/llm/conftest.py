"""The tiny llama checkpoint (2 layers, a byte-level tokenizer) and its fp32
export through `python -m mlx_delegate.llm export` (a 128-token cache), made
once per test run: the generate, export and bad-input tests all read them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from made_once import made_once

from mlx_delegate.llm import tiny

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def llama(tmp_path_factory):
    """(checkpoint directory, its transformers model, the exported .pte)."""

    def make(directory: Path) -> None:
        model = tiny.write_checkpoint(directory, "llama", seed=3)
        tiny.write_tokenizer(directory, model.config.vocab_size)
        done = subprocess.run(
            [sys.executable, "-m", "mlx_delegate.llm", "export", "--model", str(directory),
             "--max-seq-len", "128", "-o", str(directory / "model.pte")],
            cwd=ROOT, capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        # Only our lines: torchao, torch.export and pytree noise is filtered (mlx_delegate/_quiet.py)
        # and the export's progress bar is off when stderr is not a terminal.
        assert done.stderr == "", done.stderr[-3000:]
        assert "1 MLX delegate(s)" in done.stdout and "outside" not in done.stdout, done.stdout

    from transformers import AutoModelForCausalLM

    directory = made_once(tmp_path_factory, "llm-llama", make)
    return (
        directory,
        AutoModelForCausalLM.from_pretrained(directory).eval(),
        directory / "model.pte",
    )


@pytest.fixture
def llm_main(capfd):
    """`python -m mlx_delegate.llm ARGS` through its main in this process:
    (exit code, stdout, stderr), with what the processes it starts print (the
    ranks of `generate --tp N`). The bad-input tests run here, not in a process
    of their own (5-9 s of imports each); the export's own process, its empty
    stderr, is the `llama` fixture's and test_generate's greedy test's."""
    from mlx_delegate.llm.__main__ import main

    def run(*args) -> tuple[int, str, str]:
        capfd.readouterr()
        code = main([str(a) for a in args])
        out, err = capfd.readouterr()
        return code, out, err

    return run
