"""Transcribe audio with an exported Whisper `.pte` through ExecuTorch's Python
runtime: per 30 s window, one `encode` call (the cross-attention state stays
in the delegate), then `decode` calls from the prompt, greedy, one token id
back each."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from pathlib import Path
from typing import Callable, Iterator, Optional

import numpy as np
import torch

from . import audio


@dataclasses.dataclass
class Timings:
    audio_s: float = 0.0  # seconds of audio
    features_s: float = 0.0  # log-mel
    encode_s: float = 0.0
    decode_s: float = 0.0
    tokens: int = 0

    @property
    def total_s(self) -> float:
        return self.features_s + self.encode_s + self.decode_s

    @property
    def real_time_factor(self) -> float:
        """Processing time over audio time: below 1 is faster than real time."""
        return self.total_s / self.audio_s if self.audio_s else 0.0

    def report(self) -> str:
        return (
            f"audio: {self.audio_s:.2f} s; features {self.features_s * 1e3:.0f} ms, "
            f"encode {self.encode_s * 1e3:.0f} ms, decode {self.tokens} tokens in "
            f"{self.decode_s * 1e3:.0f} ms\nreal-time factor: {self.real_time_factor:.3f}"
        )


class Program:
    """A loaded `.pte` of `export.py`: its two methods and its metadata."""

    def __init__(self, path: Path, device: Optional[str] = None, data: Optional[Path] = None):
        from executorch.runtime import Runtime

        from .. import runtime
        from ..llm.export import data_path_of
        from ..llm.generate import ProgramLoadError

        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such program")
        if data is None and data_path_of(path).exists():
            data = data_path_of(path)
        with runtime.loading_on(device) if device is not None else contextlib.nullcontext():
            try:
                self._program = Runtime.get().load_program(path, data_path=data)
                names = set(self._program.method_names)
                if not {"encode", "decode"} <= names:
                    raise ProgramLoadError(
                        f"{path}: not a Whisper program of `mlx_delegate.asr export` "
                        f"(methods: {', '.join(sorted(names))})"
                    )
                self.encode_method = self._program.load_method("encode")
                self.decode_method = self._program.load_method("decode")
            except RuntimeError as e:
                raise ProgramLoadError(f"cannot load {path}: {e}") from None
        get = self._constant
        self.num_mel_bins, self.max_target = get("get_num_mel_bins"), get(
            "get_max_target_positions"
        )
        self.sot, self.eos = get("get_sot_id"), get("get_eos_id")
        self.no_timestamps = get("get_no_timestamps_id")
        self.tasks = {"transcribe": get("get_transcribe_id"), "translate": get("get_translate_id")}
        self.multilingual = bool(get("get_is_multilingual"))

    def _constant(self, name: str):
        return self._program.load_method(name).execute([])[0]

    def encode(self, features: np.ndarray) -> None:
        self.encode_method.execute([torch.from_numpy(features[None])])

    def decode(self, tokens: list[int], pos: int, first: bool) -> int:
        out = self.decode_method.execute(
            [torch.tensor([tokens]), torch.tensor([pos]), torch.tensor([int(first)])]
        )
        return int(out[0][0])

    def prompt(self, language_id: Optional[int], task: str) -> list[int]:
        """transformers' decoder prompt without timestamps: start of transcript,
        language and task (multilingual models), no timestamps."""
        if not self.multilingual:
            return [self.sot, self.no_timestamps]
        if language_id is None:
            raise ValueError("a multilingual model needs --language (e.g. en)")
        return [self.sot, language_id, self.tasks[task], self.no_timestamps]


def decode_window(
    program: Program, prompt: list[int], max_new_tokens: int, timings: Timings
) -> Iterator[int]:
    """The greedy tokens after `prompt` for the window last encoded, up to an
    end of text (not yielded) or the decoder's positions."""
    budget = min(max_new_tokens, program.max_target - len(prompt))
    start = time.perf_counter()
    token = program.decode(prompt, 0, True)
    pos = len(prompt)
    for _ in range(budget):
        timings.decode_s += time.perf_counter() - start
        timings.tokens += 1
        if token == program.eos:
            return
        yield token
        if pos >= program.max_target:
            return
        start = time.perf_counter()
        token = program.decode([token], pos, False)
        pos += 1


def transcribe_ids(
    program: Program,
    samples: np.ndarray,
    prompt: list[int],
    max_new_tokens: int = 448,
    timings: Optional[Timings] = None,
    on_window: Callable[[int], None] = lambda index: None,
) -> Iterator[int]:
    """The token ids of 16 kHz `samples`, window after window (30 s each)."""
    timings = timings if timings is not None else Timings()
    timings.audio_s += len(samples) / audio.SAMPLING_RATE
    for index, window in enumerate(audio.windows(samples)):
        on_window(index)
        start = time.perf_counter()
        features = audio.log_mel(window, program.num_mel_bins)
        timings.features_s += time.perf_counter() - start
        start = time.perf_counter()
        program.encode(features)
        timings.encode_s += time.perf_counter() - start
        yield from decode_window(program, prompt, max_new_tokens, timings)


def load_tokenizer(pte: Path):
    from tokenizers import Tokenizer

    from .export import tokenizer_path_of

    path = tokenizer_path_of(pte)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no tokenizer beside the program (the export writes it)")
    return Tokenizer.from_file(str(path))


def language_id(tokenizer, language: str) -> int:
    token = tokenizer.token_to_id(f"<|{language}|>")
    if token is None:
        raise ValueError(f"language {language!r}: the tokenizer has no <|{language}|> token")
    return token
