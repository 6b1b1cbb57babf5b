"""What the two sides of the CUDA suite share: the dtypes, the items of the
manifest and where their files go. No torch here (the run side imports it)."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

# The suite's dtypes: short name -> the torch / .bin dtype name.
DTYPES = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16"}
SUITES = ("ops", "zoo")
MANIFEST = "manifest.jsonl"

READY, NOT_APPLICABLE, FAILED = "ready", "n/a", "fail"


@dataclass
class Item:
    """One configuration or model in one dtype, as exported."""

    suite: str  # "ops" or "zoo"
    name: str  # "add[same_shape]", "llama"
    dtype: str  # a key of DTYPES
    status: str = FAILED  # READY (files written), NOT_APPLICABLE or FAILED
    reason: str = ""  # why n/a or failed
    stage: str = ""  # the export step that failed: eager, export, lower...
    files: dict = field(default_factory=dict)  # pte / inputs / expected, relative to DIR
    tolerances: dict = field(default_factory=dict)  # output dtype name -> [rtol, atol]
    seconds: float = 0.0  # export time

    @property
    def key(self) -> tuple:
        return (self.suite, self.name, self.dtype)


def item_files(suite: str, name: str, dtype: str) -> dict:
    """The item's files, relative to the suite directory:
    `<dtype>/<suite>/<case>/<label>.*` for "case[label]", `<dtype>/<suite>/<name>.*`."""
    parts = name.removesuffix("]").split("[", 1)
    stem = "/".join([dtype, suite] + [re.sub(r"[^A-Za-z0-9_.=-]+", "_", p) for p in parts])
    return {"pte": stem + ".pte", "inputs": stem + ".in.bin", "expected": stem + ".expected.bin"}


def read_manifest(directory: Path) -> list[Item]:
    """The items of DIR's manifest; a later line for the same item wins."""
    path = Path(directory) / MANIFEST
    if not path.is_file():
        return []
    items = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.strip():
            try:
                item = Item(**json.loads(line))
            except (ValueError, TypeError) as error:
                raise ValueError(f"{path}:{number}: not a manifest item ({error})") from None
            items[item.key] = item
    return list(items.values())


def append_items(directory: Path, items: list[Item]) -> None:
    with open(Path(directory) / MANIFEST, "a") as out:
        for item in items:
            out.write(json.dumps(asdict(item), sort_keys=True) + "\n")


def write_manifest(directory: Path, items: list[Item]) -> None:
    """Rewrites the manifest, one line per item, sorted."""
    path = Path(directory) / MANIFEST
    tmp = path.with_suffix(".tmp")
    tmp.write_text(
        "".join(json.dumps(asdict(i), sort_keys=True) + "\n" for i in sorted(items, key=sort_key))
    )
    tmp.replace(path)


def sort_key(item: Item) -> tuple:
    return (SUITES.index(item.suite), item.name, list(DTYPES).index(item.dtype))


def parse_dtypes(text: str) -> list[str]:
    dtypes = [d.strip() for d in text.split(",") if d.strip()]
    unknown = [d for d in dtypes if d not in DTYPES]
    if unknown or not dtypes:
        raise ValueError(f"unknown dtypes {unknown}: choose from {', '.join(DTYPES)}")
    return dtypes
