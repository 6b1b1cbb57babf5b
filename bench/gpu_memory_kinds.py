"""Whether where a weight lives changes how fast a CUDA GPU reads it, MLX alone.

    python3 bench/gpu_memory_kinds.py [--layers 16] [--hidden 4096] [--ffn 14336]

The same decode-like step (each layer: one row by a joined gate/up weight
[2 ffn, hidden], the gated product, then by a down weight [hidden, ffn]; bf16;
evaluated once a step) over two copies of the same weights:
  - unified: arrays made from host bytes (`mx.array` of a NumPy array), which
    MLX's CUDA backend places in unified (managed) memory, as it does every
    array made from host memory: our plugin's constants, and mlx-lm's weights
    read by `mx.load`;
  - device: the same arrays copied by a kernel (`w * 1`), whose output MLX
    places in the GPU's own memory.
Prints ms a step and the weights' bytes read a second, for the first step (the
unified pages migrate to the GPU then) and the median of the next ones.
Seen on an H100 (2026-11-27, 16 layers, 5.64 GB): first step 851.6 ms unified
against 2.75 device; then 2.505 ms against 2.493 (2.25 and 2.26 TB/s). Once
migrated, unified memory reads as fast: the plugin leaves constants there
(copying them at load moved the migration into the load and did not speed decode
up: a 1B's bf16 decode, 281.3 tok/s copied against 330.2 left, int4 274.9
against 298.4, the MoE slice 451.6 against 446.5, one call)."""

from __future__ import annotations

import argparse
import statistics
import sys
import time

STEPS = 30


def host_bf16(shape: tuple, seed: int):
    """A bf16 MLX array of `shape` made from host bytes (the top halves of
    float32 values of std 0.02, tiled)."""
    import mlx.core as mx
    import numpy as np

    block = (np.random.default_rng(seed).standard_normal(1 << 16, dtype=np.float32) * 0.02).view(
        np.uint32
    ) >> 16
    values = np.resize(block.astype(np.uint16), shape[0] * shape[1]).reshape(shape)
    return mx.array(values).view(mx.bfloat16)


def timed(layers, hidden: int, ffn: int) -> tuple[float, float]:
    """(first step ms, median ms of the next STEPS)."""
    import mlx.core as mx

    def step(x):
        for up, down in layers:
            h = x @ up.T
            x = (h[:, :ffn] * h[:, ffn:]) @ down.T
            x = x * 0.01
        return x

    x = mx.ones((1, hidden), dtype=mx.bfloat16)
    start = time.perf_counter()
    mx.eval(step(x))
    first = time.perf_counter() - start
    times = []
    for _ in range(STEPS):
        start = time.perf_counter()
        mx.eval(step(x))
        times.append(time.perf_counter() - start)
    return first * 1e3, statistics.median(times) * 1e3


def main(argv=None) -> int:
    import mlx.core as mx

    parser = argparse.ArgumentParser(prog="bench/gpu_memory_kinds.py")
    parser.add_argument("--layers", type=int, default=16)
    parser.add_argument("--hidden", type=int, default=4096)
    parser.add_argument("--ffn", type=int, default=14336)
    args = parser.parse_args(argv)
    unified = [
        (
            host_bf16((2 * args.ffn, args.hidden), 2 * i),
            host_bf16((args.hidden, args.ffn), 2 * i + 1),
        )
        for i in range(args.layers)
    ]
    mx.eval(unified)
    nbytes = sum(up.nbytes + down.nbytes for up, down in unified)
    rows = [("unified (made from host bytes)", *timed(unified, args.hidden, args.ffn))]
    device = []
    for up, down in unified:
        pair = (up * 1, down * 1)
        mx.eval(pair)
        device.append(pair)
    del unified
    rows.append(("device (copied by a kernel)", *timed(device, args.hidden, args.ffn)))
    print(f"{args.layers} layers, {nbytes / 1e9:.2f} GB of bf16 weights, {mx.default_device()}")
    print("| weights | first step ms | step ms | weights read, TB/s |")
    print("|---|---|---|---|")
    for name, first, median in rows:
        print(f"| {name} | {first:.2f} | {median:.3f} | {nbytes / median / 1e9:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
