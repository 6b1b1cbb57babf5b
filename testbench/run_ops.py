"""Runs the registered op tests.

    python -m testbench.run_ops [-j N] [--list] [--device cpu] [--export-only] [NAMES...]

Each configuration exports with MLXPartitioner, checks what was delegated, runs
the .pte through executorch.runtime and compares with PyTorch eager. Exits 1
when any configuration fails. Configurations that can share a program run in
batches (batching.py; `MLXD_OP_BATCH=1` runs each alone); a configuration its
batch does not show passing runs alone, which reports its outcome."""

from __future__ import annotations

import argparse
import sys
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Iterator

from mlx_delegate import _quiet
from mlx_delegate._progress import progress
from .batching import plan, run_batch
from .cases import all_cases
from .framework import Outcome, run_config


def run_one(name: str, label: str, device: str, execute: bool = True) -> Outcome:
    case = all_cases()[name]
    config = next(c for c in case.configs() if c.label == label)
    try:
        return run_config(case, config, device, execute)
    except Exception:  # a failure of one configuration is a result, not the end of the run
        return Outcome(name, label, False, traceback.format_exc(limit=-3).strip())


def run_unit(unit: list[tuple[str, str]], device: str, execute: bool = True) -> list[Outcome]:
    """Outcomes of a work unit: one configuration, or a batch (plan)."""
    if len(unit) == 1:
        return [run_one(*unit[0], device, execute)]
    cases = all_cases()
    pairs = [
        (cases[name], next(c for c in cases[name].configs() if c.label == label))
        for name, label in unit
    ]
    try:
        batched = run_batch(pairs, device, execute)
    except Exception:  # every configuration then runs alone
        batched = [None] * len(unit)
    return [
        outcome or run_one(name, label, device, execute)
        for outcome, (name, label) in zip(batched, unit)
    ]


def run_units(
    units: list[list[tuple[str, str]]], device: str, execute: bool, jobs: int
) -> list[Outcome]:
    """The outcomes of every unit, with a progress bar over the configurations."""
    outcomes = []
    with progress(total=sum(map(len, units)), description="op tests", unit="config") as bar:
        for finished in _finished_units(units, device, execute, jobs):
            outcomes += finished
            bar.update(len(finished))
    return outcomes


def _finished_units(units, device: str, execute: bool, jobs: int) -> Iterator[list[Outcome]]:
    """Each unit's outcomes as the unit finishes, `jobs` units at a time."""
    if jobs <= 1:
        yield from (run_unit(unit, device, execute) for unit in units)
        return
    context = get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_quiet.install) as pool:
        futures = [pool.submit(run_unit, unit, device, execute) for unit in units]
        yield from (future.result() for future in as_completed(futures))


def main(argv=None) -> int:
    _quiet.install()
    parser = argparse.ArgumentParser(prog="python -m testbench.run_ops")
    parser.add_argument("names", nargs="*", help="op tests to run (default: all)")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument(
        "--list", action="store_true", help="list the tests and their configurations"
    )
    parser.add_argument("--device", default="cpu")
    parser.add_argument(
        "--export-only", action="store_true", help="export and check delegation only"
    )
    args = parser.parse_args(argv)
    cases = all_cases()
    unknown = [n for n in args.names if n not in cases]
    if unknown:
        print(f"unknown op tests: {', '.join(unknown)}", file=sys.stderr)
        return 2
    selected = [cases[n] for n in (args.names or sorted(cases))]
    work = [(case.name, config.label) for case in selected for config in case.configs()]
    if args.list:
        for case in selected:
            print(f"{case.name}: {', '.join(c.label for c in case.configs())}")
        print(f"{len(selected)} tests, {len(work)} configurations")
        return 0
    units = [
        [(case.name, config.label) for case, config in unit]
        for unit in plan([(case, config) for case in selected for config in case.configs()])
    ]
    units.sort(key=len, reverse=True)  # batches first: the workers finish together
    execute = not args.export_only
    by_config = {(o.case, o.config): o for o in run_units(units, args.device, execute, args.jobs)}
    outcomes = [by_config[key] for key in work]
    for outcome in outcomes:
        status = "PASS" if outcome.passed else "FAIL"
        print(
            f"{status} {outcome.case}[{outcome.config}]"
            + ("" if outcome.passed else f": {outcome.message}")
        )
    failed = sum(not o.passed for o in outcomes)
    print(f"{len(outcomes) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
