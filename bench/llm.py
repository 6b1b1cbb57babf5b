"""LLM generation speed: prefill and decode tokens/s of a ~100M-parameter
llama-like model, ours against peers measured in the same run.

On the CPU (this machine), for fp32, bf16 and any `llm export --quantize` format:
    .venv/bin/python bench/llm.py [--size 100m|tiny] [--dtypes fp32,bf16,int8,int4,...]
- ours: `python -m mlx_delegate.llm export` flow, run through executorch.runtime
  on the best CPU plugin (quantized: fp32 activations, `mlx_delegate.llm.quantize`),
  with its size and the largest difference of its logits from eager's (the
  same module lowered whole, the prompt's last logits);
- xnnpack: the same module exported with XnnpackPartitioner (greedy argmax in
  the program: ExecuTorch's Python runtime has no portable sort kernel for the
  sampler); int8/int4 rows with the quantization ExecuTorch's own llama export
  uses for XNNPACK (torchao Int8DynamicActivationIntxWeightConfig: 8da8w, 8da4w);
- eager: the same module in PyTorch eager (quantized rows: torchao's eager).

On the GPU machine (no ExecuTorch Python there): first, here,
    .venv/bin/python bench/llm.py --prepare-gpu DIR
writes the weights (tiled so that they compress to fit a device call), the
.pte files and a torch bundle into DIR; there,
    python bench/llm.py --gpu DIR --generate build/mlxd-generate
times ours through mlxd-generate on gpu:0, our module in torch eager CUDA
(fp32, bf16) and the plain MLX loop of bench/llm_mlx.py, all on those weights.

Each row is one greedy generation of --new-tokens after a --prompt-len prompt,
after an untimed warm-up generation. Also reported: what a decode step writes to
the KV cache against the cache's size, and the plugin's peak memory growth in a
decode step (a step that copied the cache would grow by at least its size).

The models people run (Llama-3.2-1B, Qwen3-4B, Qwen3-30B-A3B shapes) against
mlx-lm on the GPU machine: bench/llm_size.py, its tables in the README.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

import torch

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(1, str(Path(__file__).resolve().parent))

from cpu_context import our_cpu_plugin  # noqa: E402
from mlx_delegate.llm.config import DecoderConfig  # noqa: E402  (torch only)
from mlx_delegate.llm.model import DecoderLM  # noqa: E402
from mlx_delegate.llm.quantize import FORMATS  # noqa: E402

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}


@dataclasses.dataclass
class Row:
    system: str
    dtype: str
    prefill: float  # tokens/s
    decode: float  # tokens/s
    note: str = ""
    logit_difference: Optional[float] = None  # ours: the largest, from eager, on the prompt


# ---- the model -------------------------------------------------------------------


def write_checkpoint(work: Path, size: str, tiled: bool) -> Path:
    from mlx_delegate.llm import tiny

    directory = work / f"checkpoint-{size}{'-tiled' if tiled else ''}"
    if not (directory / "tokenizer.json").is_file():  # written last
        model = tiny.write_checkpoint(directory, "llama", size=size, seed=0)
        if tiled:
            _tile_weights(model)
            model.save_pretrained(str(directory))
        tiny.write_tokenizer(directory, model.config.vocab_size)
    return directory


def _tile_weights(model) -> None:
    """Every tensor a different cyclic shift of one random 4096-value block: as
    costly to read as random weights, but gzip shrinks them ~1000x, so that the
    GPU machine's 64 MiB transfers can carry a 100M-parameter model."""
    block = torch.randn(4096, generator=torch.Generator().manual_seed(0)) * 0.02
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            index = (torch.arange(p.numel()) + 97 * i) % block.numel()
            p.copy_(block[index].view_as(p) + (1.0 if p.dim() == 1 else 0.0))


def load_module(checkpoint_dir: Path, max_seq_len: int, dtype: str, quantize=None, group=32):
    from mlx_delegate.llm import checkpoint

    model = checkpoint.load(checkpoint_dir, max_seq_len, DTYPES[dtype]).requires_grad_(False)
    if quantize:
        from mlx_delegate.llm.quantize import quantize_weights

        quantize_weights(model, quantize, group)
    return model


def prompt_ids(length: int, vocab: int) -> list[int]:
    return [(7 * i + 3) % vocab for i in range(length)]


def timed_generation(step, prompt: list[int], new_tokens: int) -> tuple[list[int], float, float]:
    """step(tokens, pos) -> next token; (ids, prefill seconds, decode seconds)."""
    start = time.perf_counter()
    token = step(prompt, 0)
    first = time.perf_counter() - start
    ids, pos = [token], len(prompt)
    start = time.perf_counter()
    for _ in range(new_tokens - 1):
        token = step([token], pos)
        ids.append(token)
        pos += 1
    return ids, first, time.perf_counter() - start


def measure(system: str, dtype: str, step, prompt, new_tokens, note="") -> Row:
    """The median of ARGS.repeat timed generations, after a warm-up one."""
    timed_generation(step, prompt, 4)
    runs = [timed_generation(step, prompt, new_tokens)[1:] for _ in range(ARGS.repeat)]
    first = statistics.median(r[0] for r in runs)
    decode = statistics.median(r[1] for r in runs)
    row = Row(system, dtype, len(prompt) / first, (new_tokens - 1) / decode, note)
    print(f"  {system:8s} {dtype:5s} prefill {row.prefill:9.1f} tok/s  decode {row.decode:8.2f} tok/s  {note}", flush=True)  # fmt: skip
    return row


# ---- the systems on the CPU ---------------------------------------------------------


def ours_step(pte: Path, device: str = "cpu"):
    from mlx_delegate.llm.generate import Program

    program = Program(pte, device=device)
    return lambda tokens, pos: program.step(tokens, pos, 0.0, 1.0, 0.5)


class Greedy(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, tokens, input_pos):
        return self.model(tokens, input_pos).argmax(dim=-1)


def xnnpack_step(model, quantize, group, max_seq_len: int, path: Path):
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime
    from torch.export import Dim

    if quantize:
        from torchao.quantization import Int8DynamicActivationIntxWeightConfig, quantize_
        from torchao.quantization.granularity import PerAxis, PerGroup

        # XNNPACK takes 4-bit weights in groups, 8-bit ones per output channel only
        # (ExecuTorch's llama export: 8da4w with a group size, 8da8w with none).
        bits = torch.int4 if quantize == "int4" else torch.int8
        granularity = PerGroup(group) if quantize == "int4" else PerAxis(0)
        config = Int8DynamicActivationIntxWeightConfig(
            weight_dtype=bits, weight_granularity=granularity
        )
        quantize_(model, config, filter_fn=lambda m, _: isinstance(m, torch.nn.Linear))
    example = (torch.ones(1, 2, dtype=torch.long), torch.tensor([0]))
    with torch.no_grad():
        exported = torch.export.export(
            Greedy(model), example, dynamic_shapes=({1: Dim("t", max=max_seq_len - 1)}, None)
        )
    edge = to_edge_transform_and_lower(exported, partitioner=[XnnpackPartitioner()])
    path.write_bytes(edge.to_executorch().buffer)
    program = Runtime.get().load_program(path)
    method = program.load_method("forward")

    def step(tokens, pos):
        out = method.execute([torch.tensor([tokens]), torch.tensor([pos])])
        return int(out[0][0])

    step.program = program  # the method needs its program alive
    return step


def logit_difference(model, prompt: list[int]) -> float:
    """The largest difference between the prompt's last logits from `model`
    (torchao-quantized as ours, run eagerly) and from the same module lowered
    to our delegate whole (the logits, no sampler) and run on the CPU plugin."""
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    from mlx_delegate.compiler.partitioner import MLXPartitioner
    from mlx_delegate.llm.export import edge_config

    inputs = (torch.tensor([prompt]), torch.tensor([0]))
    with torch.no_grad():
        model.reset_cache()
        expected = model(*inputs)
        model.reset_cache()  # the program starts from the cache the module holds
        exported = torch.export.export(model, inputs)
    edge = to_edge_transform_and_lower(
        exported,
        partitioner=[MLXPartitioner(device="cpu")],
        compile_config=edge_config(),
    )
    program = Runtime.get().load_program(edge.to_executorch().buffer)
    (got,) = program.load_method("forward").execute(list(inputs))
    return float((got - expected).abs().max())


def eager_step(model, device="cpu"):
    model = model.to(device)

    @torch.no_grad()
    def step(tokens, pos):
        tokens = torch.tensor([tokens], device=device)
        return int(model(tokens, torch.tensor([pos], device=device)).argmax(dim=-1)[0])

    return step


def cache_traffic(config: DecoderConfig, max_seq_len: int, dtype: str) -> tuple[int, int]:
    """(bytes a decode step writes to the KV cache, bytes of the whole cache)."""
    element = torch.tensor([], dtype=DTYPES.get(dtype, torch.float32)).element_size()
    row = 2 * config.num_layers * config.num_kv_heads * config.head_dim * element
    return row, row * max_seq_len


def decode_peak_growth(step, prompt) -> int:
    """The CPU plugin's peak memory above its active memory in one decode step."""
    from mlx_delegate.host import backends

    step(prompt, 0)
    active = backends.memory("get_active_memory", "cpu")
    backends.memory("reset_peak_memory", "cpu")
    step([5], len(prompt))
    return backends.memory("get_peak_memory", "cpu") - active


def run_cpu(args) -> list[Row]:
    """Each system and dtype in a child process of its own: a system's threads
    (torch's OpenMP pool, XNNPACK's, NumPy's OpenBLAS) spin on after its last call,
    and in one process they took cores from the rows measured after them (our
    int8 decode: 71 tokens/s after the fp32 and bf16 rows, 93 alone)."""
    write_checkpoint(args.work, args.size, tiled=False)
    rows, traffic = [], []
    for dtype in args.dtypes:
        for system in args.systems:
            if system == "xnnpack" and dtype not in ("fp32", "bf16", "int4", "int8"):
                continue
            result = _cpu_child(args, system, dtype)
            rows.append(Row(**result["row"]))
            if "traffic" in result:
                traffic.append(tuple(result["traffic"]))
    print_table(rows, "xnnpack", f"CPU ({os.cpu_count()} cores, {our_cpu_plugin()}), {args.size} llama-like")  # fmt: skip
    print_traffic(traffic)
    return rows


def _cpu_child(args, system: str, dtype: str) -> dict:
    command = [sys.executable, __file__, "--child", system, "--dtypes", dtype, "--size", args.size,
               "--prompt-len", str(args.prompt_len), "--new-tokens", str(args.new_tokens),
               "--max-seq-len", str(args.max_seq_len), "--group-size", str(args.group_size),
               "--repeat", str(args.repeat), "--work", str(args.work)]  # fmt: skip
    proc = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"bench/llm.py: the {system} {dtype} row failed (exit {proc.returncode})")
    *progress, result = proc.stdout.rstrip().splitlines()
    print(*progress, sep="\n", flush=True)
    return json.loads(result)


def child_cpu(args) -> None:
    """One row (`--child SYSTEM`, one dtype) measured here; its JSON last on stdout."""
    from mlx_delegate.llm.export import export_program

    system, (dtype,) = args.child, args.dtypes
    checkpoint_dir = write_checkpoint(args.work, args.size, tiled=False)
    quantize = dtype if dtype in FORMATS else None
    base = "fp32" if quantize else dtype
    model = load_module(checkpoint_dir, args.max_seq_len, base)
    prompt = prompt_ids(args.prompt_len, model.c.vocab_size)
    print(f"{dtype}: {sum(p.numel() for p in model.parameters()):,} parameters", file=sys.stderr)
    result = {}
    if system == "ours":
        pte = args.work / f"ours-{args.size}-{dtype}.pte"
        exported = export_program(
            checkpoint_dir, pte, dtype=base, quantize=quantize,
            group_size=args.group_size, max_seq_len=args.max_seq_len,
        )  # fmt: skip
        step = ours_step(pte)
        size = f"{(exported.size + exported.data_size) / 2**20:.1f} MiB .pte+.ptd"
        row = measure("ours", dtype, step, prompt, args.new_tokens, size)
        eager = load_module(checkpoint_dir, args.max_seq_len, base, quantize, args.group_size)
        row.logit_difference = logit_difference(eager, prompt)
        written, whole = cache_traffic(model.c, args.max_seq_len, base)
        result["traffic"] = (dtype, written, whole, decode_peak_growth(step, prompt))
    elif system == "xnnpack":
        pte = args.work / f"xnnpack-{args.size}-{dtype}.pte"
        step = xnnpack_step(model, quantize, args.group_size, args.max_seq_len, pte)
        row = measure("xnnpack", dtype, step, prompt, args.new_tokens, f"{pte.stat().st_size / 2**20:.1f} MiB .pte")  # fmt: skip
    else:
        quantized = load_module(checkpoint_dir, args.max_seq_len, base, quantize, args.group_size)
        row = measure("eager", dtype, eager_step(quantized), prompt, args.new_tokens)
    result["row"] = dataclasses.asdict(row)
    print(json.dumps(result))


# ---- the GPU machine ------------------------------------------------------------------


def prepare_gpu(args) -> None:
    """Here: the tiled checkpoint, our .pte files and a torch/MLX bundle, gzipped."""
    from mlx_delegate.llm.export import export_program

    out = args.prepare_gpu
    out.mkdir(parents=True, exist_ok=True)
    checkpoint_dir = write_checkpoint(args.work, args.size, tiled=True)
    model = load_module(checkpoint_dir, args.max_seq_len, "fp32")
    bundle = {k: v.contiguous() for k, v in model.state_dict().items() if "cache" not in k}
    bundle["inv_freq"] = model.inv_freq  # a buffer the state dict leaves out
    from safetensors.torch import save_file

    save_file(bundle, str(args.work / "weights.safetensors"))
    config = dict(dataclasses.asdict(model.c), rope_scaling=model.rope_scaling)
    (out / "config.json").write_text(json.dumps(config))
    _gzip(args.work / "weights.safetensors", out / "weights.safetensors.gz")
    for dtype in args.dtypes:
        pte = args.work / f"gpu-{dtype}.pte"
        quantize = dtype if dtype in FORMATS else None
        export_program(
            checkpoint_dir, pte, dtype="fp32" if quantize else dtype, quantize=quantize,
            group_size=args.group_size, max_seq_len=args.max_seq_len,
        )  # fmt: skip
        _gzip(pte, out / f"{dtype}.pte.gz")
        _gzip(pte.with_suffix(".ptd"), out / f"{dtype}.ptd.gz")
    _prepare_token_check(args, out)
    for f in sorted(out.iterdir()):
        print(f"{f}: {f.stat().st_size / 2**20:.2f} MiB")


def _prepare_token_check(args, out: Path) -> None:
    """A small random llama (fp32) and transformers' greedy tokens for it: the
    GPU run checks mlxd-generate on gpu:0 gives the same 64 tokens."""
    from mlx_delegate.llm import tiny
    from mlx_delegate.llm.export import export_program

    directory = args.work / "token-check"
    model = tiny.write_checkpoint(directory, "llama", seed=3)
    prompt = [327, 389, 386, 363, 12, 40, 7, 99]
    export_program(directory, out / "token-check.pte", max_seq_len=128)
    with torch.no_grad():
        ids = model.generate(torch.tensor([prompt]), do_sample=False, max_new_tokens=64)
    expected = {"prompt": prompt, "ids": ids[0, len(prompt) :].tolist()}
    (out / "token-check.json").write_text(json.dumps(expected))


def _gzip(source: Path, target: Path) -> None:
    with open(source, "rb") as src, gzip.open(target, "wb", compresslevel=6) as dst:
        shutil.copyfileobj(src, dst, 1 << 24)


def _gunzip(source: Path, target: Path) -> Path:
    if not target.is_file():
        with gzip.open(source, "rb") as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst, 1 << 24)
    return target


def run_gpu(args) -> list[Row]:
    directory, scratch = args.gpu, args.work
    scratch.mkdir(parents=True, exist_ok=True)
    config = json.loads((directory / "config.json").read_text())
    weights = _gunzip(directory / "weights.safetensors.gz", scratch / "weights.safetensors")
    bundle = scratch / "bundle"
    bundle.mkdir(exist_ok=True)
    shutil.copy(directory / "config.json", bundle / "config.json")
    if not (bundle / "weights.safetensors").exists():
        os.symlink(weights, bundle / "weights.safetensors")
    _token_check(args, directory)
    prompt = prompt_ids(args.prompt_len, config["vocab_size"])
    rows = []
    for dtype in args.dtypes:
        pte_gz = directory / f"{dtype}.pte.gz"
        if pte_gz.is_file():
            _gunzip(directory / f"{dtype}.ptd.gz", scratch / f"{dtype}.ptd")
            rows.append(
                _mlxd_generate(args, _gunzip(pte_gz, scratch / f"{dtype}.pte"), dtype, prompt)
            )
        if dtype in ("fp32", "bf16"):
            rows.append(measure("eager", dtype, eager_step(_bundle_module(config, weights, args, dtype), "cuda"), prompt, args.new_tokens))  # fmt: skip
            rows.append(_mlx_loop(args, bundle, dtype))
    print_table(rows, "eager", "GPU, llama-like, tiled weights")
    return rows


def _token_check(args, directory: Path) -> None:
    expected = json.loads((directory / "token-check.json").read_text())
    for device in ("gpu:0", "cpu"):
        command = [str(args.generate), str(directory / "token-check.pte"), "--device", device,
                   "--prompt-ids", " ".join(map(str, expected["prompt"])), "--max-new-tokens",
                   str(len(expected["ids"])), "--ignore-eos"]  # fmt: skip
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        ids = [int(t) for t in re.search(r"^ids: (.*)$", out, re.M).group(1).split()]
        same = next((i for i, (a, b) in enumerate(zip(ids, expected["ids"])) if a != b), None)
        verdict = "all equal" if same is None else f"first difference at token {same}"
        print(f"token check, mlxd-generate --device {device} vs transformers generate (fp32, "
              f"{len(expected['ids'])} greedy tokens): {verdict}")  # fmt: skip


def _bundle_module(config: dict, weights: Path, args, dtype: str) -> DecoderLM:
    import mlx.core as mx  # the GPU machine has MLX, not necessarily safetensors
    import numpy as np

    state = {k: torch.from_numpy(np.array(v)) for k, v in mx.load(str(weights)).items()}
    scaling = config.pop("rope_scaling", 1.0)
    c = DecoderConfig(**{k: tuple(v) if isinstance(v, list) else v for k, v in config.items()})
    config["rope_scaling"] = scaling
    model = DecoderLM(c, args.max_seq_len, state.pop("inv_freq"), scaling)
    model.load_state_dict(state, strict=False)
    return model.to(DTYPES[dtype]).eval()


def _mlxd_generate(args, pte: Path, dtype: str, prompt) -> Row:
    command = [str(args.generate), str(pte), "--prompt-ids", " ".join(map(str, prompt)),
               "--max-new-tokens", str(args.new_tokens), "--device", "gpu:0", "--ignore-eos",
               "--warmup", "1"]  # fmt: skip
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    prefill = float(re.search(r"prefill: \d+ tokens, ([\d.]+) tokens/s", out).group(1))
    decode = float(re.search(r"decode: \d+ tokens, ([\d.]+) tokens/s", out).group(1))
    print(f"  ours     {dtype:5s} prefill {prefill:9.1f} tok/s  decode {decode:8.2f} tok/s", flush=True)  # fmt: skip
    return Row("ours", dtype, prefill, decode, "mlxd-generate, gpu:0")


def _mlx_loop(args, bundle: Path, dtype: str) -> Row:
    command = [sys.executable, str(REPO / "bench" / "llm_mlx.py"), str(bundle), "--dtype", dtype,
               "--prompt-len", str(args.prompt_len), "--new-tokens", str(args.new_tokens),
               "--max-seq-len", str(args.max_seq_len)]  # fmt: skip
    result = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    row = Row("mlx", dtype, result["prefill_tok_s"], result["decode_tok_s"], result["device"])
    print(f"  mlx      {dtype:5s} prefill {row.prefill:9.1f} tok/s  decode {row.decode:8.2f} tok/s", flush=True)  # fmt: skip
    return row


# ---- tables ---------------------------------------------------------------------------


def print_table(rows: list[Row], peer: str, title: str) -> None:
    print(f"\n{title}: prompt {ARGS.prompt_len} tokens, {ARGS.new_tokens} new tokens (greedy)\n")
    print(f"| system | dtype | prefill tok/s | decode tok/s | decode vs {peer} | max logit diff "
          "from eager | note |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    reference = {r.dtype: r.decode for r in rows if r.system == peer}
    for r in rows:
        ratio = f"{r.decode / reference[r.dtype]:.2f}x" if r.dtype in reference else "-"
        diff = "-" if r.logit_difference is None else f"{r.logit_difference:.1e}"
        print(f"| {r.system} | {r.dtype} | {r.prefill:.1f} | {r.decode:.2f} | {ratio} | {diff} "
              f"| {r.note} |")  # fmt: skip


def print_traffic(traffic) -> None:
    if not traffic:
        return
    print("\n| dtype | KV cache written per decode step | whole KV cache | plugin peak growth in a decode step |")  # fmt: skip
    print("|---|---|---|---|")
    for dtype, written, whole, growth in traffic:
        print(f"| {dtype} | {written / 1024:.1f} KiB | {whole / 2**20:.1f} MiB | {growth / 2**20:.2f} MiB |")  # fmt: skip


def main(argv=None) -> int:
    global ARGS
    parser = argparse.ArgumentParser(prog="bench/llm.py")
    parser.add_argument("--size", choices=("100m", "tiny"), default="100m")
    parser.add_argument("--dtypes", default="fp32,bf16,int8,int4")
    parser.add_argument("--systems", default="ours,xnnpack,eager")
    parser.add_argument("--prompt-len", type=int, default=64)
    parser.add_argument("--new-tokens", type=int, default=64)
    parser.add_argument("--max-seq-len", type=int, default=256)
    parser.add_argument("--group-size", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3, help="timed generations per row")
    parser.add_argument("--work", type=Path, default=REPO / "build" / "bench" / "llm")
    parser.add_argument("--prepare-gpu", type=Path, default=None, metavar="DIR")
    parser.add_argument("--gpu", type=Path, default=None, metavar="DIR")
    parser.add_argument(
        "--generate", type=Path, default=REPO / "build" / "runtime" / "mlxd-generate"
    )
    parser.add_argument("--child", choices=("ours", "xnnpack", "eager"), help=argparse.SUPPRESS)
    ARGS = args = parser.parse_args(argv)
    args.dtypes = args.dtypes.split(",")
    args.systems = args.systems.split(",")
    args.work.mkdir(parents=True, exist_ok=True)
    if args.prepare_gpu:
        prepare_gpu(args)
    elif args.gpu:
        run_gpu(args)
    elif args.child:
        child_cpu(args)
    else:
        run_cpu(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
