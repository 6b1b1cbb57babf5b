"""Tensor-parallel decode on a machine with two GPUs: tokens/s at TP=1 (one GPU)
against TP=2 (two processes, one GPU each, NCCL), and memory per GPU.

Here (the export needs ExecuTorch's Python, which the GPU machine lacks):
    .venv/bin/python bench/tp.py --prepare .gpu/tp --shape llama-8b [--tp 1,2] [--layers N] \
        [--vocab split,replicated] [--experts hidden,spread] [--without-joining]
writes a checkpoint of the public configuration whose tensors are all one
random block tiled (as costly to read as random weights), exports it as bf16
for each TP degree (above one, with the embedding and LM head held each way
of --vocab, `llm export --tp-vocab`, and a mixture of experts split each way
of --experts, `--tp-experts`), and packs the programs and their data into DIR/SHAPE
(bench/llm_size.py's packing). Tensors of one size have equal contents, which
the .ptd stores once, so the data of an 8B model shrinks to its distinct
tensors (about 1.2 GB, packed to a few MiB); the plugin makes each named
constant an array of its own, so the GPU holds and reads every layer's weights.
The checkpoint (2 bytes a parameter: 16 GB for the 8B) is deleted once exported.
There (after ../shared/GPU.md's install calls, the CUDA plugin and mlxd-generate built):
    python3 bench/tp.py --run .gpu/tp --generate BUILD/mlxd-generate
prints a row per shape, TP degree and vocabulary: time to first token, prefill and decode
tokens/s (mlxd-generate, greedy, no stop at EOS, after a warm-up), and each
GPU's peak memory (NVML, sampled from outside the measured processes). Where
mlx-lm is installed, rows for mlx-lm at the same TP degrees follow: its model
of the shape's config.json with every tensor the same tiled block (no
checkpoint travels), sharded by its own `model.shard(group)` over NCCL, a
process a GPU (mlx_delegate.llm.launch's start_ranks), timed as
bench/llm_size.py times it (generate_step, after a warm-up generation)."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from llm_size import (  # noqa: E402  (one packing and one mlx-lm timing for both benchmarks)
    _child_numbers,
    _mlx_lm_config,
    _pack,
    _unpack,
    mlx_lm_generation_times,
    print_generation_times,
)

TILE = 4096  # elements of the random block every tensor tiles


# ---- here -----------------------------------------------------------------------------


def prepare(args) -> None:
    import torch

    from mlx_delegate.llm import tensor_parallel, tiny
    from mlx_delegate.llm.export import export_program

    out = args.prepare / args.shape
    out.mkdir(parents=True, exist_ok=True)
    checkpoint = args.work / f"{args.shape}-{args.layers or 'all'}"
    block = torch.randn(TILE, generator=torch.Generator().manual_seed(0)) * 0.02

    def tiled(i: int, shape: torch.Size) -> torch.Tensor:  # the same for every tensor i
        return block.repeat(shape.numel() // TILE + 1)[: shape.numel()].view(shape)

    layers = {} if args.layers is None else {"num_hidden_layers": args.layers}
    tiny.write_shaped_checkpoint(checkpoint, args.shape, fill=tiled, **layers)
    tiny.write_tokenizer(checkpoint, 512)
    # what mlx-lm's rows need there to build the same model: no checkpoint travels
    shutil.copy(checkpoint / "config.json", out / "config.json")
    (out / "tile.f32").write_bytes(block.numpy().astype("<f4").tobytes())
    try:
        for ways in args.tp:
            splits = [(v, e) for v in args.vocab for e in args.experts] if ways > 1 else [()]
            joins = (True, False) if args.without_joining else (True,)
            for split, join in ((split, join) for split in splits for join in joins):
                name = [f"tp{ways}", *split, *([] if join else ["unjoined"])]
                pte = args.work / ("-".join(name) + ".pte")
                options = dict(zip(("tp_vocab", "tp_experts"), split))
                result = export_program(
                    checkpoint, pte, dtype="bf16", max_seq_len=args.max_seq_len, tp=ways,
                    join_products=join, **options,
                )  # fmt: skip
                print(result.report(), flush=True)
                _pack(pte, out / (pte.name + ".gz"))
                for rank in range(ways):
                    data = tensor_parallel.data_path(pte, rank, ways)
                    _pack(data, out / (data.name + ".gz"))
                    data.unlink()
    finally:
        shutil.rmtree(checkpoint)
    for f in sorted(out.glob("*.gz")):
        print(f"{f}: {f.stat().st_size / 2**20:.2f} MiB")


# ---- there ----------------------------------------------------------------------------


class GpuMemoryPeaks:
    """Each GPU's used memory above what it used before, peak, sampled every
    20 ms while the block runs."""

    def __enter__(self):
        self.peaks = []
        try:
            import pynvml

            pynvml.nvmlInit()
        except Exception:  # no NVML (a CPU try of this script): no figures
            self._thread = None
            return self
        handles = [pynvml.nvmlDeviceGetHandleByIndex(i) for i in range(pynvml.nvmlDeviceGetCount())]
        used = lambda: [pynvml.nvmlDeviceGetMemoryInfo(h).used for h in handles]  # noqa: E731
        self.base, self.peaks, self._stop = used(), [0] * len(handles), threading.Event()

        def sample():
            while not self._stop.is_set():
                now = used()
                self.peaks = [max(p, u - b) for p, u, b in zip(self.peaks, now, self.base)]
                time.sleep(0.02)

        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        if self._thread is not None:
            self._stop.set()
            self._thread.join()


NUMBERS = {
    "ttft_ms": r"time to first token: ([\d.]+) ms",
    "prefill": r"prefill: \d+ tokens, ([\d.]+) tokens/s",
    "decode": r"decode: \d+ tokens, ([\d.]+) tokens/s",
}


def run(args) -> None:
    print("| shape | TP | system: vocabulary, experts | time to first token ms | prefill tok/s | decode tok/s | "
          "decode vs TP=1 | peak memory per GPU, GB |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    for directory in sorted(p for p in args.run.iterdir() if p.is_dir()):
        work = args.work / directory.name
        work.mkdir(parents=True, exist_ok=True)
        for f in directory.glob("*.gz"):
            _unpack(f, work / f.name.removesuffix(".gz"))
        single = None
        for pte in sorted(work.glob("tp*.pte")):
            ways, _, split = pte.stem.removeprefix("tp").partition("-")
            ways = int(ways)
            row = _measure(args, pte, ways)
            single = row["decode"] if ways == 1 else single
            _row(
                directory.name, ways, "ours: " + (split.replace("-", ", ") or "whole"), row, single
            )
        if (directory / "config.json").is_file() and _has_mlx_lm():
            single = None
            for ways in args.tp:
                row = _measure_mlx_lm(args, directory, ways)
                single = row["decode"] if ways == 1 else single
                _row(directory.name, ways, "mlx-lm", row, single)


def _row(shape: str, ways: int, label: str, row: dict, single) -> None:
    speedup = f"{row['decode'] / single:.2f}x" if single else "-"
    memory = ", ".join(f"{p / 1e9:.1f}" for p in row["peaks"])
    print(f"| {shape} | {ways} | {label} | {row['ttft_ms']:.1f} | {row['prefill']:.1f} | "
          f"{row['decode']:.1f} | {speedup} | {memory} |", flush=True)  # fmt: skip


def _measure(args, pte: Path, ways: int) -> dict:
    prompt = " ".join(str((7 * i + 3) % 512) for i in range(args.prompt_len))
    command = [
        str(args.generate), str(pte), "--prompt-ids", prompt, "--device", args.device,
        "--max-new-tokens", str(args.new_tokens), "--ignore-eos", "--warmup", "1",
        "--tp", str(ways),
    ]  # fmt: skip
    env = None
    if ways == 1:  # one GPU: the first
        env = {**os.environ, "CUDA_VISIBLE_DEVICES": "0"}
    stdout, peaks = _measured(command, env, f"{pte} at TP={ways}")
    numbers = {k: float(re.search(p, stdout).group(1)) for k, p in NUMBERS.items()}
    return {**numbers, "peaks": peaks}


def _measured(command: list[str], env, what: str) -> tuple[str, list[int]]:
    """`command`'s standard output and each GPU's peak memory while it ran;
    SystemExit naming `what` when it failed."""
    with GpuMemoryPeaks() as memory:
        done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{what} failed:\n{done.stderr[-3000:]}")
    return done.stdout, memory.peaks


def _has_mlx_lm() -> bool:
    try:
        import mlx_lm  # noqa: F401
    except ImportError:
        return False
    return True


def _measure_mlx_lm(args, directory: Path, ways: int) -> dict:
    """mlx-lm at TP=`ways`: TP=1 on the first GPU; above, a process a GPU,
    rank 0's figures."""
    from mlx_delegate.llm.launch import default_backend

    child = [sys.executable, __file__, "--child-mlx-lm", str(directory),
             "--prompt-len", str(args.prompt_len), "--new-tokens", str(args.new_tokens)]  # fmt: skip
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "0"}
    if ways > 1:  # the launcher our generate --tp uses: rank 0's output is its output
        launch = "from mlx_delegate.llm.launch import start_ranks; import sys; "
        launch += f"sys.exit(start_ranks({child!r}, {ways}, {default_backend(args.device)!r}))"
        path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
        command, env = [sys.executable, "-c", launch], {**os.environ, "PYTHONPATH": path}
    else:
        command = child
    stdout, peaks = _measured(command, env, f"mlx-lm at TP={ways}")
    numbers = _child_numbers(stdout)
    return {"ttft_ms": numbers["ttft"] * 1e3, "prefill": numbers["prefill"],
            "decode": numbers["decode"], "peaks": peaks}  # fmt: skip


def child_mlx_lm(args) -> None:
    """mlx-lm's model of DIR/config.json, its tensors tiled from DIR/tile.f32
    as ours are (norms get 1 added), bf16; sharded over the group of the
    standard MLX variables where they are set; rank 0 prints the figures."""
    import json

    import mlx.core as mx
    import numpy as np
    from mlx.utils import tree_flatten, tree_unflatten
    from mlx_lm.utils import _get_classes

    from mlx_delegate.llm.launch import rank_of_environment

    directory = args.child_mlx_lm
    config = {**json.loads((directory / "config.json").read_text()), **_mlx_lm_config(directory)}
    model_class, args_class = _get_classes(config)
    model = model_class(args_class.from_dict(config))
    block = mx.array(np.fromfile(directory / "tile.f32", dtype="<f4"))

    def tiled(p: mx.array) -> mx.array:
        t = mx.tile(block, p.size // block.size + 1)[: p.size].reshape(p.shape)
        t = (t + 1 if p.ndim == 1 else t).astype(mx.bfloat16)
        mx.eval(t)  # one tensor at a time: the transients stay one tensor's
        return t

    model.update(tree_unflatten([(k, tiled(v)) for k, v in tree_flatten(model.parameters())]))
    rank = 0
    if rank_of_environment() is not None:
        backend = os.environ.get("MLX_DELEGATE_DISTRIBUTED_BACKEND", "nccl")  # start_ranks's
        group = mx.distributed.init(strict=True, backend=backend)
        rank = group.rank()
        model.shard(group)
        mx.eval(model.parameters())
    prompt = mx.array([(7 * i + 3) % 512 for i in range(args.prompt_len)])
    times = mlx_lm_generation_times(model, prompt, args.new_tokens)
    if rank == 0:
        print_generation_times(times, args.prompt_len)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="bench/tp.py")
    parser.add_argument("--prepare", type=Path, default=None, metavar="DIR")
    parser.add_argument("--run", type=Path, default=None, metavar="DIR")
    parser.add_argument("--shape", default="llama-8b")
    parser.add_argument("--layers", type=int, default=None)
    parser.add_argument(
        "--tp", default="1,2", help="TP degrees to export (--prepare) and to run mlx-lm at (--run)"
    )
    parser.add_argument("--vocab", default="split,replicated", help="--tp-vocab ways, above TP=1")
    parser.add_argument("--experts", default="hidden", help="--tp-experts ways, above TP=1")
    parser.add_argument(
        "--without-joining", action="store_true",
        help="--prepare: also export each program with products of one input apart "
        "(export_program(join_products=False), rows 'ours: ..., unjoined')",
    )  # fmt: skip
    parser.add_argument("--max-seq-len", type=int, default=1024)
    parser.add_argument("--prompt-len", type=int, default=128)
    parser.add_argument("--new-tokens", type=int, default=256)
    parser.add_argument("--work", type=Path, default=Path("/tmp/tp-bench"))
    parser.add_argument("--generate", type=Path, default=REPO / "build/runtime/mlxd-generate")
    parser.add_argument("--device", default="gpu", help="gpu (a GPU a rank); cpu to try it here")
    parser.add_argument("--child-mlx-lm", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_mlx_lm:
        child_mlx_lm(args)
        return 0
    args.tp = [int(t) for t in args.tp.split(",")]
    args.vocab = args.vocab.split(",")
    args.experts = args.experts.split(",")
    if args.prepare:
        args.work.mkdir(parents=True, exist_ok=True)
        prepare(args)
    elif args.run:
        run(args)
    else:
        parser.error("--prepare DIR or --run DIR")
    return 0


if __name__ == "__main__":
    sys.exit(main())
