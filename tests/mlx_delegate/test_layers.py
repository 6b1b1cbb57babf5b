"""The package's layers (README.md, "Layout"): a module imports only from its own
layer and the layers below it, and the compiler and the runtime, side by side,
import neither each other. Every import statement counts, those inside
functions too: a lazy import is still a dependency."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "mlx_delegate"

# Lowest first. A top-level module or folder of mlx_delegate -> its layer.
LAYERS = (
    ("base", {"__init__", "_layout", "_logging", "_quiet", "_progress"}),
    ("formats", {"formats"}),
    ("compiler", {"compiler"}),
    ("runtime", {"runtime", "host"}),
    ("llm", {"llm"}),
    ("asr", {"asr"}),
    ("tools", {"tools", "__main__"}),
)
RANK = {"base": 0, "formats": 1, "compiler": 2, "runtime": 2, "llm": 3, "asr": 4, "tools": 5}
LAYER_OF = {part: layer for layer, parts in LAYERS for part in parts}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, text: str) -> list[tuple[int, str]]:
    """(line, absolute module) of every import of an mlx_delegate module in a file."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # `from pkg import sub`: sub may be a module of its own layer
            found += [(node.lineno, f"{target}.{a.name}") for a in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] == "mlx_delegate"]


def layer_of(module: str) -> str:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    if top not in LAYER_OF:
        raise KeyError(f"{module}: mlx_delegate/{top} is in no layer (add it to LAYERS)")
    return LAYER_OF[top]


def violations(path: Path, text: str | None = None) -> list[str]:
    own = layer_of(_module_name(path))
    bad = []
    for line, target in _imports(path, path.read_text() if text is None else text):
        theirs = layer_of(target) if target.split(".")[1:2] != [""] else "base"
        higher = RANK[theirs] > RANK[own]
        sideways = RANK[theirs] == RANK[own] and theirs != own
        if higher or sideways:
            bad.append(
                f"{path.relative_to(PACKAGE.parent)}:{line}: {own} imports {target} ({theirs})"
            )
    return bad


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer():
    for path in SOURCES:
        layer_of(_module_name(path))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_down(path):
    assert violations(path) == []


@pytest.mark.parametrize(
    "module, line, found",
    [
        ("formats/tensor_bin.py", "from ..compiler import partitioner", "formats imports"),
        ("compiler/preprocess.py", "from .. import runtime", "compiler imports"),
        ("host/backends.py", "from ..compiler.ops import quantized", "runtime imports"),
        ("runtime.py", "from .compiler import partitioner", "runtime imports"),
        ("llm/export.py", "import mlx_delegate.asr.audio", "llm imports"),
    ],
)
def test_an_upward_or_sideways_import_is_caught(module, line, found):
    """The check itself can fail."""
    path = PACKAGE / module
    assert any(found in v for v in violations(path, path.read_text() + f"\n{line}\n"))
