"""Load a local Hugging Face checkpoint (config.json + safetensors, one file or
shards listed in `model.safetensors.index.json`) into our `DecoderLM`: each
family's tensor names are mapped to ours, fused projections split, GPT-2's
Conv1D weights transposed, gemma's `1 + w` norms folded, a mixture of experts'
per-expert matrices stacked and DeepSeek's interleaved rotary rows reordered.

Nothing is read until it is needed: the converters yield each of our tensors as
a function that reads and converts it (`Load`). `load()` builds the eager model
from them one tensor at a time; a streamed export (`export.py`) calls them while
it writes the data file, and never holds the whole model."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from pathlib import Path
from typing import Callable, Iterator, Optional

import torch

from .config import DecoderConfig, UnsupportedCheckpoint, from_hf, load_hf_config, rope_frequencies
from .model import DecoderLM

Load = Callable[[], torch.Tensor]
INDEX = "model.safetensors.index.json"


class Checkpoint:
    """The tensors of a checkpoint's safetensors files by name, read one at a
    time and kept by nobody (a fused projection is read again for each part: the
    page cache serves it, where a kept copy would count against the export).

    Tensors are read with plain reads, not through a mapping of the file: pages
    of a mapped checkpoint stay resident (and counted) until it is closed, so
    reading a model through a map holds all of it."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self._where: dict[str, tuple[Path, torch.dtype, tuple, int, int]] = {}
        for file in _safetensors_files(self.directory):
            for name, entry in _safetensors_header(file).items():
                self._where[name] = (file, *entry)
        self._shapes_only = False

    def __contains__(self, name: str) -> bool:
        return name in self._where

    def names(self) -> list[str]:
        return list(self._where)

    def __getitem__(self, name: str) -> torch.Tensor:
        if name not in self._where:
            raise UnsupportedCheckpoint(f"{self.directory}: no tensor {name!r}")
        file, dtype, shape, start, end = self._where[name]
        if self._shapes_only:
            return torch.empty(shape, dtype=dtype, device="meta")
        return _read_tensor(file, dtype, shape, start, end)

    def load(self, name: str) -> Load:
        return Stored(self, name)

    def rows(self, name: str, start: int, stop: int) -> torch.Tensor:
        """Rows start..stop of tensor `name` (its first axis), read alone."""
        file, dtype, shape, begin, end = self._where[name]
        row = (end - begin) // shape[0]
        stop = min(stop, shape[0])
        return _read_tensor(file, dtype, (stop - start, *shape[1:]), begin + start * row,
                            begin + stop * row)  # fmt: skip

    @contextlib.contextmanager
    def shapes_only(self) -> Iterator[None]:
        """Inside the block, tensors are read from the headers alone: meta
        tensors of the stored dtype and shape."""
        self._shapes_only = True
        try:
            yield
        finally:
            self._shapes_only = False


SAFETENSORS_DTYPES = {
    "F64": torch.float64,
    "F32": torch.float32,
    "F16": torch.float16,
    "BF16": torch.bfloat16,
    "I64": torch.int64,
    "I32": torch.int32,
    "I16": torch.int16,
    "I8": torch.int8,
    "U8": torch.uint8,
    "BOOL": torch.bool,
}


def _safetensors_header(file: Path) -> dict[str, tuple[torch.dtype, tuple, int, int]]:
    """name -> (dtype, shape, start, end): the safetensors layout, a little-endian
    u64 header size, a JSON header, then the data (offsets relative to its start)."""
    size = file.stat().st_size
    with open(file, "rb") as f:
        head = f.read(8)
        length = int.from_bytes(head, "little") if len(head) == 8 else -1
        try:
            if not 2 <= length <= size - 8:
                raise ValueError(f"header of {length} bytes in a file of {size}")
            header = json.loads(f.read(length))
        except ValueError as e:
            raise UnsupportedCheckpoint(f"{file}: not a safetensors file ({e})") from None
    base, tensors = 8 + length, {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        dtype = SAFETENSORS_DTYPES.get(entry.get("dtype"))
        start, end = entry["data_offsets"]
        shape = tuple(entry["shape"])
        if dtype is None:
            raise UnsupportedCheckpoint(f"{file}: {name} has dtype {entry.get('dtype')}")
        if end - start != torch.Size(shape).numel() * dtype.itemsize or base + end > size:
            raise UnsupportedCheckpoint(
                f"{file}: {name} ({entry.get('dtype')}{list(shape)}) does not fit its "
                f"bytes {start}..{end} (the file has {size - base} bytes of data)"
            )
        tensors[name] = (dtype, shape, base + start, base + end)
    return tensors


def _read_tensor(file: Path, dtype: torch.dtype, shape: tuple, start: int, end: int):
    tensor = torch.empty(shape, dtype=dtype)
    with open(file, "rb") as f:
        f.seek(start)
        if end > start:
            f.readinto(tensor.view(-1).view(torch.uint8).numpy())
    return tensor


def _safetensors_files(directory: Path) -> list[Path]:
    index = directory / INDEX
    if index.exists():
        try:
            weight_map = json.loads(index.read_text())["weight_map"]
        except (ValueError, KeyError) as e:
            raise UnsupportedCheckpoint(f"{index}: not a safetensors index ({e})") from None
        files = sorted({directory / name for name in weight_map.values()})
        missing = [f.name for f in files if not f.exists()]
        if missing:
            raise UnsupportedCheckpoint(
                f"{directory}: {INDEX} lists {len(files)} shards, {len(missing)} missing: "
                + ", ".join(missing)
            )
        return files
    files = sorted(directory.glob("*.safetensors"))
    if not files:
        raise UnsupportedCheckpoint(f"{directory}: no *.safetensors file")
    return files


def build(directory: Path, max_seq_len: int, dtype: torch.dtype = torch.float32):
    """(our model on the meta device, in `dtype`: its shapes without data;
    our tensor name -> its `Load`, converted to `dtype`). Every tensor's shape is
    checked against the model's before anything is read."""
    directory = Path(directory)
    hf = load_hf_config(directory)
    config = from_hf(hf)
    inv_freq, scaling = rope_frequencies(hf) if config.uses_rope else (None, 1.0)
    with torch.device("meta"):
        meta_freq = None if inv_freq is None else inv_freq.to("meta")
        model = DecoderLM(config, max_seq_len, meta_freq, scaling).to(dtype).eval()
    if config.tie_embeddings:  # one weight for both: the export reads and stores it once
        model.lm_head.weight = model.embed.weight
    checkpoint = Checkpoint(directory)
    loads = dict(_ours(config, checkpoint))
    if config.tie_embeddings or "lm_head.weight" not in loads:
        loads["lm_head.weight"] = loads["embed.weight"]
    _check_shapes(checkpoint, model, loads)
    # each to the dtype the model holds it in (a float32_routing router: float32)
    dtypes = {name: p.dtype for name, p in model.named_parameters(remove_duplicate=False)}
    loads = {name: _converted(load, dtypes[name]) for name, load in loads.items()}
    return model, loads, inv_freq


def load(directory: Path, max_seq_len: int, dtype: torch.dtype = torch.float32) -> DecoderLM:
    """The eager model, its weights read one tensor at a time."""
    return materialize(*build(directory, max_seq_len, dtype))


def materialize(
    model: DecoderLM, loads: dict[str, Load], inv_freq: Optional[torch.Tensor]
) -> DecoderLM:
    """`model` of `build` with its data: the weights read, the caches zeros."""
    model.load_state_dict({name: load() for name, load in loads.items()}, assign=True)
    for name, buffer in list(model.named_buffers()):
        module, _, leaf = name.rpartition(".")
        model.get_submodule(module).register_buffer(
            leaf, buffer_value(leaf, buffer, inv_freq), persistent=False
        )
    return model.eval()


def buffer_value(leaf: str, like: torch.Tensor, inv_freq: Optional[torch.Tensor]) -> torch.Tensor:
    """A buffer of our model (not in the checkpoint): the rope frequencies, or a
    KV cache, which starts as zeros."""
    if leaf == "inv_freq":
        return inv_freq
    if "_cache" not in leaf:  # a cache's values, or its scales and biases when quantized
        raise UnsupportedCheckpoint(f"no value for the model's buffer {leaf!r}")
    return torch.zeros(like.shape, dtype=like.dtype)


@dataclasses.dataclass(frozen=True)
class Stored:
    """The load of a tensor stored as it is: it can also read a slice of rows,
    so that a large weight is quantized without being read whole."""

    checkpoint: Checkpoint
    name: str
    dtype: Optional[torch.dtype] = None  # converted to, when read

    def __call__(self) -> torch.Tensor:
        return self._converted(self.checkpoint[self.name])

    def rows(self, start: int, stop: int) -> torch.Tensor:
        return self._converted(self.checkpoint.rows(self.name, start, stop))

    def _converted(self, tensor: torch.Tensor) -> torch.Tensor:
        return tensor if self.dtype is None else tensor.to(self.dtype)


@dataclasses.dataclass(frozen=True)
class Stacked:
    """The load of a stack of expert matrices (experts, rows, cols), as our
    `Experts` holds them, from a checkpoint that stores a matrix per expert, or
    its parts of equal shape to concatenate along the rows (gate, then up).
    Experts are read one at a time into the stack; `rows` reads a slice of
    experts alone, so that a stack is quantized without being read whole."""

    experts: tuple[tuple[Stored, ...], ...]  # per expert, its parts
    dtype: Optional[torch.dtype] = None  # converted to, when read

    def __call__(self) -> torch.Tensor:
        return self.rows(0, len(self.experts))

    def rows(self, start: int, stop: int) -> torch.Tensor:
        chosen, stack = self.experts[start:stop], None
        for index, parts in enumerate(chosen):
            for place, part in enumerate(parts):
                matrix = part()
                if stack is None:
                    shape = (len(chosen), len(parts) * len(matrix), *matrix.shape[1:])
                    stack = torch.empty(shape, dtype=self.dtype or matrix.dtype,
                                        device=matrix.device)  # fmt: skip
                part_shape = (stack.shape[1] // len(parts), *stack.shape[2:])
                if matrix.shape != part_shape:
                    raise UnsupportedCheckpoint(
                        f"{part.checkpoint.directory}: {part.name} has shape "
                        f"{tuple(matrix.shape)}, unlike the other experts' {part_shape}"
                    )
                stack[index, place * part_shape[0] : (place + 1) * part_shape[0]] = matrix
        return stack


def _converted(load: Load, dtype: torch.dtype) -> Load:
    if isinstance(load, (Stored, Stacked)):
        return dataclasses.replace(load, dtype=dtype)
    return lambda: load().to(dtype)


def _check_shapes(checkpoint: Checkpoint, model: DecoderLM, loads: dict[str, Load]) -> None:
    """Each converter run on shapes alone (meta tensors), against the model's."""
    expected = {name: p.shape for name, p in model.named_parameters(remove_duplicate=False)}
    missing, unexpected = sorted(set(expected) - set(loads)), sorted(set(loads) - set(expected))
    if missing or unexpected:
        raise UnsupportedCheckpoint(
            f"{checkpoint.directory}: checkpoint does not match a {model.c.family} model "
            f"(missing {missing[:5]}, unexpected {unexpected[:5]})"
        )
    with checkpoint.shapes_only():
        for name, load in loads.items():
            shape = load().shape
            if shape != expected[name]:
                raise UnsupportedCheckpoint(
                    f"{checkpoint.directory}: tensor for {name} has shape {tuple(shape)}, "
                    f"the config says {tuple(expected[name])}"
                )


def _ours(c: DecoderConfig, hf: Checkpoint) -> Iterator[tuple[str, Load]]:
    convert: Callable = {"gpt2": _gpt2, "gpt_neox": _gpt_neox, "phi3": _phi3}.get(
        c.family, _moe_family if c.moe else _llama_like
    )
    for name, load in convert(c, hf):
        if c.norm == "rms_plus_one" and name.endswith("norm.weight"):
            load = _plus_one(load)
        yield name, load


def _plus_one(load: Load) -> Load:
    return lambda: 1.0 + load().float()


def _then(load: Load, convert: Callable[[torch.Tensor], torch.Tensor]) -> Load:
    return lambda: convert(load())


def _strip(hf: Checkpoint, prefix: str) -> dict[str, Load]:
    return {k[len(prefix) :]: hf.load(k) for k in hf.names() if k.startswith(prefix)}


def _llama_like(c: DecoderConfig, hf: Checkpoint, split: Optional[Callable] = None):
    """llama, mistral, qwen2, qwen3, gemma2 (phi3, the mixtures of experts:
    `split(c, layer, load)` rewrites a layer's tensors, `load(name)` the load of
    one of the layer's by its name in the layer)."""
    yield "embed.weight", hf.load("model.embed_tokens.weight")
    yield "norm.weight", hf.load("model.norm.weight")
    if "lm_head.weight" in hf:
        yield "lm_head.weight", hf.load("lm_head.weight")
    mlp_norm = "pre_feedforward_layernorm" if c.sandwich_norms else "post_attention_layernorm"
    names = {
        "input_layernorm": "attn_norm",
        mlp_norm: "mlp_norm",
        "self_attn.q_proj": "attn.q",
        "self_attn.k_proj": "attn.k",
        "self_attn.v_proj": "attn.v",
        "self_attn.o_proj": "attn.o",
        "self_attn.q_norm": "attn.q_norm",
        "self_attn.k_norm": "attn.k_norm",
        "mlp.gate_proj": "mlp.gate",
        "mlp.up_proj": "mlp.up",
        "mlp.down_proj": "mlp.down",
        **LATENT_ATTENTION_NAMES,
        **MOE_NAMES,
    }
    if c.sandwich_norms:
        names["post_attention_layernorm"] = "post_attn_norm"
        names["post_feedforward_layernorm"] = "post_mlp_norm"
    for i in range(c.num_layers):
        prefix = f"model.layers.{i}."
        layer = _strip(hf, prefix)
        if split is not None:
            layer = split(c, layer, lambda name, prefix=prefix: hf.load(prefix + name))
        yield from _renamed(layer, names, f"layers.{i}.")


def _renamed(tensors: dict[str, Load], names: dict[str, str], prefix: str):
    for name, load in tensors.items():
        module, _, leaf = name.rpartition(".")
        if module not in names:
            raise UnsupportedCheckpoint(f"unexpected tensor {prefix}{name}")
        yield f"{prefix}{names[module]}.{leaf}", load


def _part(load: Load, sizes: list[int], index: int, dim: int = 0) -> Load:
    return lambda: load().split(sizes, dim)[index]


def _phi3(c: DecoderConfig, hf: Checkpoint):
    yield from _llama_like(c, hf, split=_phi3_split)


def _phi3_split(c: DecoderConfig, layer: dict[str, Load], load) -> dict[str, Load]:
    """phi3's fused qkv and gate/up projections, as llama's separate ones."""
    q_rows, kv_rows = c.num_heads * c.head_dim, c.num_kv_heads * c.head_dim
    qkv, gate_up = layer.pop("self_attn.qkv_proj.weight"), layer.pop("mlp.gate_up_proj.weight")
    rows = [q_rows, kv_rows, kv_rows]
    for index, name in enumerate(("q_proj", "k_proj", "v_proj")):
        layer[f"self_attn.{name}.weight"] = _part(qkv, rows, index)
    half = c.intermediate_size
    layer["mlp.gate_proj.weight"] = _part(gate_up, [half, half], 0)
    layer["mlp.up_proj.weight"] = _part(gate_up, [half, half], 1)
    return layer


# deepseek_v3's attention (model.LatentAttention), in a layer of the checkpoint
LATENT_ATTENTION_NAMES = {
    "self_attn.q_a_proj": "attn.q_a",
    "self_attn.q_a_layernorm": "attn.q_a_norm",
    "self_attn.q_b_proj": "attn.q_b",
    "self_attn.kv_a_proj_with_mqa": "attn.kv_a",
    "self_attn.kv_a_layernorm": "attn.kv_a_norm",
    "self_attn.kv_b_proj": "attn.kv_b",
}
# The mixture of experts' router and shared experts (model.MoE); the experts
# themselves are stacked by `_stacked_experts`.
MOE_NAMES = {
    "mlp.gate": "mlp.router",
    "mlp.experts": "mlp.experts",
    "mlp.shared_experts.gate_proj": "mlp.shared.gate",
    "mlp.shared_experts.up_proj": "mlp.shared.up",
    "mlp.shared_experts.down_proj": "mlp.shared.down",
}


@dataclasses.dataclass(frozen=True)
class ExpertNames:
    """Where a family's checkpoint (as save_pretrained and the hub write it)
    keeps a layer's experts: `{block}.experts.{e}.{gate|up|down}.weight`, its
    router `{block}.gate.weight`."""

    block: str
    gate: str
    up: str
    down: str

    def of(self, expert: int, part: str) -> str:
        return f"{self.block}.experts.{expert}.{part}.weight"


EXPERT_NAMES = {
    "qwen3_moe": ExpertNames("mlp", "gate_proj", "up_proj", "down_proj"),
    "mixtral": ExpertNames("block_sparse_moe", "w1", "w3", "w2"),
    "deepseek_v3": ExpertNames("mlp", "gate_proj", "up_proj", "down_proj"),
}


def _moe_family(c: DecoderConfig, hf: Checkpoint):
    yield from _llama_like(c, hf, split=_moe_layer)


def _moe_layer(c: DecoderConfig, layer: dict[str, Load], load) -> dict[str, Load]:
    names = EXPERT_NAMES[c.family]
    if f"{names.block}.gate.weight" in layer:  # a layer of experts (else a dense MLP)
        layer = _stacked_experts(c, names, layer, load)
    if c.latent_attention is not None and c.latent_attention.interleaved_rope:
        layer = _half_split_rope_rows(c, layer)
    return layer


def _stacked_experts(c: DecoderConfig, names: ExpertNames, layer: dict[str, Load], load):
    """The layer's per-expert matrices as our two stacks; its router (and
    DeepSeek's score correction) under the names `MOE_NAMES` maps."""
    experts = range(c.moe.num_experts)
    for expert in experts:
        for part in (names.gate, names.up, names.down):
            layer.pop(names.of(expert, part), None)
    layer["mlp.experts.gate_up_proj"] = Stacked(
        tuple((load(names.of(e, names.gate)), load(names.of(e, names.up))) for e in experts)
    )
    layer["mlp.experts.down_proj"] = Stacked(
        tuple((load(names.of(e, names.down)),) for e in experts)
    )
    layer["mlp.gate.weight"] = layer.pop(f"{names.block}.gate.weight")
    if f"{names.block}.gate.e_score_correction_bias" in layer:
        layer["mlp.gate.correction_bias"] = layer.pop(f"{names.block}.gate.e_score_correction_bias")
    return layer


def _half_split_rope_rows(c: DecoderConfig, layer: dict[str, Load]) -> dict[str, Load]:
    """DeepSeek's rotated query and key dims come out of their projections in
    interleaved pairs (x0, x1), (x2, x3)...; reordered as x0, x2, ..., x1, x3,
    ..., the half-split rope (model.apply_rope) rotates the same pairs by the
    same angles, and q . k is unchanged (both reordered alike)."""
    a = c.latent_attention
    query = "self_attn.q_proj" if a.q_lora_rank is None else "self_attn.q_b_proj"
    order = _rope_rows_order(c.num_heads, c.head_dim, a.qk_nope_head_dim)
    layer[f"{query}.weight"] = _reordered(layer[f"{query}.weight"], order)
    key_order = _rope_rows_order(1, a.kv_lora_rank + a.qk_rope_head_dim, a.kv_lora_rank)
    for leaf in ("weight", "bias"):
        name = f"self_attn.kv_a_proj_with_mqa.{leaf}"
        if name in layer:
            layer[name] = _reordered(layer[name], key_order)
    return layer


def _reordered(load: Load, order: torch.Tensor) -> Load:
    return _then(load, lambda t: t.index_select(0, order.to(t.device)))


def _rope_rows_order(heads: int, head_rows: int, unrotated: int) -> torch.Tensor:
    """Row indices: each head's rows as they are up to `unrotated`, then the
    rotated rows' even ones, then their odd ones."""
    order = torch.arange(heads * head_rows).view(heads, head_rows)
    rotated = order[:, unrotated:]
    return torch.cat((order[:, :unrotated], rotated[:, 0::2], rotated[:, 1::2]), 1).reshape(-1)


def _neox_part(c: DecoderConfig, load: Load, index: int) -> Load:
    """(heads * 3 * head_dim, ...): each head's q, k and v rows side by side."""

    def part() -> torch.Tensor:
        qkv = load()
        per_head = qkv.view(c.num_heads, 3, c.head_dim, *qkv.shape[1:])
        return per_head[:, index].reshape(-1, *qkv.shape[1:])

    return part


def _gpt_neox(c: DecoderConfig, hf: Checkpoint):
    yield "embed.weight", hf.load("gpt_neox.embed_in.weight")
    yield "lm_head.weight", hf.load("embed_out.weight")
    for leaf in ("weight", "bias"):
        yield f"norm.{leaf}", hf.load(f"gpt_neox.final_layer_norm.{leaf}")
    for i in range(c.num_layers):
        layer = _strip(hf, f"gpt_neox.layers.{i}.")
        for leaf in ("weight", "bias"):
            qkv = layer.pop(f"attention.query_key_value.{leaf}")
            for index, name in enumerate("qkv"):
                yield f"layers.{i}.attn.{name}.{leaf}", _neox_part(c, qkv, index)
        layer = {k: t for k, t in layer.items() if not k.startswith("attention.rotary")}
        names = {
            "input_layernorm": "attn_norm",
            "post_attention_layernorm": "mlp_norm",
            "attention.dense": "attn.o",
            "mlp.dense_h_to_4h": "mlp.up",
            "mlp.dense_4h_to_h": "mlp.down",
        }
        yield from _renamed(layer, names, f"layers.{i}.")


def _transposed(tensor: torch.Tensor) -> torch.Tensor:
    return tensor.t() if tensor.dim() == 2 else tensor


def _gpt2(c: DecoderConfig, hf: Checkpoint):
    def load(name: str) -> Load:
        return hf.load(name if name in hf else f"transformer.{name}")

    yield "embed.weight", load("wte.weight")
    yield "pos_embed.weight", load("wpe.weight")
    for leaf in ("weight", "bias"):
        yield f"norm.{leaf}", load(f"ln_f.{leaf}")
    for i in range(c.num_layers):
        prefix = f"h.{i}." if f"h.{i}.ln_1.weight" in hf else f"transformer.h.{i}."
        layer = _strip(hf, prefix)
        # Conv1D stores (in, out): a Linear's weight transposed
        c_attn = _then(layer.pop("attn.c_attn.weight"), torch.t)
        c_attn_bias = layer.pop("attn.c_attn.bias")
        for index, name in enumerate("qkv"):
            yield f"layers.{i}.attn.{name}.weight", _part(c_attn, [c.hidden_size] * 3, index)
            yield f"layers.{i}.attn.{name}.bias", _part(c_attn_bias, [c.hidden_size] * 3, index)
        names = {
            "ln_1": "attn_norm",
            "ln_2": "mlp_norm",
            "attn.c_proj": "attn.o",
            "mlp.c_fc": "mlp.up",
            "mlp.c_proj": "mlp.down",
        }
        for name, part in _renamed(layer, names, f"layers.{i}."):
            yield name, _then(part, _transposed) if name.endswith("weight") else part
