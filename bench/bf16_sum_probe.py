"""Why the op test dequantize_affine[tied_bfloat16] misses its tolerance on CUDA
only: MLX's bf16 reductions there are not correctly rounded.

    python bench/bf16_sum_probe.py        # here (CPU), and on the GPU machine (CPU and GPU)

The test computes `x @ w.t() + w.sum(1)` in bf16 with w the dequantized int4
weight (48 x 256). This probe computes the same three results in MLX, on each
device, from the same bf16 operands, and prints their largest distance to the
exact (float64) result. A correctly rounded bf16 result is within half a bf16
ulp of the exact one: 0.0625 for values in [16, 32). MLX's CPU sum stays
inside that; its CUDA sum does not (0.102 on an H200), so the output, which
adds two rounded terms of up to ~40 whose sum can be near zero, differs from
eager's by a bf16 ulp of the terms (0.25) where the tolerance is relative to a
small output. It is the same with compiled chains off (MLXD_COMPILE=0)."""

import mlx.core as mx
import numpy as np

OUT, IN = 48, 256


def operands():
    rng = np.random.default_rng(1)
    q = rng.integers(-8, 8, (OUT, IN)).astype(np.float32)
    scale = (rng.random((OUT, IN // 32)) / 8).astype(np.float32)
    zero = rng.integers(-2, 3, (OUT, IN // 32)).astype(np.float32)
    x = rng.standard_normal((3, IN)).astype(np.float32)
    return x, (q - np.repeat(zero, 32, 1)) * np.repeat(scale, 32, 1)


def in_bf16(a: np.ndarray) -> np.ndarray:
    return np.array(mx.array(a).astype(mx.bfloat16).astype(mx.float32)).astype(np.float64)


def run(device, x: np.ndarray, w: np.ndarray) -> list:
    with mx.stream(device):
        wb, xb = mx.array(w).astype(mx.bfloat16), mx.array(x).astype(mx.bfloat16)
        product, total = xb @ wb.T, wb.sum(1)
        out = product + total
        mx.eval(product, total, out)
        return [np.array(a.astype(mx.float32)) for a in (product, total, out)]


def main() -> None:
    x, w = operands()
    xb, wb = in_bf16(x), in_bf16(w)
    exact = [xb @ wb.T, wb.sum(1)]
    exact.append(exact[0] + exact[1])
    for device in (mx.cpu, mx.gpu):
        try:
            results = run(device, x, w)
        except Exception as error:  # no GPU backend in this MLX
            print(f"{device}: unavailable ({error})")
            continue
        errors = [np.abs(r - e).max() for r, e in zip(results, exact)]
        print(
            f"{device}: max |result - exact|: matmul {errors[0]:.4f}, row sum {errors[1]:.4f},"
            f" output {errors[2]:.4f} (max |output| {np.abs(exact[2]).max():.1f})"
        )


if __name__ == "__main__":
    main()
