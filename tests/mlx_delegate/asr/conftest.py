"""Random Whisper checkpoints of whisper-tiny's widths (the full vocabulary)
and their fp32 exports, each made once per test run: under xdist the workers
share them (a file lock), as the export is most of the tests' time. A
multilingual one (2 encoder and 2 decoder layers) and an English-only one
(`.en`: no language or task tokens in its prompt; 1 layer each, which takes
the same paths at half the export time)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def _exported(tmp_path_factory, name: str, **build) -> tuple[Path, Path]:
    """(checkpoint directory, exported .pte), made by the first worker to ask."""
    from filelock import FileLock

    from mlx_delegate.asr import tiny
    from mlx_delegate.asr.export import export_program

    base = tmp_path_factory.getbasetemp()
    root = base.parent if "PYTEST_XDIST_WORKER" in os.environ else base  # one per run
    directory, pte = root / name, root / f"{name}.pte"
    with FileLock(str(root / f"{name}.lock")):
        if not pte.is_file():
            tiny.build(directory, "tiny", **build)
            export_program(directory, pte)
    return directory, pte


@pytest.fixture(scope="session")
def whisper(tmp_path_factory) -> tuple[Path, Path]:
    """(checkpoint directory, exported .pte) of a multilingual checkpoint."""
    return _exported(tmp_path_factory, "asr-whisper-tiny", encoder_layers=2, decoder_layers=2,
                     seed=1)  # fmt: skip


@pytest.fixture(scope="session")
def whisper_en(tmp_path_factory) -> tuple[Path, Path]:
    """(checkpoint directory, exported .pte) of an English-only checkpoint."""
    return _exported(tmp_path_factory, "asr-whisper-tiny-en", encoder_layers=1, decoder_layers=1,
                     seed=4, english_only=True)  # fmt: skip
