"""Op handlers, one module per family, each with its own `HANDLERS` registry;
`register_all` adds every family's to a registry, and `default_registry()` is
that registry for the partitioner and the compiler. The families are the
modules of this package, listed (`family_names`), so a new one (such as the
module `python -m codegen add-op` writes) needs no file edited; HELPERS are the
modules of shared code, not families."""

from __future__ import annotations

import pkgutil
from functools import cache
from importlib import import_module
from types import ModuleType

from ..builder import HandlerRegistry

HELPERS = frozenset({"common"})


def family_names() -> tuple[str, ...]:
    """The family modules' names, in order (`__main__` and private modules aside)."""
    return tuple(
        module.name
        for module in pkgutil.iter_modules(__path__)
        if not module.name.startswith("_") and module.name not in HELPERS
    )


def families() -> tuple[ModuleType, ...]:
    modules = tuple(import_module(f"{__name__}.{name}") for name in family_names())
    without = [
        m.__name__ for m in modules if not isinstance(getattr(m, "HANDLERS", None), HandlerRegistry)
    ]
    if without:
        raise ImportError(
            f"{', '.join(without)}: a family module needs a module-level HANDLERS registry "
            f"(a module of shared code goes into HELPERS, {__name__})"
        )
    return modules


def register_all(registry: HandlerRegistry) -> HandlerRegistry:
    """Adds every family's handlers and patterns to `registry`; returns it."""
    for family in families():
        registry.include(family.HANDLERS)
    return registry


@cache
def default_registry() -> HandlerRegistry:
    return register_all(HandlerRegistry())
