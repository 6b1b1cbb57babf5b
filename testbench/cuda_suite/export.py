"""The export side of the CUDA suite (here, with torch and ExecuTorch).

    python -m testbench.cuda_suite export DIR [-j N] [--dtypes fp32,bf16,fp16]
        [--resume] [--no-archive] [NAMES...]

NAMES: "ops" or "zoo" (a whole suite), an op test ("add"), one of its
configurations ("add[same_shape]") or a zoo model ("llama"); default: all.
Every configuration and model is exported as run_ops and run_models do
(framework.prepare / lower, run_models.lower_model), in each dtype, by -j
worker processes. DIR gets, per ready item, `<dtype>/ops/<case>/<label>.pte`
or `<dtype>/zoo/<model>.pte`, beside it `.in.bin` (the inputs) and
`.expected.bin` (eager's outputs in that dtype, for exactly those weights),
and `manifest.jsonl` (manifest.py: every item, n/a and failed ones with their
reason). Then DIR is packed into DIR.tar.gz, which must stay within 60 MiB
(one device call carries 64 MiB). DIR must be new or empty; --resume keeps
the ready and n/a items of an earlier export into it and exports the missing
and failed ones."""

from __future__ import annotations

import argparse
import os
import sys
import tarfile
import time
import traceback
import warnings
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from pathlib import Path
from typing import Optional

import torch

from .. import models as zoo
from ..cases import all_cases
from ..framework import NotApplicable, _flatten, lower, prepare
from ..run_models import ModelResult, lower_model, summary
from .manifest import (
    DTYPES,
    FAILED,
    NOT_APPLICABLE,
    READY,
    Item,
    append_items,
    item_files,
    parse_dtypes,
    read_manifest,
    write_manifest,
)

ARCHIVE_LIMIT_MIB = 60
TORCH_DTYPES = {key: getattr(torch, name) for key, name in DTYPES.items()}
FLOATING = (torch.float16, torch.bfloat16, torch.float32, torch.float64)

Unit = tuple  # ("ops", case name, config label) or ("zoo", model name, "")


# ---- one item ------------------------------------------------------------------------


def export_unit(directory: str, unit: Unit, dtypes: list[str]) -> list[Item]:
    """The unit's items, one per dtype, their files written into `directory`."""
    suite, name, label = unit
    items = []
    for dtype in dtypes:
        start = time.perf_counter()
        if suite == "ops":
            item = export_op(Path(directory), name, label, dtype)
        else:
            item = export_model(Path(directory), name, dtype)
        item.seconds = round(time.perf_counter() - start, 2)
        items.append(item)
    return items


def export_op(directory: Path, case_name: str, label: str, dtype: str) -> Item:
    case = all_cases()[case_name]
    config = next(c for c in case.configs() if c.label == label)
    item = Item("ops", f"{case_name}[{label}]", dtype)
    item.tolerances = {_name(d): list(case.tolerance(d)) for d in FLOATING}
    cast = None if dtype == "fp32" else TORCH_DTYPES[dtype]  # fp32: as written
    try:
        model, inputs, expected = prepare(case, config, cast)
    except NotApplicable as error:
        return _not_applicable(item, str(error))
    except Exception as error:
        if cast is not None:  # eager cannot run the configuration in this dtype
            return _not_applicable(item, f"PyTorch eager fails in {cast}: {summary(error)}")
        return _failed(item, "eager", summary(error))
    try:
        lowering = lower(model, inputs, config, device=None)
    except Exception as error:
        return _failed(item, "export", _last_frames(error))
    if lowering.calls == 0 and cast is not None:
        return _not_applicable(item, f"nothing to compute in {cast} (the op became a no-op)")
    if lowering.problem:
        return _failed(item, "export", lowering.problem)
    return _write(directory, item, lowering.pte, inputs, _flatten(expected))


def export_model(directory: Path, name: str, dtype: str) -> Item:
    case = zoo.all_models()[name]
    item = Item("zoo", name, dtype)
    item.tolerances = {_name(d): list(t) for d, t in case.tolerances.items()}
    torch_dtype = TORCH_DTYPES[dtype]
    result = ModelResult(name, _name(torch_dtype))
    try:
        lowered = lower_model(case, torch_dtype, result, device=None)
    except Exception as error:
        if result.stage in ("build", "eager") and dtype != "fp32":
            why = f"PyTorch eager fails in {torch_dtype}: {summary(error)}"
            return _not_applicable(item, why)
        return _failed(item, result.stage, summary(error))
    if result.problems:
        return _failed(item, "lower", "; ".join(result.problems))
    return _write(directory, item, lowered.pte, lowered.inputs, lowered.expected)


def _write(directory: Path, item: Item, pte: bytes, inputs, expected: list) -> Item:
    from mlx_delegate.formats.tensor_bin import write_tensors

    item.files = item_files(item.suite, item.name, item.dtype)
    paths = {key: directory / rel for key, rel in item.files.items()}
    paths["pte"].parent.mkdir(parents=True, exist_ok=True)
    paths["pte"].write_bytes(pte)
    write_tensors(paths["inputs"], list(inputs))
    write_tensors(paths["expected"], expected)
    item.status = READY
    return item


def _not_applicable(item: Item, reason: str) -> Item:
    item.status, item.reason = NOT_APPLICABLE, reason
    return item


def _failed(item: Item, stage: str, reason: str) -> Item:
    item.status, item.stage, item.reason = FAILED, stage, reason
    return item


def _last_frames(error: BaseException) -> str:
    """The exception with the last frames of its traceback (where a lowering broke)."""
    frames = traceback.format_exception(error, limit=-2)
    return "".join(frames).strip()


def _name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


# ---- the work ------------------------------------------------------------------------


def select(names: list[str]) -> list[Unit]:
    """Work units, zoo models first (the longest), then op configurations."""
    cases, models = all_cases(), zoo.all_models()
    op_units, zoo_units = [], []
    for name in names or ["zoo", "ops"]:
        base, _, label = name.partition("[")
        label = label.removesuffix("]")
        if name == "ops":
            op_units += [("ops", c, cfg.label) for c in sorted(cases) for cfg in cases[c].configs()]
        elif name == "zoo":
            zoo_units += [("zoo", m, "") for m in sorted(models)]
        elif base in cases:
            labels = [c.label for c in cases[base].configs()]
            if label and label not in labels:
                raise KeyError(name)
            op_units += [("ops", base, lb) for lb in ([label] if label else labels)]
        elif base in models and not label:
            zoo_units.append(("zoo", base, ""))
        else:
            raise KeyError(name)
    return list(dict.fromkeys(zoo_units + op_units))


def _init_worker() -> None:
    warnings.simplefilter("ignore")  # torch's deprecation warnings, once per config
    torch.set_num_threads(1)  # the workers share the cores


def export_all(directory: Path, units: list[Unit], dtypes: list[str], jobs: int) -> None:
    """Exports the units' items, appending each to the manifest as it ends."""
    progress = Progress(len(units))
    if jobs <= 1:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for unit in units:
                items = _guarded(str(directory), unit, dtypes)
                append_items(directory, items)
                progress.done(items)
        return
    context = get_context("spawn")
    # No max_tasks_per_child: Python 3.11's pool can hang replacing a worker.
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_init_worker) as pool:
        futures = [pool.submit(_guarded, str(directory), u, dtypes) for u in units]
        for future in as_completed(futures):
            items = future.result()
            append_items(directory, items)
            progress.done(items)


def _guarded(directory: str, unit: Unit, dtypes: list[str]) -> list[Item]:
    """export_unit, where an unexpected exception fails the unit's items."""
    try:
        return export_unit(directory, unit, dtypes)
    except Exception as error:
        name = unit[1] + (f"[{unit[2]}]" if unit[0] == "ops" else "")
        return [_failed(Item(unit[0], name, d), "export", _last_frames(error)) for d in dtypes]


class Progress:
    """A progress line on stderr every 2% of the units (or 20 s)."""

    def __init__(self, total: int):
        self.total, self.count, self.start, self.last = total, 0, time.monotonic(), 0.0
        self.status: dict = {READY: 0, NOT_APPLICABLE: 0, FAILED: 0}

    def done(self, items: list[Item]) -> None:
        self.count += 1
        for item in items:
            self.status[item.status] += 1
        now = time.monotonic()
        step = max(1, self.total // 50)
        if self.count % step and now - self.last < 20 and self.count != self.total:
            return
        self.last = now
        elapsed = now - self.start
        left = elapsed / self.count * (self.total - self.count)
        print(
            f"exported {self.count}/{self.total} units: {self.status[READY]} ready, "
            f"{self.status[NOT_APPLICABLE]} n/a, {self.status[FAILED]} failed; "
            f"{elapsed:.0f} s, ~{left:.0f} s left",
            file=sys.stderr,
            flush=True,
        )


# ---- the archive ---------------------------------------------------------------------


def pack(directory: Path, archive: Path, items: list[Item]) -> int:
    """Packs the manifest and the ready items' files; returns the archive's size."""
    with tarfile.open(archive, "w:gz", compresslevel=9) as tar:
        tar.add(directory / "manifest.jsonl", arcname=f"{directory.name}/manifest.jsonl")
        for item in items:
            for rel in item.files.values():
                tar.add(directory / rel, arcname=f"{directory.name}/{rel}")
    return archive.stat().st_size


def summarize(items: list[Item], dtypes: list[str]) -> str:
    lines = ["dtype  suite  ready  n/a  failed"]
    for dtype in dtypes:
        for suite in ("ops", "zoo"):
            mine = [i for i in items if i.dtype == dtype and i.suite == suite]
            count = {s: sum(i.status == s for i in mine) for s in (READY, NOT_APPLICABLE, FAILED)}
            lines.append(
                f"{dtype:5s}  {suite:5s}  {count[READY]:5d}  {count[NOT_APPLICABLE]:3d}"
                f"  {count[FAILED]:6d}"
            )
    for item in items:
        if item.status == FAILED:
            lines.append(
                f"export FAIL {item.suite} {item.name} [{item.dtype}] ({item.stage}): "
                + item.reason.splitlines()[-1][:300]
            )
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m testbench.cuda_suite export")
    parser.add_argument("directory", type=Path)
    parser.add_argument("names", nargs="*", help="ops, zoo, op tests, configurations, models")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--dtypes", default=",".join(DTYPES), help="default: fp32,bf16,fp16")
    parser.add_argument(
        "--resume",
        action="store_true",
        help="keep DIR's ready and n/a items, export the missing and failed ones",
    )
    parser.add_argument("--no-archive", dest="archive", action="store_false")
    args = parser.parse_intermixed_args(argv)
    try:
        dtypes = parse_dtypes(args.dtypes)
        units = select(args.names)
    except (KeyError, ValueError) as error:
        print(f"export: unknown name or dtype: {error}", file=sys.stderr)
        return 2
    directory = args.directory.resolve()
    if directory.exists() and any(directory.iterdir()) and not args.resume:
        print(f"export: {directory} is not empty (--resume continues it)", file=sys.stderr)
        return 2
    directory.mkdir(parents=True, exist_ok=True)
    done = {i.key for i in read_manifest(directory) if i.status != FAILED}  # failed: again
    todo = [u for u in units if any(_key(u, d) not in done for d in dtypes)]
    print(
        f"exporting {len(todo)} of {len(units)} units in {', '.join(dtypes)} "
        f"into {directory} ({args.jobs} processes)",
        file=sys.stderr,
    )
    export_all(directory, todo, dtypes, args.jobs)
    items = read_manifest(directory)
    write_manifest(directory, items)
    print(summarize(items, dtypes))
    if not args.archive:
        return 0
    archive = directory.with_name(directory.name + ".tar.gz")
    size = pack(directory, archive, [i for i in items if i.status == READY])
    print(f"archive: {archive} ({size / 2**20:.1f} MiB)")
    if size > ARCHIVE_LIMIT_MIB * 2**20:
        print(f"export: the archive is over {ARCHIVE_LIMIT_MIB} MiB", file=sys.stderr)
        return 1
    return 0


def _key(unit: Unit, dtype: str) -> tuple:
    suite, name, label = unit
    return (suite, f"{name}[{label}]" if suite == "ops" else name, dtype)
