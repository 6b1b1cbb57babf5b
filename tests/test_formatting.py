"""Hand-written code keeps the project's formatting: black for Python, clang-format
(.clang-format) for C++. generated/ is formatted by the generator and checked by
`python -m codegen generate --check`.

To format: `black codegen mlx_delegate tests bench runtime_cpp` and
`git ls-files 'runtime_cpp/*.cpp' 'runtime_cpp/*.h' | xargs clang-format -i`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TOOLS = Path(sys.executable).parent


def _tracked(*patterns: str) -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--", *patterns], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.split()
    return [path for path in listed if not path.startswith("generated/")]


def test_python_is_black_formatted():
    files = _tracked("*.py")
    assert files
    result = subprocess.run(
        [sys.executable, "-m", "black", "--check", *files], cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr


def test_cpp_is_clang_formatted():
    files = _tracked("runtime_cpp/*.cpp", "runtime_cpp/*.h")
    assert files
    result = subprocess.run(
        [str(TOOLS / "clang-format"), "--dry-run", "--Werror", *files],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-3000:]
