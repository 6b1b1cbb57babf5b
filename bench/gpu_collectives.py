"""What an all_sum costs inside a tensor-parallel decode step, measured apart
from everything else a program does: MLX alone, a process a device.

    python3 bench/gpu_collectives.py [--ranks 2] [--layers 32] [--hidden 4096] [--ffn 14336]

starts the ranks (mlx_delegate.llm.launch's start_ranks: NCCL and a GPU a rank
where the CUDA backend is there, else `ring` on the CPU). Each rank times a
step of --layers MLP layers of a rank's shard (x @ up [hidden, ffn/ranks],
then @ down [ffn/ranks, hidden], bf16, one row: a decode step's products),
evaluated once a step as a decode step is:
  - apart: the shards' products alone;
  - summed: an all_sum of the [1, hidden] result after each layer (a
    Megatron MLP's), so the step carries --layers collectives;
  - whole (rank 0 alone, before the others start): the unsplit layers, TP=1.
Rank 0 prints ms a step for each and (summed - apart) / layers, the cost of
one all_sum inside a step."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

STEPS = 50


def step_ms(layers, x, collective) -> float:
    import mlx.core as mx

    def step(x):
        for up, down in layers:
            x = (x @ up) @ down
            x = collective(x) if collective else x
            x = x * 0.5  # keeps the values bounded, one small kernel as a norm is
        return x

    for _ in range(5):
        mx.eval(step(x))
    start = time.perf_counter()
    for _ in range(STEPS):
        x = step(x)
        mx.eval(x)  # a decode step: the next needs this one's token
    return (time.perf_counter() - start) / STEPS * 1e3


def weights(args, ffn: int):
    import mlx.core as mx

    keys = mx.random.split(mx.random.key(0), 2 * args.layers)
    layers = []
    for i in range(args.layers):
        k1, k2 = keys[2 * i], keys[2 * i + 1]
        up = (mx.random.normal((args.hidden, ffn), key=k1) * 0.02).astype(mx.bfloat16)
        down = (mx.random.normal((ffn, args.hidden), key=k2) * 0.02).astype(mx.bfloat16)
        mx.eval(up, down)
        layers.append((up, down))
    return layers


def rank_main(args) -> None:
    import mlx.core as mx

    backend = os.environ.get("MLX_DELEGATE_DISTRIBUTED_BACKEND", "nccl")
    group = mx.distributed.init(strict=True, backend=backend)
    ranks, rank = group.size(), group.rank()
    x = mx.ones((1, args.hidden), dtype=mx.bfloat16)
    shard = weights(args, args.ffn // ranks)
    apart = step_ms(shard, x, None)
    summed = step_ms(shard, x, lambda y: mx.distributed.all_sum(y, group=group))
    if rank == 0:
        print(f"| {ranks} | {args.layers} | {args.hidden} | {args.ffn // ranks} | {apart:.3f} | "
              f"{summed:.3f} | {(summed - apart) / args.layers * 1e3:.1f} |", flush=True)  # fmt: skip


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="bench/gpu_collectives.py")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--layers", type=int, default=32)
    parser.add_argument("--hidden", type=int, default=4096)
    parser.add_argument("--ffn", type=int, default=14336)
    parser.add_argument("--rank", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rank:
        rank_main(args)
        return 0
    import mlx.core as mx

    from mlx_delegate.llm.launch import start_ranks

    backend = "nccl" if mx.cuda.is_available() else "ring"
    print("| ranks | layers | hidden | ffn a rank | step ms, apart | step ms, all_sum a layer | "
          "µs an all_sum |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    whole = step_ms(weights(args, args.ffn), mx.ones((1, args.hidden), dtype=mx.bfloat16), None)
    print(f"| 1 | {args.layers} | {args.hidden} | {args.ffn} | {whole:.3f} | - | - |", flush=True)
    command = [sys.executable, __file__, "--rank", *(argv or sys.argv[1:])]
    return start_ranks(command, args.ranks, backend)


if __name__ == "__main__":
    sys.exit(main())
