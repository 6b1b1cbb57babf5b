"""The main job: export a small decoder-only transformer with MLXPartitioner,
run one forward pass through ExecuTorch on the best plugin, and report the
plugin used, the max absolute difference to PyTorch eager, the share of ops
delegated and the median latency over 10 runs.

    python -m mlx_delegate.tools.demo [--device cpu|gpu:0] [--out transformer.pte]
"""

from __future__ import annotations

import argparse
import operator
import statistics
import sys
import time
from pathlib import Path

import torch

from .. import _quiet

# What the demo ends with: how to export your own model. The lines run as printed, given a
# torch.nn.Module `model` and a tuple of example `inputs` (tests/mlx_delegate/tools/test_demo.py).
YOUR_MODEL = (
    "from executorch.exir import to_edge_transform_and_lower",
    "from mlx_delegate import MLXPartitioner",
    "edge = to_edge_transform_and_lower(torch.export.export(model, inputs), "
    "partitioner=[MLXPartitioner()])",
    'open("model.pte", "wb").write(edge.to_executorch().buffer)',
)


def delegated_share(edge_program) -> tuple[int, int]:
    """(ops inside MLX delegates, all ops) of the lowered edge program."""
    inside = outside = 0
    graph = edge_program.exported_program().graph_module
    for node in graph.graph.nodes:
        if node.op != "call_function" or node.target is operator.getitem:
            continue
        if "executorch_call_delegate" in str(node.target):
            lowered = getattr(graph, node.args[0].target)
            inside += sum(
                1
                for n in lowered.original_module.graph.nodes
                if n.op == "call_function" and n.target is not operator.getitem
            )
        else:
            outside += 1
    return inside, inside + outside


def median_latency(run, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def plugin_description(device: str | None) -> str:
    """The plugin that runs `device`, resolved as the delegate resolves it
    (default: the first GPU if a GPU plugin loads, else the CPU)."""
    from ..host import backends

    spec = device or ("gpu:0" if backends.is_available("gpu") else "cpu")
    resolved = backends.device(spec)
    backend = resolved["backend"]
    return (
        f"{backend['name']} (score {backend['score']}) on {resolved['device']}: {backend['path']}"
    )


def what_next() -> str:
    code = "".join(f"    {line}\n" for line in YOUR_MODEL)
    return (
        "what next: export your own model (a torch.nn.Module and a tuple of example inputs)\n"
        + code
        + "and see README.md for running it, the supported ops, LLMs and the commands "
        "(python -m mlx_delegate --help)."
    )


def main(argv=None) -> int:
    _quiet.install()
    parser = argparse.ArgumentParser(prog="python -m mlx_delegate.tools.demo")
    parser.add_argument("--device", default=None, help="cpu, gpu or gpu:N (default: the best)")
    parser.add_argument("--out", type=Path, default=Path("build/demo/transformer.pte"))
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)

    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    from .. import runtime
    from .examples.transformer import seeded_transformer
    from ..compiler.partitioner import MLXPartitioner

    model = seeded_transformer()
    torch.manual_seed(1)
    tokens = torch.randint(0, model.config.vocab_size, (1, 32))
    with torch.no_grad():
        expected = model(tokens)

    exported = torch.export.export(model, (tokens,))
    edge = to_edge_transform_and_lower(exported, partitioner=[MLXPartitioner(device=args.device)])
    inside, total = delegated_share(edge)
    pte = edge.to_executorch().buffer
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(pte)

    program = Runtime.get().load_program(pte)  # the method needs its program alive
    method = program.load_method("forward")
    actual = method.execute([tokens])[0]
    latencies = median_latency(lambda: method.execute([tokens]), args.runs)
    with torch.no_grad():
        eager_latency = median_latency(lambda: model(tokens), args.runs)

    plugin = plugin_description(args.device)
    difference = (actual - expected).abs().max().item()
    print(
        f"model:            2-layer decoder-only transformer, {sum(p.numel() for p in model.parameters()):,} parameters, tokens {tuple(tokens.shape)}"
    )
    print(f"program:          {args.out} ({len(pte):,} bytes)")
    print(f"plugin:           {plugin}")
    print(f"max |mlx - eager|: {difference:.3g}")
    print(f"ops delegated:    {inside}/{total} ({100.0 * inside / total:.1f}%)")
    print(
        f"median latency:   {latencies * 1e3:.2f} ms over {args.runs} runs "
        f"(PyTorch eager on this CPU: {eager_latency * 1e3:.2f} ms)"
    )
    print()
    print(what_next())
    return 0 if difference < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
