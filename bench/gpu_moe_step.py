"""Where a mixture-of-experts decode step's time goes in MLX itself (MLX CUDA on the
GPU machine, no ExecuTorch): one token through LAYERS expert layers of Qwen3-30B-A3B's
widths (hidden 2048, 128 experts of 768, top 8, int4 in groups of 64, bf16), written
the way our compiler lowers them (`mlx_delegate/llm/model.py`'s Router and Experts,
as `python -m mlx_delegate inspect` lists the instructions) and the way mlx-lm's model
is written, and each of our choices swapped for mlx-lm's one at a time.

    source /tmp/gpu/env.sh && python3 bench/gpu_moe_step.py

Each figure: ms per layer, the step's graph built once and evaluated (MLX's encoding
and launching of its kernels and the device's work; the host's building is not in
it), mean over RUNS evaluations after WARMUP; and, apart, the time MLX's Python
takes to build the graph (ours is built by the plugin's C++ interpreter).

Seen on an NVIDIA H100 80GB HBM3 (MLX 0.32.4, 2026-11-27, 16 layers, ms per layer):

    variant                     evaluated  built (Python)
    ours (as lowered)              0.1310          0.0366
    ours, argpartition             0.1421          0.0569
    ours, quantized router         0.1496          0.0569
    ours, rows not copied          0.1431          0.0592
    ours, gate/up apart            0.2092          0.0787
    routing only (ours)            0.1021          0.0242
    routing only (mlx-lm)          0.0816          0.0252
    mlx-lm                         0.1467          0.0476

Our layer, as MLX evaluates it, is no slower than mlx-lm's: the whole step's gap
(bench/gpu_llm_kernels.sh) is elsewhere."""

from __future__ import annotations

import time

import mlx.core as mx

HIDDEN, EXPERTS, WIDTH, TOP_K, GROUP, BITS = 2048, 128, 768, 8, 64, 4
LAYERS, WARMUP, RUNS = 16, 5, 40


def quantized(shape):
    w = (mx.random.normal(shape) * 0.02).astype(mx.bfloat16)
    return mx.quantize(w, group_size=GROUP, bits=BITS)


def make_layer():
    return {
        "router": (mx.random.normal((EXPERTS, HIDDEN)) * 0.02).astype(mx.float32),
        "router_q": quantized((EXPERTS, HIDDEN)),
        "gate_up": quantized((EXPERTS, 2 * WIDTH, HIDDEN)),
        "gate": quantized((EXPERTS, WIDTH, HIDDEN)),
        "up": quantized((EXPERTS, WIDTH, HIDDEN)),
        "down": quantized((EXPERTS, HIDDEN, WIDTH)),
    }


def gqmm(x, packed, indices):
    w, scales, biases = packed
    return mx.gather_qmm(
        x, w, scales, biases, rhs_indices=indices, transpose=True, group_size=GROUP, bits=BITS
    )


# ---- routing: (1, hidden) bf16 -> expert ids (1, k) uint32, weights (1, k) float32


def route_ours(x, layer, sort=True, quantized_router=False):
    """Float32 router, softmax, full sort (our TopK), take, normalise."""
    if quantized_router:
        w, s, b = layer["router_q"]
        logits = mx.quantized_matmul(x, w, s, b, True, GROUP, BITS).astype(mx.float32)
    else:
        logits = x.astype(mx.float32) @ layer["router"].T
    scores = mx.softmax(logits, axis=-1)
    if sort:
        ids = mx.argsort(-scores, axis=-1)[:, :TOP_K]
    else:
        ids = mx.argpartition(-scores, kth=TOP_K - 1, axis=-1)[:, :TOP_K]
    ids = ids.astype(mx.int64)
    weights = mx.take_along_axis(scores, ids, axis=-1)
    weights = weights / (weights.sum(axis=-1, keepdims=True) + 1e-20)
    return ids.astype(mx.uint32), weights


def route_mlx_lm(x, layer):
    """bf16 quantized router, precise softmax, argpartition, normalise."""
    w, s, b = layer["router_q"]
    logits = mx.quantized_matmul(x, w, s, b, True, GROUP, BITS)
    gates = mx.softmax(logits, axis=-1, precise=True)
    ids = mx.stop_gradient(mx.argpartition(-gates, kth=TOP_K - 1, axis=-1)[..., :TOP_K])
    scores = mx.take_along_axis(gates, ids, axis=-1)
    scores = scores / scores.sum(axis=-1, keepdims=True)
    return ids, scores


# ---- experts: (1, hidden) x ids/weights -> (1, hidden) bf16


def experts_ours(x, layer, ids, weights, copy_rows=True, joined=True):
    """Rows copied per (token, expert) pair, gate and up joined, weighted sum in float32."""
    pairs = ids.reshape(-1)
    if copy_rows:
        rows = mx.broadcast_to(x[:, None], (1, TOP_K, HIDDEN)).reshape(-1, HIDDEN)
        rows = mx.expand_dims(rows, 2).transpose(0, 2, 1)  # (pairs, 1, hidden)
    else:
        rows = x[:, None, None, :]  # broadcast against the ids inside the product
        pairs = ids
    if joined:
        gate_up = gqmm(rows, layer["gate_up"], pairs)
        gate, up = gate_up[..., :WIDTH], gate_up[..., WIDTH:]
    else:
        gate, up = gqmm(rows, layer["gate"], pairs), gqmm(rows, layer["up"], pairs)
    hidden = mx.sigmoid(gate) * gate * up
    out = gqmm(hidden, layer["down"], pairs).reshape(1, TOP_K, HIDDEN)
    return (out.astype(mx.float32) * weights[..., None]).sum(axis=1).astype(mx.bfloat16)


def experts_mlx_lm(x, layer, ids, scores):
    rows = mx.expand_dims(x, (-2, -3))  # (1, 1, 1, hidden)
    gate = gqmm(rows, layer["gate"], ids)
    up = gqmm(rows, layer["up"], ids)
    out = gqmm(mx.sigmoid(gate) * gate * up, layer["down"], ids).squeeze(-2)
    return (out * scores[..., None]).sum(axis=-2).astype(mx.bfloat16)


VARIANTS = {
    "ours (as lowered)": lambda x, l: experts_ours(x, l, *route_ours(x, l)),
    "ours, argpartition": lambda x, l: experts_ours(x, l, *route_ours(x, l, sort=False)),
    "ours, quantized router": lambda x, l: experts_ours(
        x, l, *route_ours(x, l, quantized_router=True)
    ),
    "ours, rows not copied": lambda x, l: experts_ours(x, l, *route_ours(x, l), copy_rows=False),
    "ours, gate/up apart": lambda x, l: experts_ours(x, l, *route_ours(x, l), joined=False),
    "routing only (ours)": lambda x, l: x + route_ours(x, l)[1].sum().astype(x.dtype),
    "routing only (mlx-lm)": lambda x, l: x + route_mlx_lm(x, l)[1].sum().astype(x.dtype),
    "mlx-lm": lambda x, l: experts_mlx_lm(x, l, *route_mlx_lm(x, l)),
}


def per_layer(variant, layers, x) -> float:
    def step():
        h = x
        for layer in layers:
            h = h + variant(h, layer)
        return h

    for _ in range(WARMUP):
        mx.eval(step())
    total = 0.0
    for _ in range(RUNS):
        y = step()
        start = time.perf_counter()
        mx.eval(y)
        total += time.perf_counter() - start
    return total / RUNS / len(layers) * 1e3


def built(variant, layers, x) -> float:
    start = time.perf_counter()
    for _ in range(RUNS):
        h = x
        for layer in layers:
            h = h + variant(h, layer)
    return (time.perf_counter() - start) / RUNS / len(layers) * 1e3


def main() -> None:
    mx.random.seed(0)
    layers = [make_layer() for _ in range(LAYERS)]
    mx.eval(layers)
    x = (mx.random.normal((1, HIDDEN)) * 0.5).astype(mx.bfloat16)
    print(f"{mx.default_device()}, {LAYERS} layers, ms per layer")
    print(f"{'variant':<26} {'evaluated':>10} {'built (Python)':>15}")
    for name, variant in VARIANTS.items():
        print(
            f"{name:<26} {per_layer(variant, layers, x):>10.4f} {built(variant, layers, x):>15.4f}"
        )


if __name__ == "__main__":
    main()
