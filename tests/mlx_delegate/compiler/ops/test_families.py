"""mlx_delegate/compiler/ops/__init__.py: the handler families are the package's modules,
listed; each one's HANDLERS goes into the registry by register_all, not on import."""

from __future__ import annotations

from pathlib import Path

import pytest

import mlx_delegate.compiler.ops as ops
from mlx_delegate.compiler.builder import HandlerRegistry
from mlx_delegate.compiler.ops import declared


def test_every_module_but_the_helpers_is_a_family():
    on_disk = sorted(p.stem for p in Path(ops.__file__).parent.glob("*.py"))
    expected = [n for n in on_disk if not n.startswith("_") and n not in ops.HELPERS]
    assert list(ops.family_names()) == expected
    assert "declared" in expected and "common" not in expected


def test_register_all_includes_each_familys_handlers():
    registry = ops.register_all(HandlerRegistry())
    targets = set(registry.targets())
    for family in ops.families():
        assert set(family.HANDLERS.targets()) <= targets, family.__name__
    assert targets == set(ops.default_registry().targets())


def test_a_module_without_handlers_is_named(monkeypatch):
    monkeypatch.setattr(ops, "HELPERS", ops.HELPERS - {"common"})
    with pytest.raises(
        ImportError, match=r"mlx_delegate\.compiler\.ops\.common: a family module needs"
    ):
        ops.families()


def test_the_declared_handlers_are_built_from_the_list_given():
    assert declared.declared_handlers(()).targets() == []
    some = declared.DECLARED_OPS[:2]
    built = declared.declared_handlers(some)
    assert built.targets() and set(built.targets()) <= set(declared.HANDLERS.targets())
