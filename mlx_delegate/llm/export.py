"""Export a local checkpoint to one `.pte` that serves prefill and decode, its
weights in a `.ptd` data file beside it.

One method, `forward`, with a dynamic token count T (1 .. max_seq_len - 1):
prefill passes the prompt, decode passes one token. We chose one method over
two (prefill + decode) because a delegate's mutable buffers belong to its
method's program: two methods would hold two KV caches, or need state shared
between delegate instances. One method keeps one cache and one copy of the
weights, and MLX handles the dynamic T without recompiling anything.

The export streams: the model is built on the meta device (shapes, no data),
exported and lowered as it is, and the delegate's constants are deferred
(`builder/deferred.py`). Only then is each weight read from the safetensors,
converted (dtype, quantization, MLX's packing), written to the data file and
dropped, so the export holds about one tensor at a time, whatever the model's
size. The data goes to an external `.ptd` rather than into the `.pte` because
ExecuTorch builds a `.pte` whole in memory before writing it; the `.ptd` is
written one segment at a time (`mlx_delegate/formats/ptd.py`), and a runtime maps it.

Metadata travels as constant methods (`get_max_seq_len`, `get_vocab_size`,
`get_bos_id`, `get_eos_ids`, `get_family`), which the Python and the C++
generators read."""

from __future__ import annotations

import dataclasses
import re
import resource
import sys
from pathlib import Path
from typing import Iterator, Optional

import torch
from torch import nn

from . import checkpoint, tensor_parallel
from .config import DecoderConfig
from .model import quantize_kv_cache
from .quantize import Quantization
from .sampling import NEXT_CALL, Generator

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}


@dataclasses.dataclass
class ExportResult:
    path: Path
    size: int
    data_path: Path
    data_size: int
    parameters: int
    delegates: int
    ops_outside: list[str]
    peak_memory: int  # bytes: the process's peak resident set
    ranks: int = 1  # tensor-parallel ranks, each with a data file (data_path: rank 0's)

    def report(self) -> str:
        outside = f", outside: {', '.join(self.ops_outside)}" if self.ops_outside else ""
        files = f" in {self.ranks} files, one a rank" if self.ranks > 1 else ""
        return (
            f"{self.path}: {self.size:,} bytes, {self.parameters:,} parameters, "
            f"{self.delegates} MLX delegate(s){outside}\n"
            f"{self.data_path}: {self.data_size:,} bytes of weights{files}\n"
            f"peak memory: {self.peak_memory / 1e9:.2f} GB "
            f"({self.peak_memory / max(self.data_size, 1):.2f} x the weights written)"
        )


def data_path_of(pte: Path) -> Path:
    """The data file an export for one rank writes beside its `.pte`."""
    return tensor_parallel.data_path(pte, 0, 1)


def example_inputs(length: int = 2, device: str = "cpu") -> tuple:
    return tuple(
        t.to(device)
        for t in (
            torch.ones(1, length, dtype=torch.long),
            torch.tensor([0]),
            torch.tensor([0.0]),
            torch.tensor([1.0]),
            torch.tensor([0.5]),
        )
    )


def export_program(
    model_dir: Path,
    out: Path,
    dtype: str = "fp32",
    quantize: Optional[str] = None,
    group_size: int = 32,
    max_seq_len: int = 256,
    device: Optional[str] = None,
    tp: int = 1,
    tp_vocab: str = "split",
    tp_experts: str = "hidden",
    quantize_embedding: Optional[str] = "same",
    kv_cache: Optional[str] = None,
    join_products: bool = True,
) -> ExportResult:
    """Writes `out` (the program) and `data_path_of(out)` (its weights); with
    `tp` N > 1, a program for N ranks (tensor-parallel: `tensor_parallel.py`)
    and each rank's weights in `tensor_parallel.data_path(out, rank, N)`, its
    embedding and LM head held as `tp_vocab` says (`tensor_parallel.VOCABULARY`),
    a mixture of experts split as `tp_experts` says (`tensor_parallel.EXPERTS`).
    `quantize`: a format of `quantize.FORMATS` for the linear layers (and expert
    stacks), `quantize_embedding` one for the embedding and LM head ("same":
    `quantize`'s; None: unquantized), `group_size` the integer formats'.
    `kv_cache`: "int8" or "int4" keeps the KV cache quantized (None: in `dtype`).
    `join_products=False`: products of one input stay apart (for benchmarks
    that measure what joining them gains, `MLXPartitioner`)."""
    from .._progress import steps

    return_freed_tensors()
    names = ["check", "quantize", "torch.export", "lower", "serialize", "write"]
    if not quantize:
        names.remove("quantize")
    quantizer = _quantizer(quantize, group_size, quantize_embedding) if quantize else None
    out = Path(out)
    with steps(f"export {Path(model_dir).name}", names) as step:
        step("check")
        model, loads, inv_freq = checkpoint.build(model_dir, max_seq_len, DTYPES[dtype])
        # The exporter (10 s of imports) once the checkpoint has passed: a bad one is told at once.
        from executorch.exir import to_edge_transform_and_lower

        from ..compiler.builder.deferred import external_data
        from ..compiler.partitioner import MLXPartitioner

        sharding, config = None, model.c  # the whole model's: a rank's vocabulary may be a part
        if tp > 1:
            model, sharding = tensor_parallel.shard_model(model, tp, tp_vocab, tp_experts)
        if kv_cache:  # a rank's cache: of its own heads
            quantize_kv_cache(model, kv_cache)
        if quantizer:
            step("quantize")
            quantizer(model)
        parameters = sum(p.numel() for p in model.parameters())
        root = Generator(model)
        first_loads = loads if sharding is None else sharding.loads(loads, 0)
        source = WeightSource(root, first_loads, inv_freq, quantizer)
        with external_data(source.resolve, source.resolve_rows) as session:
            step("torch.export")
            exported = _exported(root, max_seq_len)
            step("lower")
            edge = to_edge_transform_and_lower(
                exported,
                partitioner=[
                    MLXPartitioner(device=device, run_ahead=NEXT_CALL, join_products=join_products)
                ],
                constant_methods=_metadata(config, max_seq_len, tp),
                compile_config=edge_config(),
            )
            delegates, outside = _delegation(edge)
            step("serialize")
            buffer = edge.to_executorch().buffer
            step("write")
            data_paths, data_size = [], 0
            for rank in range(tp):  # one data file per rank, each with its shards
                if sharding is not None:
                    rank_loads = sharding.loads(loads, rank)
                    rank_source = WeightSource(root, rank_loads, inv_freq, quantizer)
                    session.resolve = rank_source.resolve
                    session.resolve_rows = rank_source.resolve_rows
                data_paths.append(tensor_parallel.data_path(out, rank, tp))
                data_size += _write_data(data_paths[-1], session)
    try:
        _write_atomically(out, buffer)
    except BaseException:
        for path in data_paths:
            path.unlink(missing_ok=True)
        raise
    return ExportResult(
        out,
        len(buffer),
        data_paths[0],
        data_size,
        parameters,
        delegates,
        outside,
        peak_memory(),
        tp,
    )


def edge_config():
    """The edge dialect's checks off, as ExecuTorch's own LLM export has them
    (extension/llm/export/builder.py). They vet each op's dtypes for ExecuTorch's
    portable kernels, while these programs lower whole into the delegate, whose
    builder checks every op it takes (and the export reports any op left
    outside). They took a quarter of a small model's export (14.1 s to 10.4 s
    without), and they refuse the float formats' dequantize calls
    (torchao::dequantize_nvfp4 / dequantize_mx: uint8 or uint32 values in, a
    float out, a mix they take for a dtype error)."""
    from executorch.exir import EdgeCompileConfig

    return EdgeCompileConfig(_check_ir_validity=False)


@dataclasses.dataclass(frozen=True)
class Quantizer:
    """Quantizes a module's linear and embedding weights and its stacks of
    expert weights, in place, as `quantization` says."""

    quantization: Quantization

    def __call__(
        self, module: nn.Module, prefix: str = "", amax: Optional[torch.Tensor] = None
    ) -> None:
        """`prefix`: the module's name in the model; `amax`: the largest
        magnitude of the whole weight that `module` holds a slice of."""
        from ..compiler.quantize_experts import quantize_experts

        self.quantization(module, prefix, amax)
        quantize_experts(module, self.quantization.layers, self.quantization.group_size)

    def needs_amax(self, fqn: str) -> bool:
        return self.quantization.needs_amax(fqn)


def _quantizer(scheme: str, group_size: int, embedding: Optional[str] = "same") -> Quantizer:
    return Quantizer(Quantization.of(scheme, group_size, embedding))


# Tensors of this many bytes or more get mappings of their own (see below).
OWN_MAPPING_BYTES = 1 << 20
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter


def return_freed_tensors() -> None:
    """Makes every allocation of OWN_MAPPING_BYTES or more a mapping of its
    own, which glibc returns to the system when it is freed (process-wide).

    Why: an export makes its weights one after another, each freed once it is
    written. By default glibc raises its mapping threshold each time a mapped
    block is freed (up to 32 MiB), so later tensors come from the heap, whose
    freed memory it keeps: the resident set grew by 0.4 GB over a 1B export.
    A fixed threshold keeps it at what is live. 1B from bf16, peak resident
    memory: int8 2.05 GB before, 1.47 GB (1.06x the weights written) after;
    int4 1.78 GB before, 1.43 GB after. A threshold of 128 KiB took both to
    1.38 GB; it stays at 1 MiB because the setting is process-wide and
    outlives the export (a test worker's every later allocation of 128 KiB or
    more would be a fresh mapping). No effect off glibc."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(_M_MMAP_THRESHOLD, OWN_MAPPING_BYTES)
    except (OSError, AttributeError):
        pass


def peak_memory() -> int:
    """The process's peak resident set, in bytes: on Linux its VmHWM, this
    program's own. `ru_maxrss` there also counts the image the process had
    before its exec, that of the process that forked it: an export started from
    a 2.5 GB Python process reported a peak of 2.5 GB."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024  # kB
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB elsewhere


def _write_data(path: Path, session) -> int:
    from ..formats import ptd
    from .._progress import progress
    from ..compiler.builder.slots import tensor_bytes_view

    path.parent.mkdir(parents=True, exist_ok=True)
    entries = [
        (key, c.nbytes, lambda c=c: tensor_bytes_view(c.tensor()))
        for key, c in session.constants.items()
    ]
    with progress(total=round(session.nbytes / 1e6), description="weights", unit="MB") as bar:
        return ptd.write(path, entries, on_written=lambda n: bar.update(n / 1e6))


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    try:
        partial.write_bytes(data)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


# torch.export names each inner tensor of a tensor subclass (a torchao quantized
# weight) `<module>.parametrizations.<name>.original<i>`, i its place in
# `__tensor_flatten__`.
_INNER = re.compile(r"(.+)\.parametrizations\.(\w+)\.original(\d+)")


# Values of a weight quantized at a time (in whole rows; whole matrices of a
# stack). The quantizer's float32 temporaries are a few times a slice: 1B int4
# from bf16 (0.77 GB written) peaked at 1.40 GB with slices of 4096 rows (a
# down projection's 33M values), 1.17 GB with 4M values, 1.10 GB with 1M.
QUANTIZE_VALUES = 1 << 20


class WeightSource:
    """The real tensor each meta tensor of the exported program stands for,
    made on demand from the checkpoint: converted to the export's dtype and, for
    a quantized weight, quantized as the meta model's was."""

    def __init__(
        self,
        root: nn.Module,
        loads: dict[str, checkpoint.Load],
        inv_freq: Optional[torch.Tensor],
        quantizer: Optional[Quantizer],
    ):
        self.root, self.loads, self.inv_freq, self.quantizer = root, loads, inv_freq, quantizer
        # a quantized weight's inner tensors are asked for one after the other
        self._last: tuple[str, object] = ("", None)

    def resolve(self, target: str, like: torch.Tensor) -> torch.Tensor:
        name, index = _weight_of(target)
        value = self._value(name)
        if index is not None:
            if value[index] is None:  # streamed by resolve_rows: made whole again
                self._last = ("", None)
                value = self._value(name)
            value = value[index]
        _check_made(target, value.dtype, tuple(value.shape), like)
        return value

    def resolve_rows(self, target: str, like: torch.Tensor) -> Iterator[torch.Tensor]:
        """`resolve(target, like)` as consecutive slices of its first axis. An
        inner tensor of a quantized weight is quantized and given a slice at a
        time, never whole; the weight's other inner tensors (its scales, zero
        points) are kept whole for the resolves that follow. Anything else (or a
        weight already made whole) comes in one slice."""
        name, index = _weight_of(target)
        fresh = index is not None and self._last[0] != name
        quantized = self._quantized_weight(name) if fresh else None
        if quantized is None:
            yield self.resolve(target, like)
            return
        self._last = ("", None)  # not held while this one is made
        wholes, made = [], 0
        for start, parts in self._quantized(*quantized):
            rows = parts[index]
            _check_made(target, rows.dtype, (like.shape[0], *rows.shape[1:]), like)
            yield rows
            made += len(rows)
            wholes = _into_wholes(wholes, start, parts, like.shape[0], skip=index)
        _check_made(target, like.dtype, (made, *like.shape[1:]), like)
        self._last = (name, wholes)

    def _value(self, name: str) -> torch.Tensor:
        if self._last[0] != name:
            self._last = ("", None)  # not held while the next one is made
            self._last = (name, self._make(name))
        return self._last[1]

    def _make(self, name: str) -> torch.Tensor:
        ours = name.removeprefix("model.")
        if ours not in self.loads:
            module_path, _, leaf = name.rpartition(".")
            like = self.root.get_buffer(name)
            return checkpoint.buffer_value(leaf, like, self.inv_freq)
        quantized = self._quantized_weight(name)
        return self.loads[ours]() if quantized is None else self._quantized_whole(*quantized)

    def _quantized_weight(self, name: str) -> Optional[tuple]:
        """The arguments of `_quantized` for the weight `name`; None: not a
        quantized weight."""
        ours = name.removeprefix("model.")
        if self.quantizer is None or ours not in self.loads:
            return None
        module_path, _, leaf = name.rpartition(".")
        owner = self.root.get_submodule(module_path)
        # from _parameters: a quantized expert stack reads back dequantized (quantize_experts)
        load, held = self.loads[ours], owner._parameters.get(leaf)  # None: a buffer
        if held is None or type(held) is nn.Parameter:
            return None
        rows = getattr(load, "rows", None) or (lambda start, stop: load()[start:stop])
        return owner, module_path, leaf, rows, held.shape

    def _quantized_whole(
        self, owner: nn.Module, path: str, leaf: str, rows, shape: torch.Size
    ) -> list[torch.Tensor]:
        """The inner tensors of `_quantized`'s slices, each whole."""
        wholes: list = []
        for start, parts in self._quantized(owner, path, leaf, rows, shape):
            wholes = _into_wholes(wholes, start, parts, shape[0])
        return wholes

    def _quantized(
        self, owner: nn.Module, path: str, leaf: str, rows, shape: torch.Size
    ) -> Iterator[tuple[int, list[torch.Tensor]]]:
        """(start, the inner tensors (in `__tensor_flatten__`'s order)) of each
        slice of the weight `owner.<leaf>` of `shape` (`owner` named `path`),
        whose first-axis slices (rows; experts of a stack) `rows(start, stop)`
        reads, quantized as the meta model's was. Groups run along a row, so
        slices are read and quantized one at a time: a whole LLM embedding, or a
        layer's experts, would be read, then widened to float32, at once. A
        format whose scale takes the whole weight's largest magnitude reads the
        slices twice."""
        step = max(1, QUANTIZE_VALUES // shape[1:].numel())
        starts = range(0, shape[0], step)
        amax = None
        if self.quantizer.needs_amax(path):
            amax = max(rows(start, start + step).abs().max().float() for start in starts)
        for start in starts:
            weight = self._quantized_like(owner, path, leaf, rows(start, start + step), amax)
            names, _ = type(weight).__tensor_flatten__(weight)
            yield start, [getattr(weight, n) for n in names]

    def _quantized_like(self, owner: nn.Module, path: str, leaf: str, weight: torch.Tensor, amax):
        """`weight` quantized as `owner.<leaf>` (`owner` named `path`) was: in a
        module of `owner`'s kind (what the quantizer recognises), the quantized
        parameter."""
        if isinstance(owner, nn.Linear):
            module = nn.Linear(weight.shape[1], weight.shape[0], bias=False, device="meta")
        elif isinstance(owner, nn.Embedding):
            module = nn.Embedding(weight.shape[0], weight.shape[1], device="meta")
        elif weight.dim() == 3:  # a stack of experts: quantize_experts knows it by its name
            module = nn.Module()
        else:
            raise ValueError(f"a quantized weight in a {type(owner).__name__}")
        module.register_parameter(leaf, nn.Parameter(weight, requires_grad=False))
        self.quantizer(module, path, amax)
        return module._parameters[leaf]


def _weight_of(target: str) -> tuple[str, Optional[int]]:
    """(the weight's name, the place of the inner tensor `target` names in a
    quantized weight's `__tensor_flatten__`, None for a plain tensor)."""
    inner = _INNER.fullmatch(target)
    return (f"{inner[1]}.{inner[2]}", int(inner[3])) if inner else (target, None)


def _into_wholes(
    wholes: list, start: int, parts: list[torch.Tensor], length: int, skip: int = -1
) -> list:
    """The inner tensors of a weight of `length` first-axis rows, whole, with
    one slice's `parts` (from row `start`) written in; the inner tensor `skip`
    is left out (None). A per-tensor scale (0-d) is the whole weight's."""
    if not wholes:  # each inner tensor has the weight's first axis, or is one scale
        wholes = [p.new_empty((length, *p.shape[1:])) if p.dim() else p for p in parts]
        if 0 <= skip < len(wholes):
            wholes[skip] = None
    for i, (whole, part) in enumerate(zip(wholes, parts)):
        if i != skip and part.dim():
            whole[start : start + part.shape[0]] = part
    return wholes


def _check_made(target: str, dtype: torch.dtype, shape: tuple, like: torch.Tensor) -> None:
    if dtype != like.dtype or shape != tuple(like.shape):
        raise ValueError(
            f"{target}: the checkpoint gives {dtype}{shape}, "
            f"the program holds {like.dtype}{tuple(like.shape)}"
        )


def _exported(generator: Generator, max_seq_len: int) -> torch.export.ExportedProgram:
    """The generator exported with a dynamic token count (1 .. max_seq_len - 1),
    on the device its weights are on (meta: a streamed export)."""
    from torch.export import Dim

    tokens = Dim("tokens", min=1, max=max_seq_len - 1)
    device = next(generator.parameters()).device
    with torch.no_grad():
        return torch.export.export(
            generator,
            example_inputs(device=device),
            dynamic_shapes=({1: tokens}, None, None, None, None),
        )


def _metadata(c: DecoderConfig, max_seq_len: int, tp: int) -> dict:
    """The constant methods the generators read (`get_tp_size`: the ranks the
    program runs on, one process each)."""
    return {
        "get_tp_size": tp,
        "get_max_seq_len": max_seq_len,
        "get_vocab_size": c.vocab_size,
        "get_bos_id": -1 if c.bos_token_id is None else c.bos_token_id,
        "get_eos_ids": list(c.eos_token_ids) or [-1],
        "get_family": c.family,
    }


def _delegation(edge) -> tuple[int, list[str]]:
    """(number of delegate calls, names of the ops left outside) of `forward`."""
    import operator

    delegates, outside = 0, []
    for node in edge.exported_program().graph_module.graph.nodes:
        if node.op != "call_function" or node.target is operator.getitem:
            continue
        if "executorch_call_delegate" in str(node.target):
            delegates += 1
        else:
            outside.append(str(node.target))
    return delegates, outside
