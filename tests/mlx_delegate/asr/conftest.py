"""Random Whisper checkpoints of whisper-tiny's widths (the full vocabulary)
and their fp32 exports, each made once per test run: under xdist the workers
share them (a file lock), as the export is most of the tests' time. A
multilingual one (2 encoder and 2 decoder layers) and an English-only one
(`.en`: no language or task tokens in its prompt; 1 layer each, which takes
the same paths at half the export time)."""

from __future__ import annotations

from pathlib import Path

import pytest
from made_once import made_once


def _exported(tmp_path_factory, name: str, **build) -> tuple[Path, Path]:
    """(checkpoint directory, exported .pte), made by the first worker to ask."""

    def make(directory: Path) -> None:
        from mlx_delegate.asr import tiny
        from mlx_delegate.asr.export import export_program

        tiny.build(directory, "tiny", **build)
        export_program(directory, directory / "model.pte")

    directory = made_once(tmp_path_factory, name, make)
    return directory, directory / "model.pte"


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
