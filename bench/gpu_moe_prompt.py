"""A prompt through mixture-of-experts layers in MLX itself (MLX CUDA on the GPU
machine, no ExecuTorch): PROMPT tokens, each to TOP_K of Qwen3-30B-A3B's experts
(bench/gpu_moe_step.py's widths: hidden 2048, 128 experts of 768, int4 in groups
of 64, bf16), through LAYERS layers, the experts' products four ways:

  - packed, rows as they come: `gather_qmm` over the (token, expert) rows in
    token order (ours as lowered);
  - packed, rows sorted by expert (`sorted_indices`, as mlx-lm's SwitchGLU does
    from 64 rows);
  - dequantized: each layer's stacks dequantized to bf16, then `gather_mm` over
    the rows sorted by expert (what our plugin does for bf16 experts from 1024
    rows, `runtime_cpp/src/ops/gather_matmul.cpp`);
  - dequantized, with a wait for the device after each layer (`mx.eval`), which
    bounds how many dequantized stacks are alive;
  - dequantized, each layer started (`mx.async_eval`) and the layer before it
    waited for: the device runs layer n while the host builds layer n + 1, two
    layers' stacks alive at most (what our plugin does,
    runtime_cpp/src/plugin/program.cpp's evaluate_if_asked).

    source /tmp/gpu/env.sh && python3 bench/gpu_moe_prompt.py

Prints, per way, ms per layer (the whole chain built, then evaluated and waited
for; mean of RUNS after WARMUP), the peak memory above the weights (MLX's
allocator, GB) while the chain ran, and how far two layers' output is from the
first way's (relative to its largest value). The routing is fixed random
choices: it is not what is measured.

Seen on an NVIDIA H200 (MLX 0.32.4, 512 tokens, 16 layers, 2026-11-29; in
brackets an earlier loan's figures, before the last way was added):

    way                                  ms a layer       peak GB above the weights
    packed, rows as they come            7.879 (7.892)    0.87 (0.87)
    packed, rows sorted                  8.002 (7.986)    1.41 (1.41)
    dequantized                          3.341 (3.375)   20.74 (20.74)
    dequantized, a wait a layer          3.705 (3.678)    1.30 (2.59)
    dequantized, a wait a layer behind   3.282            2.59

(every way printed a difference of 0 from the first). Dequantized, a prompt's experts run
2.1-2.4 times faster; without a wait, every layer's dequantized stacks (1.2 GB)
stay alive until the device has run the whole chain. Waiting a layer behind costs
nothing against no wait, where waiting for each layer costs 11%."""

from __future__ import annotations

import time

import mlx.core as mx
from gpu_moe_step import BITS, EXPERTS, GROUP, HIDDEN, TOP_K, WIDTH, quantized

PROMPT, LAYERS, WARMUP, RUNS = 512, 16, 2, 5


def make_layer():
    choice = mx.argsort(mx.random.uniform(shape=(PROMPT, EXPERTS)), axis=-1)[:, :TOP_K]
    return {
        "gate_up": quantized((EXPERTS, 2 * WIDTH, HIDDEN)),
        "down": quantized((EXPERTS, HIDDEN, WIDTH)),
        "ids": choice.astype(mx.uint32).reshape(-1),  # (PROMPT * TOP_K,) in token order
    }


def packed(x, stack, ids, sort):
    w, scales, biases = stack
    return mx.gather_qmm(x, w, scales, biases, rhs_indices=ids, transpose=True,
                         group_size=GROUP, bits=BITS, sorted_indices=sort)  # fmt: skip


def dequantized(x, stack, ids):
    w = mx.dequantize(*stack, group_size=GROUP, bits=BITS).swapaxes(-1, -2)
    return mx.gather_mm(x, w, rhs_indices=ids, sorted_indices=True)


def experts(h, layer, way):
    """(PROMPT, hidden) -> the sum over each token's experts (unweighted)."""
    ids = layer["ids"]
    rows = mx.repeat(h, TOP_K, axis=0)[:, None, :]  # (pairs, 1, hidden)
    if way != "packed, rows as they come":
        order = mx.argsort(ids)
        rows, ids = rows[order], ids[order]
    if way.startswith("dequantized"):
        product = lambda a, stack: dequantized(a, stack, ids)  # noqa: E731
    else:
        sort = way == "packed, rows sorted"
        product = lambda a, stack: packed(a, stack, ids, sort)  # noqa: E731
    gate_up = product(rows, layer["gate_up"])
    gate, up = gate_up[..., :WIDTH], gate_up[..., WIDTH:]
    out = product(mx.sigmoid(gate) * gate * up, layer["down"])
    if way != "packed, rows as they come":
        out = out[mx.argsort(order)]
    return out.reshape(PROMPT, TOP_K, HIDDEN).sum(axis=1)


WAYS = (
    "packed, rows as they come",
    "packed, rows sorted",
    "dequantized",
    "dequantized, a wait a layer",
    "dequantized, a wait a layer behind",
)


def chain(x, layers, way):
    h, behind = x, []
    for layer in layers:
        h = h + experts(h, layer, way)
        if way.endswith("a wait a layer"):
            mx.eval(h)
        elif way.endswith("a layer behind"):
            mx.async_eval(h)
            mx.eval(behind)  # started already: waits for it
            behind = [h]
    return h


def measure(x, layers, way) -> tuple[float, float]:
    for _ in range(WARMUP):
        mx.eval(chain(x, layers, way))
    mx.clear_cache()
    base = mx.get_active_memory()
    mx.reset_peak_memory()
    total = 0.0
    for _ in range(RUNS):
        start = time.perf_counter()
        mx.eval(chain(x, layers, way))
        total += time.perf_counter() - start
    return total / RUNS / len(layers) * 1e3, (mx.get_peak_memory() - base) / 1e9


def main() -> None:
    mx.random.seed(0)
    layers = [make_layer() for _ in range(LAYERS)]
    mx.eval(layers)
    x = (mx.random.normal((PROMPT, HIDDEN)) * 0.5).astype(mx.bfloat16)
    print(f"{mx.default_device()}, {PROMPT} tokens, top {TOP_K} of {EXPERTS}, {LAYERS} layers\n")
    print("| way | ms a layer | peak GB above the weights | max difference from the first |")
    print("|---|---:|---:|---:|")
    first = None
    for way in WAYS:
        ms, peak = measure(x, layers, way)
        y = chain(x, layers[:2], way).astype(mx.float32)
        first = y if first is None else first
        difference = mx.abs(y - first).max().item() / mx.abs(first).max().item()
        print(f"| {way} | {ms:.3f} | {peak:.2f} | {difference:.1e} |", flush=True)


if __name__ == "__main__":
    main()
