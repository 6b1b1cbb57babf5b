"""Op handlers, one module per family, each with its own `HANDLERS` registry;
`default_registry()` gathers them for the partitioner and the compiler."""

from __future__ import annotations

from functools import cache

from ..builder import HandlerRegistry
from . import (
    control_flow,
    creation,
    declared,
    elementwise,
    indexing,
    inplace,
    nn,
    patterns,
    pooling,
    reductions,
    shape,
    values,
)

FAMILIES = (
    control_flow,
    creation,
    declared,
    elementwise,
    indexing,
    inplace,
    nn,
    patterns,
    pooling,
    reductions,
    shape,
    values,
)


def register_all(registry: HandlerRegistry) -> HandlerRegistry:
    """Adds every family's handlers and patterns to `registry`; returns it."""
    for family in FAMILIES:
        registry.include(family.HANDLERS)
    return registry


@cache
def default_registry() -> HandlerRegistry:
    return register_all(HandlerRegistry())
