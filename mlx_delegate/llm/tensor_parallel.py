"""Tensor parallelism, Megatron-style: a model split over `ways` processes, one
per device, summed through the program's collectives (mlx_delegate.compiler.collectives).

Each rank holds its share of every layer:
- attention: its `heads / ways` query heads and `kv heads / ways` key-value
  heads (their rows of q, k and v, their KV cache), and the matching columns
  of the output projection; DeepSeek's latent attention likewise by heads (the
  rows of the query's and the key-value expansion's, `q_b`/`q` and `kv_b`), its
  latent projections (`q_a`, `kv_a`) and their norms replicated;
- MLP: its `1 / ways` of the hidden units (rows of gate and up, columns of
  down). A mixture of experts (`experts`) splits each expert's hidden units
  the same way ("hidden"), or gives each rank `1 / ways` of the experts whole
  ("spread": a rank weighs the experts it does not hold by zero); the shared
  experts' hidden units split either way, the router is replicated;
- one all_sum after the attention and one after the MLP (or experts) adds the
  ranks' partial outputs; a row-parallel projection's bias is rank 0's alone.
The norms are replicated. The embedding and the LM head (`vocab`):
- "split": each rank holds `1 / ways` of the vocabulary's rows. A rank looks
  up the tokens it holds, zeros for the others, and an all_sum adds the
  ranks' rows (Megatron's vocabulary-parallel embedding; where a rank's rows
  start is data, `embed.first`, so the program stays one). The LM head
  gives each rank its rows' logits and an all_gather puts the vocabulary
  together for the sampler. A rank reads and holds half the vocabulary's
  weights (for Llama-3-8B in bf16, 1 GB less at two ranks), for two
  collectives a step.
- "replicated": every rank holds them whole, and no collective touches the
  logits.

One program serves every rank: the ranks' shapes are equal, so the graph is
the same and only the weights differ. The export writes the `.pte` once and
one data file per rank (`data_path(pte, rank, ways)`), each holding that
rank's shards and the replicated weights, so a rank (a host) reads its own
file and nothing of the others'. Programs per rank would repeat the program
`ways` times and export it `ways` times for nothing.

The sharding is shapes and data alone: the rank's model is our DecoderLM built
from the config with heads and hidden units divided (`shard_config`), and
`RankLoads` reads each weight's rank slice from the checkpoint's load."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable, Optional

import torch
from torch import nn

from ..compiler.collectives import all_gather, all_sum
from .config import DecoderConfig
from .model import DecoderLM, Experts

# Row-parallel projections: their inputs are split, their outputs summed, so
# their bias is added by rank 0 alone.
ROW_PARALLEL_BIASES = ("attn.o.bias", "mlp.down.bias", "mlp.shared.down.bias")
# A stack of experts' gate and up projections side by side: each half is split.
GATE_UP_STACK = "mlp.experts.gate_up_proj"
VOCABULARY = ("split", "replicated")  # how the embedding and the LM head are held
EXPERTS = ("hidden", "spread")  # how a mixture of experts splits
FIRST = "first"  # a block-held module's buffer: where the rank's rows start


class TensorParallelError(ValueError):
    """A model that does not split `ways` ways."""


def data_path(pte: Path, rank: int, ways: int) -> Path:
    """The data file of `rank` of a program exported for `ways` ranks (one
    rank: the `.ptd` beside the `.pte`)."""
    if ways == 1:
        return Path(pte).with_suffix(".ptd")
    return Path(pte).with_suffix(f".rank{rank}-of-{ways}.ptd")


def rank_data_path(pte: Path) -> Optional[Path]:
    """The data file of this process's rank (the standard MLX variables; none
    set: rank 0 of 1), if it exists."""
    from .launch import rank_of_environment

    rank, ways = rank_of_environment() or (0, 1)
    path = data_path(pte, rank, ways)
    return path if path.exists() else None


def check_ranks(pte: Path, ways: int) -> None:
    """Refuses to run a program made for `ways` ranks in a group of another size."""
    from .launch import rank_of_environment

    _, ranks = rank_of_environment() or (0, 1)
    if ways != ranks:
        raise TensorParallelError(
            f"{pte} is a program for {ways} ranks, this process is one of {ranks}: "
            f"generate --tp {ways}"
        )


def shard_config(
    c: DecoderConfig, ways: int, vocab: str = "split", experts: str = "hidden"
) -> DecoderConfig:
    """`c` with the heads and hidden units of one rank of `ways` (and its
    rows of the vocabulary, `vocab` "split"). With `experts` "spread", the
    experts keep their widths and their number (the router's): the rank's
    block of them is made by `shard_model`."""
    if vocab not in VOCABULARY:
        raise TensorParallelError(f"the vocabulary is {' or '.join(VOCABULARY)}, not {vocab!r}")
    if experts not in EXPERTS:
        raise TensorParallelError(f"experts split by {' or '.join(EXPERTS)}, not {experts!r}")
    _check_divides(c.family, "attention heads", c.num_heads, ways)
    _check_divides(c.family, "key-value heads", c.num_kv_heads, ways)
    _check_divides(c.family, "MLP hidden units", c.intermediate_size, ways)
    moe = c.moe
    if moe is not None:
        _check_divides(c.family, "shared expert hidden units", moe.shared_intermediate_size, ways)
        width = moe.expert_intermediate_size
        if experts == "hidden":
            _check_divides(c.family, "expert hidden units", width, ways)
            width //= ways
        else:
            _check_divides(c.family, "experts", moe.num_experts, ways)
        moe = dataclasses.replace(
            moe,
            expert_intermediate_size=width,
            shared_intermediate_size=moe.shared_intermediate_size // ways,
        )
    vocab_size = c.vocab_size
    if vocab == "split":
        if c.vocab_size % ways:
            raise TensorParallelError(
                f"{c.family}: a vocabulary of {c.vocab_size} does not split {ways} ways "
                "(export --tp-vocab replicated)"
            )
        vocab_size //= ways
    return dataclasses.replace(
        c,
        vocab_size=vocab_size,
        num_heads=c.num_heads // ways,
        num_kv_heads=c.num_kv_heads // ways,
        intermediate_size=c.intermediate_size // ways,
        moe=moe,
    )


def _check_divides(family: str, what: str, count: int, ways: int) -> None:
    if count % ways:
        raise TensorParallelError(f"{family}: {count} {what} do not split {ways} ways")


@dataclasses.dataclass(frozen=True)
class Sharding:
    """How the weights of a model split over `ways` ranks: each parameter's
    shape whole and in one rank's model (read before any quantization)."""

    ways: int
    full: dict[str, torch.Size]
    part: dict[str, torch.Size]
    # each rank's count of rows of a block-held module (a split vocabulary, a
    # layer's spread experts), by the name of its FIRST buffer
    first_rows: dict[str, int] = dataclasses.field(default_factory=dict)

    def loads(self, loads: dict[str, Load], rank: int) -> dict[str, Load]:
        """The loads of `rank`'s weights: each full load sliced where the
        rank's shape is smaller (along the one axis that differs), rank 0's
        alone for a row-parallel bias (zeros elsewhere), the load itself for
        a replicated weight; and where its blocks of rows start."""
        ranks = {name: self._load(name, load, rank) for name, load in loads.items()}
        for name, rows in self.first_rows.items():
            ranks[name] = lambda start=rank * rows: torch.tensor(start)
        return ranks

    def _load(self, name: str, load: Load, rank: int) -> Load:
        full, part = self.full[name], self.part[name]
        if name.endswith(ROW_PARALLEL_BIASES) and rank > 0:
            return lambda: torch.zeros_like(load())  # small: read for its dtype
        differ = [d for d in range(len(full)) if full[d] != part[d]]
        if not differ:
            return load
        if len(differ) != 1 or full[differ[0]] != part[differ[0]] * self.ways:
            raise TensorParallelError(f"{name}: cannot split {tuple(full)} {self.ways} ways")
        # a stack's gate and up halves lie along its rows, split by hidden unit;
        # split by expert (the first axis), a stack is whole experts
        halves = 2 if name.endswith(GATE_UP_STACK) and differ[0] == 1 else 1
        return SlicedLoad(load, Slice(differ[0], rank, self.ways, halves), full[0])


def shard_model(
    model: DecoderLM, ways: int, vocab: str = "split", experts: str = "hidden"
) -> tuple[DecoderLM, Sharding]:
    """The model of one rank of `ways` (the same for every rank), on the meta
    device like `model` (from `checkpoint.build`), its attention's and MLP's
    partial outputs summed over the ranks, its vocabulary and experts held as
    `vocab` and `experts` say; and how the weights split."""
    weight = model.embed.weight
    inv_freq = model.inv_freq if model.c.uses_rope else None
    first_rows = {}
    with torch.device("meta"):
        config = shard_config(model.c, ways, vocab, experts)
        rank = DecoderLM(config, model.max_seq_len, inv_freq, model.rope_scaling)
        if vocab == "split":
            rank.embed = VocabularyRows(config.vocab_size, config.hidden_size, ways)
            first_rows[f"embed.{FIRST}"] = config.vocab_size
        if experts == "spread":
            for i, block in enumerate(rank.layers):
                if isinstance(getattr(block.mlp, "experts", None), Experts):
                    block.mlp.experts = ExpertRows(config, ways)
                    first_rows[f"layers.{i}.mlp.experts.{FIRST}"] = block.mlp.experts.held
    rank = rank.to(weight.dtype).eval()
    if model.lm_head.weight is weight:  # tied: stored once, as checkpoint.build does
        rank.lm_head.weight = rank.embed.weight
    for block in rank.layers:
        block.attn.register_forward_hook(_summed_over(ways))
        block.mlp.register_forward_hook(_summed_over(ways))
    if vocab == "split":
        rank.lm_head.register_forward_hook(_gathered_over(ways))
    return rank, Sharding(ways, _shapes(model), _shapes(rank), first_rows)


class VocabularyRows(nn.Embedding):
    """A rank's rows of a vocabulary-parallel embedding: the tokens it holds
    looked up, zeros for the others, summed over the ranks. An nn.Embedding,
    so that the quantizer knows its weight."""

    def __init__(self, rows: int, dim: int, ways: int):
        super().__init__(rows, dim)
        self.ways = ways
        self.register_buffer(FIRST, torch.zeros((), dtype=torch.int64))

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        local = tokens - self.first
        held = (local >= 0) & (local < self.num_embeddings)
        rows = super().forward(local.clamp(0, self.num_embeddings - 1))
        return all_sum(rows * held[..., None].to(rows.dtype), self.ways)


def _summed_over(ways: int):
    def hook(module: nn.Module, inputs, out: torch.Tensor) -> torch.Tensor:
        return all_sum(out, ways)

    return hook


class ExpertRows(Experts):
    """A rank's block of a layer's experts, whole (experts "spread"): the
    token's chosen experts that the rank holds, weighed as the router says,
    the others weighed by zero (their products computed on the rank's first
    expert: the shapes stay fixed). The MoE's all_sum adds the ranks' sums."""

    def __init__(self, c: DecoderConfig, ways: int):
        held = c.moe.num_experts // ways
        super().__init__(dataclasses.replace(c, moe=dataclasses.replace(c.moe, num_experts=held)))
        self.held = held
        self.register_buffer(FIRST, torch.zeros((), dtype=torch.int64))

    def forward(self, x, ids, weights) -> torch.Tensor:
        local = ids - self.first
        mine = (local >= 0) & (local < self.held)
        return super().forward(x, local.clamp(0, self.held - 1), weights * mine.to(weights.dtype))


def _gathered_over(ways: int):
    """The logits of every rank's rows, in the vocabulary's order: all_gather
    stacks the ranks' (batch, rows) along the first axis."""

    def hook(module: nn.Module, inputs, out: torch.Tensor) -> torch.Tensor:
        batch, rows = out.shape
        stacked = all_gather(out, ways).view(ways, batch, rows)
        return stacked.transpose(0, 1).reshape(batch, ways * rows)

    return hook


def _shapes(model: nn.Module) -> dict[str, torch.Size]:
    return {n: p.shape for n, p in model.named_parameters(remove_duplicate=False)}


Load = Callable[[], torch.Tensor]


@dataclasses.dataclass(frozen=True)
class Slice:
    """The rank's part of a weight: along `dim`, the `rank`-th of `ways`
    equal blocks of each of `halves` equal halves (2: a stack of gate and up
    projections side by side)."""

    dim: int
    rank: int
    ways: int
    halves: int = 1

    def of(self, tensor: torch.Tensor) -> torch.Tensor:
        parts = tensor.chunk(self.halves, dim=self.dim)
        mine = [p.chunk(self.ways, dim=self.dim)[self.rank] for p in parts]
        return torch.cat(mine, self.dim).contiguous()

    def rows(self, size: int) -> Optional[tuple[int, int]]:
        """The rank's range of first-axis rows of `size`, when it is one."""
        if self.dim != 0 or self.halves != 1:
            return None
        return self.rank * size // self.ways, (self.rank + 1) * size // self.ways


@dataclasses.dataclass(frozen=True)
class SlicedLoad:
    """A rank's slice of a checkpoint load. It keeps `rows` (a range of
    first-axis rows read without the rest), which a quantized export reads
    a large weight by, and reads only the rank's rows of a row-split one."""

    load: Load
    slice: Slice
    full_rows: int

    def __call__(self) -> torch.Tensor:
        span = self.slice.rows(self.full_rows)
        return self._read(*span) if span else self.slice.of(self.load())

    def rows(self, start: int, stop: int) -> torch.Tensor:
        """Rows [start, stop) of the rank's slice (fewer where it ends first,
        as slicing a tensor gives)."""
        span = self.slice.rows(self.full_rows)
        if span:
            return self._read(span[0] + start, min(span[0] + stop, span[1]))
        if self.slice.dim == 0:
            return self()[start:stop]
        return self.slice.of(self._read(start, stop))

    def _read(self, start: int, stop: int) -> torch.Tensor:
        if hasattr(self.load, "rows"):
            return self.load.rows(start, stop)
        return self.load()[start:stop]
