"""What MLX's CUDA backend costs the host to start one kernel, by kind, MLX alone.

    python3 bench/gpu_start_cost.py [--kernels 100] [--size 2048] [--kinds basic,llm,fused,prefill]

A decode step of ours is host-bound: building its graph, then starting it
(`mx.async_eval`: MLX encodes and launches each kernel), while the device waits.
This times the starting of chains of `--kernels` kernels of one kind, each chain
built first and then started. `basic`, on a vector of `--size` float32 values:
  - plain: one elementwise op a kernel (a * y);
  - compiled: one `mx.compile`d function of two ops a kernel (a * y + 1), which
    MLX fuses into one JIT-compiled kernel (a `Compiled...` primitive: our
    compiled segments' elementwise groups);
  - view: a reshape a step (no kernel: a view MLX still evaluates).
`llm`: the kernels of a decode step of a Llama-3.2-1B shape in bfloat16 (hidden
2048, 32 query and 8 KV heads of 64, a KV cache of 1024 holding 512): a product
with a bf16, int8 or int4 weight, RMSNorm, RoPE, attention (over 512 and 8000
keys, by cuDNN and by MLX's vector kernel: the whole chain's time is mostly the
device's there), the cache's update, the residual add, the gated activation
(compiled), and the views around them.
`fused`: candidates that would start fewer kernels a step, each beside what it
replaces: the product and the residual add as one `addmm` (cuBLAS's bias
epilogue), the residual add and RMSNorm as one kernel of ours
(`mx.fast.cuda_kernel`).
`prefill`: a prompt's product (8 to 512 rows) with an int4 or int8 weight, by MLX's
quantized_matmul and by dequantizing into a bf16 product (whole chain: device).
A step is one kernel unless its row says otherwise. Prints the median over
--repeat chains of the starting's µs a step, and of the whole chain's (started,
then waited for)."""

from __future__ import annotations

import argparse
import statistics
import time


def reshapes(first: tuple, second: tuple):
    """A chain step that reshapes to `first`, then `second`, by turns: a view."""
    shapes, turn = (first, second), [1]

    def view(a):
        turn[0] ^= 1
        return a.reshape(shapes[turn[0]])

    return view


def basic_chains(mx, size: int) -> dict:
    y = mx.random.normal((size,))
    x = mx.random.normal((size,))
    mx.eval(x, y)
    fused = mx.compile(lambda a: a * y + 1.0)
    return {
        "plain (a * y)": (x, lambda a: a * y),
        "compiled (a * y + 1, one fused kernel)": (x, fused),
        "view (reshape)": (x, reshapes((size // 2, 2), (size,))),
    }


HIDDEN = 2048


def bf16_normal(mx):
    """A maker of bf16 tensors of normal values, std 0.02 (a weight's scale)."""
    return lambda *shape: (mx.random.normal(shape) * 0.02).astype(mx.bfloat16)


def step_operands(mx) -> tuple:
    """A decode step's row x, weight w (HIDDEN square), norm weight and a
    residual row, bf16, evaluated."""
    normal = bf16_normal(mx)
    x, w = normal(1, HIDDEN), normal(HIDDEN, HIDDEN)
    norm_w, residual = normal(HIDDEN), normal(1, HIDDEN)
    mx.eval(x, w, norm_w, residual)
    return x, w, norm_w, residual


def products(mx, w) -> dict:
    """bits -> (x @ w.T with w quantized to `bits` (groups of 64) by MLX's
    quantized_matmul, the same with w dequantized first into a bf16 product)."""
    quantized = {bits: mx.quantize(w, group_size=64, bits=bits) for bits in (4, 8)}
    mx.eval(quantized)

    def packed(wq, scales, biases, bits):
        return lambda a: mx.quantized_matmul(a, wq, scales, biases, True, 64, bits)

    def dequantized(wq, scales, biases, bits):
        return lambda a: a @ mx.dequantize(wq, scales, biases, group_size=64, bits=bits).T

    return {bits: (packed(*q, bits), dequantized(*q, bits)) for bits, q in quantized.items()}


def llm_chains(mx) -> dict:
    heads, kv_heads, head_dim = 32, 8, 64
    normal = bf16_normal(mx)
    x, w, norm_w, up = step_operands(mx)
    w_t = w.T
    quantized = products(mx, w)
    q = normal(1, heads, 1, head_dim)
    cache = normal(1, kv_heads, 1024, head_dim)
    row = normal(1, kv_heads, 1, head_dim)
    offset = mx.array(511, mx.int32)
    mx.eval(w_t, q, cache, row, offset)

    def attention(keys: int, rows: int) -> tuple[str, tuple]:
        """One query over the first `keys` rows of a cache of `rows` (a view, as a
        step's attention reads it). MLX's CUDA attention takes cuDNN for 256 keys
        or more of a cache whose rows are a multiple of 256, its vector kernel else
        (llm/model.py's cache_rows)."""
        view = normal(1, kv_heads, rows, head_dim)[:, :, :keys]
        mx.eval(view)
        kernel = "cuDNN" if rows % 256 == 0 else "MLX's vector kernel"
        name = f"attention ({keys} keys of a cache of {rows} rows: {kernel})"
        return name, (q, lambda a: mx.fast.scaled_dot_product_attention(a, view, view, scale=0.125))

    def cache_update(c):
        c[:, :, 511:512, :] = row  # a SliceUpdate, its target donated
        return c

    gated = mx.compile(lambda a: a * mx.sigmoid(a) * up)

    def head_transpose(a):  # (1, 32, 1, 64) <-> (1, 1, 32, 64)
        return a.transpose(0, 2, 1, 3)

    attentions = dict(
        attention(k, r) for k, r in ((512, 1024), (512, 1025), (8000, 8192), (8000, 8193))
    )
    return {
        "product, bf16 weight 2048x2048 (gemv)": (x, lambda a: a @ w_t),
        "product, int8 weight (quantized_matmul)": (x, quantized[8][0]),
        "product, int4 weight (quantized_matmul)": (x, quantized[4][0]),
        "rms_norm": (x, lambda a: mx.fast.rms_norm(a, norm_w, 1e-5)),
        "rope (32 heads, array offset)": (
            q,
            lambda a: mx.fast.rope(
                a, head_dim, traditional=False, base=500000.0, scale=1.0, offset=offset
            ),
        ),
        **attentions,
        "cache update (slice_update, donated)": (mx.array(cache), cache_update),
        "residual add": (x, lambda a: a + up),
        "gated activation (compiled silu * up)": (x, gated),
        "view (reshape, to heads and back)": (x, reshapes((1, 1, heads, head_dim), (1, HIDDEN))),
        "view (transpose)": (q, head_transpose),
    }


# The fused candidate's body (one block of threads a row): the residual sum written
# (the next residual), its squares summed over the block, then the row normalized.
# Timed here, its results not checked: it was measured to decide, and not built.
ADD_RMS_NORM = """
const int row = blockIdx.x;
const size_t base = size_t(row) * N;
float squares = 0.0f;
for (int i = threadIdx.x; i < N; i += blockDim.x) {
  T h = T(float(x[base + i]) + float(residual[base + i]));
  sum[base + i] = h;
  squares += float(h) * float(h);
}
__shared__ float partial[32];
for (int o = 16; o > 0; o /= 2) squares += __shfl_xor_sync(0xffffffff, squares, o);
if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = squares;
__syncthreads();
if (threadIdx.x < 32) {
  float v = threadIdx.x < (blockDim.x >> 5) ? partial[threadIdx.x] : 0.0f;
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
  if (threadIdx.x == 0) partial[0] = v;
}
__syncthreads();
const float scale = rsqrtf(partial[0] / N + eps[0]);
for (int i = threadIdx.x; i < N; i += blockDim.x) {
  normed[base + i] = T(float(weight[i]) * (float(sum[base + i]) * scale));
}
"""


def fused_chains(mx) -> dict:
    x, w, norm_w, up = step_operands(mx)
    w_t = w.T
    eps = mx.array([1e-5], mx.float32)
    mx.eval(w_t, eps)
    kernel = mx.fast.cuda_kernel(
        name="add_rms_norm",
        input_names=["x", "residual", "weight", "eps"],
        output_names=["sum", "normed"],
        source=ADD_RMS_NORM,
    )

    def add_rms_norm(a):
        _, normed = kernel(
            inputs=[a, up, norm_w, eps],
            output_shapes=[a.shape, a.shape],
            output_dtypes=[a.dtype, a.dtype],
            grid=(256 * a.shape[0], 1, 1),
            threadgroup=(256, 1, 1),
            template=[("T", a.dtype), ("N", HIDDEN)],
        )
        return normed

    return {
        "product, bf16 2048x2048, then the residual add (2 kernels)": (x, lambda a: a @ w_t + up),
        "addmm: product and residual add in one (cuBLAS bias epilogue)": (
            x,
            lambda a: mx.addmm(up, a, w_t),
        ),
        "residual add, then rms_norm (2 kernels)": (
            x,
            lambda a: mx.fast.rms_norm(a + up, norm_w, 1e-5),
        ),
        "residual add and rms_norm as one kernel of ours": (x, add_rms_norm),
    }


def prefill_chains(mx) -> dict:
    """A prompt's product of `rows` rows by a HIDDEN-square weight in bf16, and
    in int4 and int8 by quantized_matmul and by dequantizing into a bf16
    product, at the rows where the two ways cross."""
    _, w, _, _ = step_operands(mx)
    quantized = products(mx, w)
    chains = {}
    for rows in (8, 32, 64, 128, 512):
        x = bf16_normal(mx)(rows, HIDDEN)
        mx.eval(x)
        chains[f"prompt product {rows}x2048 @ 2048x2048, bf16 weight"] = (x, lambda a: a @ w.T)
        for bits, (packed, dequantized) in quantized.items():
            chains[f"{rows} rows, int{bits}: quantized_matmul"] = (x, packed)
            chains[f"{rows} rows, int{bits}: dequantized, then bf16 (2 kernels)"] = (x, dequantized)
    return chains


def main(argv=None) -> int:
    import mlx.core as mx

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kernels", type=int, default=100)
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--kinds", default="basic,llm")
    args = parser.parse_args(argv)

    chains = {}
    if "basic" in args.kinds:
        chains.update(basic_chains(mx, args.size))
    if "llm" in args.kinds:
        chains.update(llm_chains(mx))
    if "fused" in args.kinds:
        chains.update(fused_chains(mx))
    if "prefill" in args.kinds:
        chains.update(prefill_chains(mx))
    print(f"{mx.default_device()}, {args.kernels} kernels a chain")
    print("| step | start µs a step | whole chain µs a step |\n|---|---:|---:|")
    for name, (first, step) in chains.items():
        starts, wholes = [], []
        for r in range(args.repeat + 3):  # 3 warm-up chains
            a = first
            for _ in range(args.kernels):
                a = step(a)
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
