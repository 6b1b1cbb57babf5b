"""Times of `python -m codegen generate` for schema/schema.fbs, by phase, cold
(empty format cache, empty output folder) and warm (cache filled, output up to
date), plus whole-command times for the cases that matter when working:
`generate --skip-flatc` and `--check` with the schema unchanged, and
`generate` after adding one op.

    python bench/codegen.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from codegen.pipeline import Request, run  # noqa: E402

PHASES = ("parse+validate", "render", "format", "flatc", "write")
NEW_OP = "\ntable BenchExtraNode { x: Tid (required); out: Tid (required); alpha: float = 0.5; }\n"


def phase_row(label: str, request: Request) -> list[str]:
    start = time.perf_counter()
    result = run(request)
    total = time.perf_counter() - start
    seconds = result.timings.seconds
    return [label] + [f"{seconds.get(p, 0.0) * 1000:.0f}" for p in PHASES] + [f"{total * 1000:.0f}"]


def command_seconds(args: list[str], cwd: Path, env: dict, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "codegen", "generate", *args],
            cwd=cwd,
            env=env,
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def add_one_op(schema: Path) -> None:
    text = schema.read_text().replace(
        "  IntBinaryNode,\n}", "  IntBinaryNode,\n  BenchExtraNode,\n}"
    )
    schema.write_text(text + NEW_OP)


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    line = lambda r: "  ".join(
        c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))
    )
    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory(prefix="bench-codegen-") as tmp:
        work = Path(tmp)
        (work / "schema").mkdir()
        shutil.copy(REPO / "schema" / "schema.fbs", work / "schema" / "schema.fbs")
        shutil.copy(REPO / ".clang-format", work / ".clang-format")
        cache = work / "cache"
        env = {**os.environ, "PYTHONPATH": str(REPO), "MLXD_CODEGEN_CACHE": str(cache)}
        os.chdir(work)
        request = Request(schema=Path("schema/schema.fbs"), out=work / "generated", cache_dir=cache)
        rows = [
            phase_row("cold (empty cache and output)", request),
            phase_row("warm (cache filled, output up to date)", request),
        ]
        print("phases of one in-process run, milliseconds")
        print(table(["run"] + list(PHASES) + ["total"], rows))

        commands = [
            ("generate --skip-flatc, schema unchanged", ["--skip-flatc"], 0.5),
            ("generate --check, schema unchanged", ["--check"], 0.5),
        ]
        results = [
            [label, f"{command_seconds(args, work, env, repeat):.2f}", f"{target:.1f}"]
            for label, args, target in commands
        ]
        add_one_op(work / "schema" / "schema.fbs")
        added = command_seconds([], work, env, 1)  # flatc's outputs change too
        results.append(["generate after adding one op", f"{added:.2f}", "3.0"])
        print(f"\nwhole commands (python start-up included), median of {repeat}, seconds")
        print(table(["command", "seconds", "target"], results))


if __name__ == "__main__":
    main()
