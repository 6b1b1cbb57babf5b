"""The llama-like block (bench/llama_block.py) with its MLP split over a device
group (mlx_delegate.parallel), against the whole block on one device: latency
through mlxd-run, and the largest difference from torch eager on this CPU.

Here, to export (the GPU machine has no ExecuTorch Python):
    .venv/bin/python bench/tensor_parallel.py --prepare DIR [--sizes d2048s1,d2048s128]
writes per block size the whole block's .pte and the split one's (gzipped; the
weights are tiled so that they fit a device call), the input and eager's output.
There, or here on the CPU:
    python3 bench/tensor_parallel.py --run DIR --runner BUILD/mlxd-run \
        --groups gpu:0 gpu:0,gpu:0 gpu:0,gpu:1
times the whole block on the first device of the first group, and the split block on
each group with two devices; prints a table (ratios against the whole block on one
device, measured in the same run). On the CPU, `--groups cpu:0 cpu:0,cpu:0` runs the
two halves of the MLP on two streams (threads) of the one CPU device.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parent))

from llama_block import BlockConfig, example_input, seeded_weights, torch_block  # noqa: E402
from models import _gunzip, _gzip, read_float32_bin  # noqa: E402

WAYS = 2


def prepare(args) -> None:
    from executorch.exir import to_edge_transform_and_lower

    from mlx_delegate import parallel
    from mlx_delegate.partitioner import MLXPartitioner
    from mlx_delegate.tensor_bin import write_tensors

    out = args.prepare
    out.mkdir(parents=True, exist_ok=True)
    for name in args.sizes:
        c = BlockConfig.parse(name)
        model, x = torch_block(c, seeded_weights(c, seed=0, tiled=True)), example_input(c)
        with torch.no_grad():
            np.save(out / f"{c.name}.expected.npy", model(x).numpy())
        write_tensors(out / f"{c.name}.x.bin", [x])
        for kind in ("whole", "split"):
            if kind == "split":
                assert parallel.split_mlps(model, WAYS) == 1
            exported = torch.export.export(model, (x,), strict=False)
            # No device here: mlxd-run --device chooses (one device stands for
            # itself and the next ones).
            edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner()])
            pte = args.work / f"{c.name}.{kind}.pte"
            pte.write_bytes(edge.to_executorch().buffer)
            _gzip(pte, out / f"{c.name}.{kind}.pte.gz")
        print(f"{c.label}: {c.params:,} parameters")
    (out / "manifest.json").write_text(json.dumps({"sizes": args.sizes, "ways": WAYS}))
    total = sum(f.stat().st_size for f in out.iterdir())
    print(f"{out}: {total / 2**20:.2f} MiB in all")


def time_one(args, pte: Path, x_bin: Path, device: str) -> tuple[float, np.ndarray]:
    out_bin = args.work / "out.bin"
    command = [str(args.runner), str(pte), "--inputs", str(x_bin), "--outputs", str(out_bin),
               "--device", device, "--warmup", str(args.warmup), "--repeat", str(args.repeat)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"mlxd-run exit {done.returncode}: {done.stderr.strip()[-400:]}")
    found = re.search(r"latency ms: median ([\d.]+)", done.stdout)
    if not found:
        raise RuntimeError(f"no latency in mlxd-run's output: {done.stdout[-300:]}")
    return float(found.group(1)), read_float32_bin(out_bin)[0]


def run(args) -> None:
    directory = args.run
    args.work.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((directory / "manifest.json").read_text())
    one, groups = args.groups[0], args.groups[1:]
    head = ["block", f"whole, {one}"] + [f"split, {g}" for g in groups]
    head += [f"whole ÷ split, {g}" for g in groups] + ["max error (whole, split)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in manifest["sizes"]:
        c = BlockConfig.parse(name)
        expected = np.load(directory / f"{name}.expected.npy")
        x_bin = directory / f"{name}.x.bin"
        ptes = {k: _gunzip(directory / f"{name}.{k}.pte.gz", args.work / f"{name}.{k}.pte")
                for k in ("whole", "split")}  # fmt: skip
        whole_ms, whole_out = time_one(args, ptes["whole"], x_bin, one)
        cells, ratios, errors = [f"{whole_ms:.3f}"], [], [np.abs(whole_out - expected).max()]
        for group in groups:
            try:
                ms, out = time_one(args, ptes["split"], x_bin, group)
                cells.append(f"{ms:.3f}")
                ratios.append(f"{whole_ms / ms:.2f}×")
                errors.append(np.abs(out - expected).max())
            except RuntimeError as error:
                cells.append("failed")
                ratios.append("-")
                print(f"{c.label} on {group}: {error}", file=sys.stderr)
        error_text = ", ".join(f"{e:.2e}" for e in errors)
        lines.append(f"| {c.label} | " + " | ".join(cells + ratios + [error_text]) + " |")
        print(lines[-1], flush=True)
    print(f"\nmedian ms of {args.repeat} runs after {args.warmup} (mlxd-run); MLP split {manifest['ways']} ways")  # fmt: skip
    print("\n".join(lines))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--prepare", type=Path, help="export into this folder")
    mode.add_argument("--run", type=Path, help="time what --prepare wrote there")
    parser.add_argument("--sizes", type=lambda s: s.split(","), default=["d2048s1", "d2048s128"])
    parser.add_argument("--groups", nargs="+", default=["gpu:0", "gpu:0,gpu:0", "gpu:0,gpu:1"])
    parser.add_argument("--runner", type=Path, default=HERE.parent / "build/runtime/mlxd-run")
    parser.add_argument("--work", type=Path, default=Path("/tmp/tensor_parallel"))
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    prepare(args) if args.prepare else run(args)
    print(f"done in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
