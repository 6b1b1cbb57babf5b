"""Tensor-parallel decode on a machine with two GPUs: tokens/s at TP=1 (one GPU)
against TP=2 (two processes, one GPU each, NCCL), and memory per GPU.

Here (the export needs ExecuTorch's Python, which the GPU machine lacks):
    .venv/bin/python bench/tp.py --prepare .gpu/tp --shape llama-8b [--tp 1,2] [--layers N] \
        [--vocab split,replicated] [--experts hidden,spread]
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
GPU's peak memory (NVML, sampled from outside the measured processes)."""

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

from llm_size import _pack, _unpack  # noqa: E402  (one packing for both benchmarks)

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
    try:
        for ways in args.tp:
            splits = [(v, e) for v in args.vocab for e in args.experts] if ways > 1 else [()]
            for split in splits:
                pte = args.work / ("-".join([f"tp{ways}", *split]) + ".pte")
                options = dict(zip(("tp_vocab", "tp_experts"), split))
                result = export_program(
                    checkpoint, pte, dtype="bf16", max_seq_len=args.max_seq_len, tp=ways,
                    **options,
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
    print("| shape | TP | vocabulary, experts | time to first token ms | prefill tok/s | decode tok/s | "
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
            speedup = f"{row['decode'] / single:.2f}x" if single else "-"
            memory = ", ".join(f"{p / 1e9:.1f}" for p in row["peaks"])
            print(f"| {directory.name} | {ways} | {split.replace('-', ', ') or 'whole'} | {row['ttft_ms']:.1f} | "
                  f"{row['prefill']:.1f} | {row['decode']:.1f} | {speedup} | {memory} |",
                  flush=True)  # fmt: skip


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
    with GpuMemoryPeaks() as memory:
        done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{pte} at TP={ways} failed:\n{done.stderr[-3000:]}")
    numbers = {k: float(re.search(p, done.stdout).group(1)) for k, p in NUMBERS.items()}
    return {**numbers, "peaks": memory.peaks}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="bench/tp.py")
    parser.add_argument("--prepare", type=Path, default=None, metavar="DIR")
    parser.add_argument("--run", type=Path, default=None, metavar="DIR")
    parser.add_argument("--shape", default="llama-8b")
    parser.add_argument("--layers", type=int, default=None)
    parser.add_argument("--tp", default="1,2", help="TP degrees to export, comma-separated")
    parser.add_argument("--vocab", default="split,replicated", help="--tp-vocab ways, above TP=1")
    parser.add_argument("--experts", default="hidden", help="--tp-experts ways, above TP=1")
    parser.add_argument("--max-seq-len", type=int, default=1024)
    parser.add_argument("--prompt-len", type=int, default=128)
    parser.add_argument("--new-tokens", type=int, default=256)
    parser.add_argument("--work", type=Path, default=Path("/tmp/tp-bench"))
    parser.add_argument("--generate", type=Path, default=REPO / "build/runtime/mlxd-generate")
    parser.add_argument("--device", default="gpu", help="gpu (a GPU a rank); cpu to try it here")
    args = parser.parse_args(argv)
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
