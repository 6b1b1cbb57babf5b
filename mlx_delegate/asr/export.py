"""Export a local Whisper checkpoint to one `.pte` with two methods, `encode`
and `decode` (model.py), its weights in a `.ptd` beside it and its tokenizer
in `<name>.tokenizer.json`.

Design. The cross-attention keys and values depend only on the window's audio,
so `encode` computes them once per 30 s window and `decode` reads them at every
token. They stay in the delegate as state the two methods share
(`mlx_delegate/compiler/shared_state.py`): ExecuTorch would otherwise copy them out of
the encoder and back into every decoder call (decoder layers x 2 x 1500 x
d_model values a token: 92 MB a token for large-v3-turbo in fp32), or the
decoder would recompute them. We chose two methods sharing state over one
method doing both (a flag choosing encoder or decoder): one method would take
the features at every token and keep both halves' shapes in one graph, and the
shared state is a general mechanism (named state of one program), not a
Whisper trick. The self-attention cache is the LLM's: written in place at
`input_pos`, read up to it. The greedy choice (with transformers' suppressed
tokens) is in `decode`: only a token id comes back.

The export streams as the LLM's does: the model is built on the meta device,
exported and lowered, and each weight is read from the safetensors, converted
and written to the data file when the program is serialized."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Optional

import torch

from ..llm import checkpoint as llm_checkpoint
from ..llm.export import (
    DTYPES,
    ExportResult,
    WeightSource,
    _quantizer,
    _write_atomically,
    _write_data,
    data_path_of,
    edge_config,
    peak_memory,
)
from .model import (
    DecodeMethod,
    EncodeMethod,
    UnsupportedCheckpoint,
    Whisper,
    WhisperConfig,
    example_decode_inputs,
    example_features,
)

SAMPLING_RATE = 16000


def tokenizer_path_of(pte: Path) -> Path:
    """The tokenizer an export writes beside its `.pte`."""
    return Path(pte).with_suffix(".tokenizer.json")


@dataclasses.dataclass(frozen=True)
class Tokens:
    """The special token ids transcription needs (generation_config.json)."""

    sot: int
    eos: int
    no_timestamps: int
    transcribe: int
    translate: int
    multilingual: bool
    suppress: list[int]
    suppress_first: list[int]

    @classmethod
    def from_dir(cls, directory: Path) -> "Tokens":
        path = Path(directory) / "generation_config.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no generation_config.json in the model directory")
        g = json.loads(path.read_text())
        try:
            eos = g["eos_token_id"]
            return cls(
                sot=g["decoder_start_token_id"],
                eos=eos[0] if isinstance(eos, list) else eos,
                no_timestamps=g["no_timestamps_token_id"],
                transcribe=g.get("task_to_id", {}).get("transcribe", -1),
                translate=g.get("task_to_id", {}).get("translate", -1),
                multilingual=bool(g.get("is_multilingual", False)),
                suppress=list(g.get("suppress_tokens") or []),
                suppress_first=list(g.get("begin_suppress_tokens") or []),
            )
        except KeyError as e:
            raise UnsupportedCheckpoint(f"{path}: no {e.args[0]} (not a Whisper generation config)")


def check_feature_extractor(directory: Path, c: WhisperConfig) -> None:
    """Our log-mel front end (audio.py) is Whisper's: 16 kHz, 400-point FFT,
    hop 160, 30 s windows; a preprocessor that says otherwise is refused."""
    path = Path(directory) / "preprocessor_config.json"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no preprocessor_config.json in the model directory")
    p = json.loads(path.read_text())
    expected = {"sampling_rate": SAMPLING_RATE, "n_fft": 400, "hop_length": 160,
                "chunk_length": 30, "feature_size": c.num_mel_bins}  # fmt: skip
    for key, value in expected.items():
        if p.get(key, value) != value:
            raise UnsupportedCheckpoint(f"{path}: {key} {p[key]}, expected {value}")


def export_program(
    model_dir: Path,
    out: Path,
    dtype: str = "fp32",
    quantize: Optional[str] = None,
    group_size: int = 32,
    device: Optional[str] = None,
) -> ExportResult:
    """Writes `out`, `data_path_of(out)` and `tokenizer_path_of(out)`."""
    from .._progress import steps

    model_dir, out = Path(model_dir), Path(out)
    with steps(f"export {model_dir.name}", ["check", "torch.export", "lower", "serialize",
                                            "write"]) as step:  # fmt: skip
        step("check")
        c = WhisperConfig.from_dir(model_dir)
        tokens = Tokens.from_dir(model_dir)
        check_feature_extractor(model_dir, c)
        tokenizer = model_dir / "tokenizer.json"
        if not tokenizer.is_file():
            raise FileNotFoundError(f"{tokenizer}: no tokenizer.json in the model directory")
        # The exporter (10 s of imports) once the checkpoint has passed: a bad one is told at once.
        from executorch.exir import to_edge_transform_and_lower

        from ..compiler.builder.deferred import external_data
        from ..compiler.partitioner import MLXPartitioner
        from ..compiler.shared_state import SharedState

        model, loads = _meta_model(model_dir, c, DTYPES[dtype])
        quantizer = _quantizer(quantize, group_size, None) if quantize else None
        if quantizer:
            quantizer(model)
        parameters = sum(p.numel() for p in model.parameters())
        encode, decode = EncodeMethod(model), DecodeMethod(model)
        source = WeightSource(encode, loads, None, quantizer)
        masks = _suppression(c, tokens)
        shared = SharedState.of(model.shared_buffers("model."))
        with external_data(
            lambda t, like: masks[t] if t in masks else source.resolve(t, like)
        ) as session:
            step("torch.export")
            programs = _exported(encode, decode, c, DTYPES[dtype])
            step("lower")
            edge = to_edge_transform_and_lower(
                programs,
                partitioner=[MLXPartitioner(device=device, shared_state=shared)],
                constant_methods=_metadata(c, tokens),
                compile_config=edge_config(),
            )
            delegates, outside = _methods_delegation(edge)
            step("serialize")
            buffer = edge.to_executorch().buffer
            step("write")
            data_path = data_path_of(out)
            data_size = _write_data(data_path, session)
    try:
        _write_atomically(out, buffer)
        shutil.copyfile(tokenizer, tokenizer_path_of(out))
    except BaseException:
        data_path.unlink(missing_ok=True)
        raise
    return ExportResult(
        out, len(buffer), data_path, data_size, parameters, delegates, outside, peak_memory()
    )


def _meta_model(model_dir: Path, c: WhisperConfig, dtype: torch.dtype):
    """Our module on the meta device and, per parameter (named without the
    methods' `model.` prefix), its load from the checkpoint, shapes checked."""
    hf = llm_checkpoint.Checkpoint(model_dir)
    with torch.device("meta"):
        model = Whisper(c).to(dtype)
    loads = {}
    for name, param in model.named_parameters():
        stored = f"model.{name}"
        if stored not in hf:
            raise UnsupportedCheckpoint(f"{model_dir}: no tensor {stored!r} (not a Whisper?)")
        with hf.shapes_only():
            shape = tuple(hf[stored].shape)
        if shape != tuple(param.shape):
            raise UnsupportedCheckpoint(
                f"{model_dir}: {stored} has shape {shape}, the config gives {tuple(param.shape)}"
            )
        loads[name] = llm_checkpoint.Stored(hf, stored, dtype)
    return model, loads


def _suppression(c: WhisperConfig, tokens: Tokens) -> dict[str, torch.Tensor]:
    """The values of the suppression masks, by their name in the programs."""
    masks = {}
    for name, ids in (("suppressed", tokens.suppress), ("suppressed_first", tokens.suppress_first)):
        mask = torch.zeros(c.vocab_size, dtype=torch.bool)
        mask[[i for i in ids if 0 <= i < c.vocab_size]] = True
        masks[f"model.{name}"] = mask
    return masks


def _exported(encode, decode, c: WhisperConfig, dtype: torch.dtype) -> dict:
    """Both methods exported on the meta device; decode with a dynamic token
    count (1 .. max_target_positions - 1)."""
    from torch.export import Dim

    tokens = Dim("tokens", min=1, max=c.max_target_positions - 1)
    with torch.no_grad():
        programs = {
            "encode": torch.export.export(encode, (example_features(c, device="meta"),)),
            "decode": torch.export.export(
                decode,
                example_decode_inputs(device="meta"),
                dynamic_shapes=({1: tokens}, None, None),
            ),
        }
    return {name: _without_unused_state(p) for name, p in programs.items()}


def _without_unused_state(program):
    """`program` without the parameters and buffers it does not use: each
    method is exported from the whole model (so that a tensor has one name in
    both), and an unused meta tensor would reach ExecuTorch's emitter, which
    cannot hold it."""
    from torch.export.graph_signature import ExportGraphSignature, InputKind

    graph = program.graph_module.graph
    state = (InputKind.PARAMETER, InputKind.BUFFER)
    written = set(program.graph_signature.buffers_to_mutate.values())
    kept = []
    for node, spec in zip(
        list(graph.find_nodes(op="placeholder")), program.graph_signature.input_specs
    ):
        if spec.kind in state and not node.users and spec.target not in written:
            graph.erase_node(node)
            program.state_dict.pop(spec.target, None)
        else:
            kept.append(spec)
    program._graph_signature = ExportGraphSignature(kept, program.graph_signature.output_specs)
    program.graph_module.recompile()
    return program


def _metadata(c: WhisperConfig, tokens: Tokens) -> dict:
    """The constant methods the transcribers read."""
    return {
        "get_num_mel_bins": c.num_mel_bins,
        "get_max_target_positions": c.max_target_positions,
        "get_vocab_size": c.vocab_size,
        "get_sot_id": tokens.sot,
        "get_eos_id": tokens.eos,
        "get_no_timestamps_id": tokens.no_timestamps,
        "get_transcribe_id": tokens.transcribe,
        "get_translate_id": tokens.translate,
        "get_is_multilingual": int(tokens.multilingual),
        "get_sampling_rate": SAMPLING_RATE,
    }


def _methods_delegation(edge) -> tuple[int, list[str]]:
    """(delegate calls, ops left outside) over both methods."""
    import operator

    delegates, outside = 0, []
    for method in ("encode", "decode"):
        for node in edge.exported_program(method).graph_module.graph.nodes:
            if node.op != "call_function" or node.target is operator.getitem:
                continue
            if "executorch_call_delegate" in str(node.target):
                delegates += 1
            else:
                outside.append(f"{method}: {node.target}")
    return delegates, outside
