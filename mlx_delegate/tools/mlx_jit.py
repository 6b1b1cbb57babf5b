"""A precompiled header for MLX's CPU JIT.

MLX's CPU backend compiles each new fused kernel of a compiled function with
g++ (`g++ FLAGS -shared -I MLX/include kernel.cpp -o kernel.so`), and every
kernel source starts by including `mlx/backend/cpu/compiled_preamble.h`.
Parsing that header is most of the ~1 s each kernel costs. g++ uses
`compiled_preamble.h.gch`, when it lies next to the header and was made with
the same flags, instead of parsing the header: each kernel then compiles in
about a fifth of the time, with the same result. `make setup` makes it:

    python -m mlx_delegate precompile-jit [--force]

The flags are read from MLX's library (its command template), so the header
is precompiled exactly as MLX compiles; a header g++ cannot use (another g++,
other flags) is ignored by g++, which then parses the header as before.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

PREAMBLE = Path("mlx/backend/cpu/compiled_preamble.h")
# MLX's command template, as it sits in libmlx: g++ FLAGS -shared {} "{}" -o "{}"
_TEMPLATE = re.compile(rb"g\+\+ ((?:-[\w=+.-]+ )+)-shared \{\}")


class JitHeaderError(RuntimeError):
    pass


def mlx_root() -> Path:
    """The folder of MLX's package (a namespace package: lib/, include/, core)."""
    import mlx

    return Path(next(iter(mlx.__path__))).resolve()


def jit_flags(library: Optional[Path] = None) -> list[str]:
    """The flags MLX's CPU JIT gives g++ before `-shared`."""
    library = library or mlx_root() / "lib" / "libmlx.so"
    found = _TEMPLATE.search(library.read_bytes())
    if not found:
        raise JitHeaderError(f"{library}: no g++ command template found")
    return found.group(1).decode().split()


def precompile(include_dir: Optional[Path] = None, force: bool = False) -> Optional[Path]:
    """Writes compiled_preamble.h.gch next to the header; returns its path, or
    None when it is already newer than the header (and `force` is false)."""
    include_dir = include_dir or mlx_root() / "include"
    header = include_dir / PREAMBLE
    if not header.is_file():
        raise JitHeaderError(f"{header}: no such header (is this MLX's include folder?)")
    target = header.with_name(header.name + ".gch")
    if not force and target.exists() and target.stat().st_mtime >= header.stat().st_mtime:
        return None
    if shutil.which("g++") is None:
        raise JitHeaderError("g++ is not on PATH: MLX's CPU JIT needs it too")
    # Written beside the target and renamed: a g++ of a running JIT never sees half a file.
    fd, partial = tempfile.mkstemp(suffix=".gch.partial", dir=target.parent)
    os.close(fd)
    command = ["g++", *jit_flags(), "-x", "c++-header", "-I", str(include_dir), str(header)]
    done = subprocess.run([*command, "-o", partial], capture_output=True, text=True)
    if done.returncode != 0:
        os.unlink(partial)
        raise JitHeaderError(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    os.chmod(partial, 0o644)  # mkstemp's 0600 would hide it from other users of this MLX
    os.replace(partial, target)
    return target


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mlx_delegate precompile-jit", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--force", action="store_true", help="make it even if it is up to date")
    args = parser.parse_args(argv)
    try:
        made = precompile(force=args.force)
    except JitHeaderError as error:
        print(f"precompile-jit: {error}", file=sys.stderr)
        return 1
    where = made or mlx_root() / "include" / PREAMBLE.with_suffix(".h.gch")
    print(f"precompile-jit: {where} {'written' if made else 'is up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
