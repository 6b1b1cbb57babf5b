"""Op handlers, one module per family, each with its own `HANDLERS` registry;
`default_registry()` gathers them for the partitioner and the compiler."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from ..builder import HandlerRegistry

FAMILY_NAMES = (
    "collectives",
    "control_flow",
    "creation",
    "declared",
    "elementwise",
    "experts",
    "indexing",
    "inplace",
    "nn",
    "patterns",
    "pooling",
    "quantized",
    "reductions",
    "rope",
    "sample",
    "shape",
    "values",
)
FAMILIES = tuple(import_module(f"{__name__}.{name}") for name in FAMILY_NAMES)


def register_all(registry: HandlerRegistry) -> HandlerRegistry:
    """Adds every family's handlers and patterns to `registry`; returns it."""
    for family in FAMILIES:
        registry.include(family.HANDLERS)
    return registry


@cache
def default_registry() -> HandlerRegistry:
    return register_all(HandlerRegistry())
