"""What MLX's CUDA backend costs the host to start one kernel, by kind, MLX alone.

    python3 bench/gpu_start_cost.py [--kernels 100] [--size 2048]

A decode step of ours is host-bound: building its graph, then starting it
(`mx.async_eval`: MLX encodes and launches each kernel), while the device waits.
This times the starting of chains of `--kernels` kernels on a vector of `--size`
float32 values, each chain built first and then started, for:
  - plain: one elementwise op a kernel (a * y);
  - compiled: one `mx.compile`d function of two ops a kernel (a * y + 1), which
    MLX fuses into one JIT-compiled kernel (a `Compiled...` primitive: our
    compiled segments' elementwise groups);
  - view: a reshape a step (no kernel: a view MLX still evaluates).
Prints the median over --repeat chains of the starting's µs per kernel, and
of the whole chain's (started, then waited for)."""

from __future__ import annotations

import argparse
import statistics
import time


def main(argv=None) -> int:
    import mlx.core as mx

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", type=int, default=100)
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args(argv)

    y = mx.random.normal((args.size,))
    x = mx.random.normal((args.size,))
    mx.eval(x, y)
    fused = mx.compile(lambda a: a * y + 1.0)
    shapes = [(args.size // 2, 2), (args.size,)]

    chains = {
        "plain (a * y)": lambda a: a * y,
        "compiled (a * y + 1, one fused kernel)": fused,
        "view (reshape)": None,
    }
    print(f"{mx.default_device()}, {args.kernels} kernels a chain, vectors of {args.size}")
    print("| kernel | start µs a kernel | whole chain µs a kernel |\n|---|---:|---:|")
    for name, step in chains.items():
        starts, wholes = [], []
        for r in range(args.repeat + 3):  # 3 warm-up chains
            a = x
            for i in range(args.kernels):
                a = a.reshape(shapes[i % 2]) if step is None else step(a)
            begin = time.perf_counter()
            mx.async_eval(a)
            started = time.perf_counter()
            mx.eval(a)
            done = time.perf_counter()
            if r >= 3:
                starts.append((started - begin) / args.kernels * 1e6)
                wholes.append((done - begin) / args.kernels * 1e6)
        print(f"| {name} | {statistics.median(starts):.2f} | {statistics.median(wholes):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
