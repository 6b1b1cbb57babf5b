"""One random Whisper checkpoint of whisper-tiny's widths (2 encoder and 2
decoder layers, the full vocabulary) and its fp32 export, made once per test
run: under xdist the workers share it (a file lock), as the export is most of
the tests' time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def whisper(tmp_path_factory) -> tuple[Path, Path]:
    """(checkpoint directory, exported .pte)."""
    from filelock import FileLock

    from mlx_delegate.asr import tiny
    from mlx_delegate.asr.export import export_program

    base = tmp_path_factory.getbasetemp()
    root = base.parent if "PYTEST_XDIST_WORKER" in os.environ else base  # one per run
    directory, pte = root / "asr-whisper-tiny", root / "asr-whisper-tiny.pte"
    with FileLock(str(root / "asr-whisper-tiny.lock")):
        if not pte.is_file():
            tiny.build(directory, "tiny", encoder_layers=2, decoder_layers=2, seed=1)
            export_program(directory, pte)
    return directory, pte
