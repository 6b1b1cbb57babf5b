"""Prefill of one wide mixture-of-experts layer on the CPU: transformers'
Qwen3-MoE sparse block (`batched_mm` experts) lowered as before, the expert
weights gathered per (token, expert) pair and multiplied by a batched matmul,
against GatherMM, which multiplies the stack in place (and GatherQMM for int4
experts). Prints a table of median latencies through executorch.runtime.

    .venv/bin/python bench/moe.py [--tokens 1 8 32 128] [--repeat 10] [--threads N]

On the GPU machine (no ExecuTorch Python there): first, here,
    .venv/bin/python bench/moe.py --prepare-gpu .gpu/moe
writes a narrower block (GPU_SHAPE: 8 experts, top-4, so that a device call carries
it) in bf16, lowered before and after and with int4 experts, one program per token
count (float32 in and out), with inputs and eager's output on this CPU; there, `bash bench/gpu_moe.sh` builds mlxd-run and the CUDA plugin and
runs `python3 bench/moe.py --gpu .gpu/moe --runner BUILD/mlxd-run`. Seen on an
NVIDIA H100 80GB HBM3 (errors: max |y - eager bf16 on this CPU|):

    tokens  rows |  copies ms     err | GatherMM ms     err | int4 QMM ms     err
         1     4 |      0.425 4.9e-04 |      0.319 4.9e-04 |      0.593 4.9e-04
        64   256 |      1.775 7.3e-04 |      1.190 7.3e-04 |      0.977 7.3e-04
       512  2048 |      8.828 2.8e-02 |      1.766 2.8e-02 |      2.942 2.8e-02

GatherQMM computes in float32 (mlx_delegate/compiler/ops/quantized.py says why). In MLX 0.32.4's
own Python on the same H100, at Qwen3-30B-A3B's expert shape (128 experts of 768 x 2048,
top-8), gather_qmm int4 in float32 takes 0.129 / 1.772 / 13.29 ms at 8 / 512 / 4096 rows
against 0.111 / 0.503 / 2.839 in bf16 (bf16 gather_mm: 0.087 / 0.605 / 4.03, and with the
rows sorted 0.83 ms at 1024 rows and 1.07 at 4096); sorting does not speed up gather_qmm.

"before" lowers the same program with the expert-gather pattern taken out of
the registry (mlx_delegate/compiler/ops/experts.py), which is what the compiler did
before it existed.

Seen here (2 shared cores, load 1.5-4, cpu-openblas plugin, OPENBLAS_NUM_THREADS=1):

    tokens |  eager ms | before ms          (ops) | GatherMM ms | speed-up | int4 GatherQMM ms
         1 |     48.00 |      5.08   3 Take, 2 mm |        0.58 |     8.7x |              1.27
         8 |    116.00 |     52.52   3 Take, 2 mm |        6.46 |     8.1x |             17.92
        32 |    318.82 |    194.52   3 Take, 2 mm |       20.65 |     9.4x |             52.07
       128 |   1124.35 |    716.58   3 Take, 2 mm |       48.73 |    14.7x |            145.96

MLX's CPU gather_mm calls sgemm once per (token, expert) row: with OpenBLAS's
default threads on this loaded machine each call pays a thread hand-off, and the
same run gave GatherMM 32-248 ms (before 33-2779 ms, still 11-17x faster from 32
tokens on, but no faster at 1 token). MLX's CPU gather_qmm is a plain loop,
slower than the float32 product; on the GPUs both are MLX's gather kernels."""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mlx_delegate import _quiet  # noqa: E402

HIDDEN, INTERMEDIATE, EXPERTS, TOP_K = 768, 384, 16, 2
GPU_SHAPE = dict(hidden=512, intermediate=256, experts=8, top_k=4)
GPU_TOKENS = (1, 64, 512)  # 512 tokens: 2048 rows, sorted by expert (exec_gather_mm)


def moe_block(
    hidden=HIDDEN, intermediate=INTERMEDIATE, experts=EXPERTS, top_k=TOP_K
) -> torch.nn.Module:
    from transformers import Qwen3MoeConfig
    from transformers.models.qwen3_moe.modeling_qwen3_moe import Qwen3MoeSparseMoeBlock

    config = Qwen3MoeConfig(
        hidden_size=hidden,
        moe_intermediate_size=intermediate,
        num_experts=experts,
        num_experts_per_tok=top_k,
        norm_topk_prob=True,
        experts_implementation="batched_mm",
    )
    config._experts_implementation = "batched_mm"  # a bare module: no model to apply it
    torch.manual_seed(0)
    block = Qwen3MoeSparseMoeBlock(config).eval()
    with torch.no_grad():
        for param in block.parameters():
            param.normal_(0.0, 0.02)
    return block


class Prefill(torch.nn.Module):
    """The block returns (hidden states, router logits): keep the first."""

    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, x):
        out = self.block(x)
        return out[0] if isinstance(out, tuple) else out


class Float32IO(torch.nn.Module):
    """The block in `dtype` behind float32 inputs and outputs (mlxd-run's files)."""

    def __init__(self, block, dtype):
        super().__init__()
        self.block, self.dtype = block.to(dtype), dtype

    def forward(self, x):
        return self.block(x.to(self.dtype)).float()


@contextmanager
def without_expert_pattern():
    from mlx_delegate.compiler.ops import default_registry, experts

    patterns = default_registry()._patterns
    index = patterns.index(experts.gathered_experts_matmul)
    del patterns[index]
    try:
        yield
    finally:
        patterns.insert(index, experts.gathered_experts_matmul)


def lowered(model, x, dynamic_shapes=None, device="cpu") -> bytes:
    from executorch.exir import to_edge_transform_and_lower

    from mlx_delegate.compiler.partitioner import MLXPartitioner

    exported = torch.export.export(model, (x,), dynamic_shapes=dynamic_shapes)
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device=device)])
    return edge.to_executorch().buffer


def median_ms(run, repeat: int) -> float:
    run()  # warm-up: compiles the chain
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def timed_program(pte: bytes, x, want, repeat: int) -> tuple[float, float]:
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)  # referenced while the method runs
    method = program.load_method("forward")
    (got,) = method.execute([x])
    error = (got - want).abs().max().item()
    return median_ms(lambda: method.execute([x]), repeat), error


GPU_KINDS = ("before", "after", "int4")


def prepare_gpu(out: Path) -> None:
    from mlx_delegate.compiler.quantize_experts import quantize_experts
    from mlx_delegate.formats.tensor_bin import write_tensors

    out.mkdir(parents=True, exist_ok=True)
    for kind in GPU_KINDS:
        block = moe_block(**GPU_SHAPE)
        if kind == "int4":
            quantize_experts(block, "int4", 64)
        model = Float32IO(Prefill(block), torch.bfloat16)
        for count in GPU_TOKENS:
            generator = torch.Generator().manual_seed(count)
            x = torch.randn(1, count, GPU_SHAPE["hidden"], generator=generator)
            if kind == "before":
                with without_expert_pattern():
                    pte = lowered(model, x, device="gpu")
            else:
                pte = lowered(model, x, device="gpu")
            (out / f"{kind}.{count}.pte").write_bytes(pte)
            write_tensors(out / f"x{count}.bin", [x])
            with torch.no_grad():
                write_tensors(out / f"{kind}.{count}.expected.bin", [model(x)])
    (out / "manifest.json").write_text(json.dumps({"shape": GPU_SHAPE, "tokens": GPU_TOKENS}))
    total = sum(f.stat().st_size for f in out.iterdir())
    print(f"{out}: {total / 2**20:.1f} MiB")


def run_gpu(folder: Path, runner: Path, device: str, repeat: int) -> None:
    """Times each program through mlxd-run; the error is max |y - eager bf16 on the CPU|."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from models import read_float32_bin

    manifest = json.loads((folder / "manifest.json").read_text())
    shape = manifest["shape"]
    print(
        f"Qwen3-MoE sparse block in bf16 on {device}: hidden {shape['hidden']}, expert "
        f"intermediate {shape['intermediate']}, {shape['experts']} experts, top-{shape['top_k']}"
    )
    header = f"{'tokens':>6} {'rows':>5} | " + " | ".join(
        f"{k + ' ms':>10} {'err':>7}" for k in ("copies", "GatherMM", "int4 QMM")
    )
    print(header)
    print("-" * len(header))
    for count in manifest["tokens"]:
        cells = []
        for kind in GPU_KINDS:
            out_bin = Path("/tmp") / f"moe.{kind}.{count}.out.bin"
            command = [str(runner), str(folder / f"{kind}.{count}.pte"), "--inputs",
                       str(folder / f"x{count}.bin"), "--outputs", str(out_bin), "--device",
                       device, "--warmup", "5", "--repeat", str(repeat)]  # fmt: skip
            done = subprocess.run(command, capture_output=True, text=True, timeout=300)
            found = re.search(r"latency ms: median ([\d.]+)", done.stdout)
            if done.returncode != 0 or not found:
                cells.append(f"{'failed':>10} {'':>7}")
                print(done.stdout[-300:], done.stderr[-600:], file=sys.stderr)
                continue
            (got,) = read_float32_bin(out_bin)
            (want,) = read_float32_bin(folder / f"{kind}.{count}.expected.bin")
            cells.append(f"{float(found.group(1)):>10.3f} {abs(got - want).max():>7.1e}")
        print(f"{count:>6} {count * shape['top_k']:>5} | " + " | ".join(cells))


def main(argv=None) -> int:
    _quiet.install()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, nargs="+", default=[1, 8, 32, 128])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--threads", type=int, default=None, help="torch eager's threads")
    parser.add_argument("--prepare-gpu", type=Path, help="write the GPU run's files here")
    parser.add_argument("--gpu", type=Path, help="time the programs of --prepare-gpu")
    parser.add_argument("--runner", type=Path, help="mlxd-run, with --gpu")
    parser.add_argument("--device", default="gpu:0", help="with --gpu")
    args = parser.parse_args(argv)
    if args.prepare_gpu:
        prepare_gpu(args.prepare_gpu)
        return 0
    if args.gpu:
        run_gpu(args.gpu, args.runner, args.device, max(args.repeat, 50))
        return 0
    if args.threads:
        torch.set_num_threads(args.threads)

    import mlx_delegate.runtime  # noqa: F401  (registers the runtime backend)
    from mlx_delegate.tools.inspector import main_instructions
    from mlx_delegate.compiler.quantize_experts import quantize_experts

    model = Prefill(moe_block())
    quantized = quantize_experts(Prefill(moe_block()), "int4", 64)
    weight_mb = sum(p.numel() for p in model.parameters()) * 4 / 2**20
    print(
        f"Qwen3-MoE sparse block: hidden {HIDDEN}, expert intermediate {INTERMEDIATE}, "
        f"{EXPERTS} experts, top-{TOP_K}; {weight_mb:.0f} MiB of float32 weights"
    )
    header = (
        f"{'tokens':>6} | {'eager ms':>9} | {'before ms':>9} {'(ops)':>14} | "
        f"{'GatherMM ms':>11} | {'speed-up':>8} | {'int4 GatherQMM ms':>17} | max |err|"
    )
    print(header)
    print("-" * len(header))
    for tokens in args.tokens:
        x = torch.randn(1, tokens, HIDDEN, generator=torch.Generator().manual_seed(tokens))
        with torch.no_grad():
            want, want_q = model(x), quantized(x)
            eager = median_ms(lambda: model(x), args.repeat)
        with without_expert_pattern():
            before_pte = lowered(model, x)
        after_pte = lowered(model, x)
        before_ops = [i.op for i in main_instructions(before_pte)]
        assert "GatherMM" not in before_ops and "GatherMM" in [
            i.op for i in main_instructions(after_pte)
        ]
        copies = f"{before_ops.count('Take')} Take, {before_ops.count('Matmul')} mm"
        before, before_err = timed_program(before_pte, x, want, args.repeat)
        after, after_err = timed_program(after_pte, x, want, args.repeat)
        int4, int4_err = timed_program(lowered(quantized, x), x, want_q, args.repeat)
        error = max(before_err, after_err, int4_err)
        print(
            f"{tokens:>6} | {eager:>9.2f} | {before:>9.2f} {copies:>14} | {after:>11.2f} | "
            f"{before / after:>7.1f}x | {int4:>17.2f} | {error:.1e}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
