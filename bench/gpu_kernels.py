"""The device kernels of one decode step, on the GPU machine: a generation
command run twice under Nsight Compute (`ncu`, which times every kernel on its
own), with FEW and MANY new tokens; the difference between the two runs' kernel
lists, divided by the steps between them, is one decode step's kernels: how
many of each a step launches and how long the device spends in them.

    python3 bench/gpu_kernels.py --tokens 4 8 --steps-per-token 1 -- \\
        BUILD/mlxd-generate model.pte --device gpu:0 --max-new-tokens {N} ...

`{N}` in the command is replaced by each token count. `--steps-per-token 2`
when the command generates twice (a warm-up, then the timed run). Prints a
table: kernel (demangled name, cut), launches a step, µs a step, and the sum.
The kernels run one at a time under ncu, so their sum is the device's busy
time of a step without the gaps between launches. The launch counts are exact;
the times are differences of two runs and carry their noise (seen: a kernel of
a prompt's first calls up to a millisecond apart, a row below zero), so
compare sums over several steps, not single rows.

    python3 bench/gpu_kernels.py --once 2 -- COMMAND ...

runs the command once and prints every kernel it launched, launches and time
divided by the given count (e.g. the windows a transcription encodes, its
warm-up's included): where a whole encoder's device time goes, ours against a
peer's."""

from __future__ import annotations

import argparse
import csv
import io
import subprocess
import sys
from collections import defaultdict

NAME_WIDTH = 90


def kernels(command: list[str]) -> dict[str, tuple[int, float]]:
    """{kernel name: (launches, total ns)} of one run under ncu."""
    ncu = ["ncu", "--csv", "--metrics", "gpu__time_duration.sum", "--print-units", "base",
           "--graph-profiling", "node"]  # fmt: skip
    result = subprocess.run(ncu + command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"ncu failed ({result.returncode}):\n{result.stderr[-4000:]}")
    lines = [line for line in result.stdout.splitlines() if line.startswith('"')]
    if len(lines) < 2:
        sys.exit(f"ncu reported no kernels:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    table: dict[str, list] = defaultdict(lambda: [0, 0.0])
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        if row.get("Metric Name") != "gpu__time_duration.sum":
            continue
        name = row["Kernel Name"][:NAME_WIDTH]
        table[name][0] += 1
        table[name][1] += float(row["Metric Value"].replace(",", ""))
    return {name: (count, ns) for name, (count, ns) in table.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tokens", type=int, nargs=2, default=[4, 8], metavar=("FEW", "MANY"))
    parser.add_argument("--steps-per-token", type=int, default=1)
    parser.add_argument("--label", default="")
    parser.add_argument("--once", type=int, default=None, metavar="RUNS",
                        help="one run, its kernels divided by RUNS")  # fmt: skip
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if args.once:
        few, many, steps = {}, kernels(command), args.once
        heading = f"one run's kernels, divided by {steps}"
    else:
        few, many = (
            kernels([part.replace("{N}", str(n)) for part in command]) for n in args.tokens
        )
        steps = (args.tokens[1] - args.tokens[0]) * args.steps_per_token
        heading = f"one decode step's kernels ({steps} steps apart)"
    rows = []
    for name in set(few) | set(many):
        count = (many.get(name, (0, 0))[0] - few.get(name, (0, 0))[0]) / steps
        ns = (many.get(name, (0, 0.0))[1] - few.get(name, (0, 0.0))[1]) / steps
        if count > 0:
            rows.append((ns, count, name))
    rows.sort(reverse=True)
    print(f"\n{args.label}: {heading}\n")
    print("| kernel | launches | µs |\n|---|---:|---:|")
    for ns, count, name in rows:
        print(f"| `{name}` | {count:.1f} | {ns / 1e3:.1f} |")
    print(f"| all | {sum(r[1] for r in rows):.1f} | {sum(r[0] for r in rows) / 1e3:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
