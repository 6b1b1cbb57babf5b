"""What joining products of one input gains in MLX itself, on the GPU machine (MLX
CUDA, no ExecuTorch): a decode step's products (M=1) of a Llama-3.2-1B layer's shapes,
the query/key/value projections (2048, 512 and 512 rows of 2048) and the MLP's gate and
up projections (8192 and 8192 rows), apart against one product by the stacked weights
and a split (`mlx_delegate/compiler/passes/lowered/join_products.py`), in bf16 and in
int4 (groups of 64), and the gate/up with the SiLU-gated product after them.

    source /tmp/gpu/env.sh && python3 bench/gpu_joined_products.py

Each figure: ms per product set, sixteen sets queued in one evaluation (as a step
queues a layer after another), mean over 50 evaluations after 5."""

from __future__ import annotations

import time

import mlx.core as mx

SETS, WARMUP, RUNS, K = 16, 5, 50, 2048
SHAPES = {"q/k/v": [2048, 512, 512], "gate/up": [8192, 8192]}


def per_set(make, x) -> float:
    def step(x):
        return [make(x) for _ in range(SETS)]

    for _ in range(WARMUP):
        mx.eval(step(x))
    start = time.perf_counter()
    for _ in range(RUNS):
        mx.eval(step(x))
    return (time.perf_counter() - start) / RUNS / SETS * 1e3


def cuts(rows: list[int]) -> list[int]:
    return [sum(rows[: i + 1]) for i in range(len(rows) - 1)]


def main() -> None:
    x = mx.random.normal((1, 1, K)).astype(mx.bfloat16)
    print(f"{mx.default_device()}, MLX {mx.__version__}\n")
    print("| products | dtype | apart ms | joined ms | joined / apart |")
    print("|---|---|---|---|---|")
    for name, rows in SHAPES.items():
        weights = [mx.random.normal((n, K)).astype(mx.bfloat16) * 0.02 for n in rows]
        stacked = mx.concatenate(weights, 0)
        packed = [mx.quantize(w, group_size=64, bits=4) for w in weights]
        packed_stacked = mx.quantize(stacked, group_size=64, bits=4)
        mx.eval(weights, stacked, packed, packed_stacked)

        def q(x, p):
            return mx.quantized_matmul(x, *p, transpose=True, group_size=64, bits=4)

        variants = {
            "bf16": (
                lambda x: [x @ w.T for w in weights],
                lambda x: mx.split(x @ stacked.T, cuts(rows), -1),
            ),
            "int4": (
                lambda x: [q(x, p) for p in packed],
                lambda x: mx.split(q(x, packed_stacked), cuts(rows), -1),
            ),
        }
        if name == "gate/up":

            def gated_apart(x):
                gate = x @ weights[0].T
                return mx.sigmoid(gate) * gate * (x @ weights[1].T)

            def gated_joined(x):
                gate, up = mx.split(x @ stacked.T, cuts(rows), -1)
                return mx.sigmoid(gate) * gate * up

            variants["bf16, then SiLU(gate) * up"] = (gated_apart, gated_joined)
        for dtype, (apart, joined) in variants.items():
            a, j = per_set(apart, x), per_set(joined, x)
            print(f"| {name} | {dtype} | {a:.4f} | {j:.4f} | {j / a:.2f} |")


if __name__ == "__main__":
    main()
