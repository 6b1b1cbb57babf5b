"""Generate text from an exported `.pte` through ExecuTorch's Python runtime.

Prefill runs the prompt in one call; each decode call passes the last token.
Sampling happens in the program (see sampling.py): only the token id comes
back, with a uniform random number per step drawn from a generator seeded by
`seed`."""

from __future__ import annotations

import contextlib
import dataclasses
import random
import sys
import time
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

import torch


@dataclasses.dataclass
class Timings:
    prompt_tokens: int = 0
    new_tokens: int = 0
    first_token_s: float = 0.0  # time to first token: the prefill call
    decode_s: float = 0.0  # all decode calls

    @property
    def prefill_tokens_per_s(self) -> float:
        return self.prompt_tokens / self.first_token_s if self.first_token_s else 0.0

    @property
    def decode_tokens_per_s(self) -> float:
        steps = self.new_tokens - 1  # the first new token came from prefill
        return steps / self.decode_s if self.decode_s and steps > 0 else 0.0

    def report(self) -> str:
        return (
            f"time to first token: {self.first_token_s * 1e3:.1f} ms\n"
            f"prefill: {self.prompt_tokens} tokens, {self.prefill_tokens_per_s:.1f} tokens/s\n"
            f"decode: {max(self.new_tokens - 1, 0)} tokens, "
            f"{self.decode_tokens_per_s:.1f} tokens/s"
        )


class ProgramLoadError(ValueError):
    """A `.pte` or `.ptd` that ExecuTorch refuses (truncated, corrupted, not one)."""


class Program:
    """A loaded `.pte` of `export.py`: its forward method and its metadata."""

    def __init__(self, path: Path, device: Optional[str] = None, data: Optional[Path] = None):
        """`data`: the weights' file (default: the `.ptd` beside `path`, if there is one)."""
        from executorch.runtime import Runtime

        from .. import runtime
        from .tensor_parallel import check_ranks, rank_data_path

        path = Path(path)
        if data is None:  # this rank's weights (one rank: the .ptd beside the .pte)
            data = rank_data_path(path)
        # The device applies to this program's methods only (all loaded here).
        with runtime.loading_on(device) if device is not None else contextlib.nullcontext():
            try:
                self._program = Runtime.get().load_program(path, data_path=data)
            except RuntimeError as e:  # ExecuTorch logs the cause above (a size, a header)
                weights = f" with its weights {data}" if data else ""
                raise ProgramLoadError(f"cannot load {path}{weights}: {e}") from None
            if "get_tp_size" in self._program.method_names:  # older programs: one rank
                check_ranks(path, self._constant("get_tp_size"))
            self.forward = self._program.load_method("forward")
            self.max_seq_len = self._constant("get_max_seq_len")
            self.vocab_size = self._constant("get_vocab_size")
            self.eos_ids = set(self._constant("get_eos_ids", many=True)) - {-1}

    def _constant(self, name: str, many: bool = False):
        values = self._program.load_method(name).execute([])
        return list(values) if many else values[0]

    def step(self, tokens: list[int], pos: int, temperature: float, top_p: float, u: float) -> int:
        out = self.forward.execute(
            [
                torch.tensor([tokens], dtype=torch.long),
                torch.tensor([pos], dtype=torch.long),
                torch.tensor([temperature], dtype=torch.float32),
                torch.tensor([top_p], dtype=torch.float32),
                torch.tensor([u], dtype=torch.float32),
            ]
        )
        return int(out[0][0])


PREFILL_CHUNK = 512  # prompt tokens a call, as mlxd-generate's default


def generate_ids(
    program: Program,
    prompt: list[int],
    max_new_tokens: int,
    temperature: float = 0.0,
    top_p: float = 1.0,
    seed: int = 0,
    stop_at_eos: bool = True,
    timings: Optional[Timings] = None,
    prefill_chunk: int = PREFILL_CHUNK,
) -> Iterator[int]:
    """Yields the new token ids one by one as they are generated. An end of
    sequence is yielded and ends the generation; with `stop_at_eos=False` it
    does not (`generate --ignore-eos`, as mlxd-generate's), so a benchmark or a
    comparison always gets `max_new_tokens`, as far as the cache allows.

    The prompt goes in chunks of `prefill_chunk` tokens (0: all at once), each
    attending to the cache written before it, so that no call builds a mask of
    the whole prompt squared; the last chunk's token is the first new one."""
    if not prompt:
        raise ValueError("the prompt has no tokens")
    budget = program.max_seq_len - len(prompt)
    if budget < 1:
        raise ValueError(
            f"the prompt ({len(prompt)} tokens) fills the cache ({program.max_seq_len})"
        )
    rng = random.Random(seed)

    def uniform() -> float:
        # Greedy decoding ignores it; a constant lets the runtime predict the
        # next call and start it before this one returns (run_ahead.py).
        return rng.random() if temperature > 0 else 0.0

    timings = timings if timings is not None else Timings()
    timings.prompt_tokens = len(prompt)
    start = time.perf_counter()
    u = uniform()
    chunk = prefill_chunk or len(prompt)
    for begin in range(0, len(prompt), chunk):
        token = program.step(prompt[begin : begin + chunk], begin, temperature, top_p, u)
    timings.first_token_s = time.perf_counter() - start
    pos = len(prompt)
    for produced in range(1, min(max_new_tokens, budget) + 1):
        timings.new_tokens = produced
        yield token
        if produced == min(max_new_tokens, budget) or (stop_at_eos and token in program.eos_ids):
            return
        start = time.perf_counter()
        token = program.step([token], pos, temperature, top_p, uniform())
        timings.decode_s += time.perf_counter() - start
        pos += 1


class TextStream:
    """Prints the text of the prompt and its continuation as tokens arrive.

    What is printed is always a prefix of `decode(prompt + ids)`, and after
    `finish()` all of it: the tokenizer's own rendering of the whole sequence.
    Decoding the continuation alone would lose what the decoder puts between
    tokens (a word-level decoder's joining spaces, a SentencePiece decoder's
    leading space, which it strips from the first token of what it decodes),
    and would glue the continuation to the prompt."""

    def __init__(
        self, decode: Callable[[list[int]], str], prompt: Sequence[int] = (), out=sys.stdout
    ):
        """Prints the prompt at once, as `decode(prompt)`. Not the caller's raw
        prompt string: the tokenizer may not give it back unchanged (normalized,
        whitespace collapsed, an unknown word as its unknown token), and the
        continuation is the difference from the decoded text, so only the
        decoded prompt makes the printed whole equal the decoded sequence. It
        also shows what the model was actually given."""
        self.decode, self.out = decode, out
        self.prompt, self.ids, self.shown = list(prompt), [], ""
        self._show(final=False)

    def add(self, token: int) -> None:
        self.ids.append(token)
        self._show(final=False)

    def finish(self) -> None:
        """Prints what was held back: a generation that stopped inside a
        multi-byte character ends in the decoder's replacement character."""
        self._show(final=True)

    def _show(self, final: bool) -> None:
        text = self.decode(self.prompt + self.ids)
        if not final and text.endswith("\ufffd"):
            return  # an incomplete UTF-8 sequence (byte-level pieces): wait for the rest
        # Decoders extend their text as tokens are appended (a replacement
        # character becomes the completed character only at the end, held back
        # above), so the new text is what lies past what was printed.
        self.out.write(text[len(self.shown) :])
        self.out.flush()
        self.shown = text


def load_tokenizer(directory: Path):
    from tokenizers import Tokenizer

    path = Path(directory) / "tokenizer.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no tokenizer.json in the tokenizer directory")
    return Tokenizer.from_file(str(path))
