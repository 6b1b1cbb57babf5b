"""In-place variants of the elementwise ops (`relu_`, `add_.Tensor`, `pow_`,
...): the functional op's lowering, with the result allowed to take the first
operand's storage. They come from the re-inplacing pass
(`passes/reinplace.py`) inside the delegate, or from a program that was never
functionalized."""

from __future__ import annotations

import torch
from torch.fx import Node

from ..builder import HandlerRegistry, TensorSlot
from ..builder.emitter import Emitter
from ..passes.reinplace import in_place_overload
from . import declared, elementwise
from .common import aten_overload

HANDLERS = HandlerRegistry()

# Their in-place forms store a truth value in the operand's dtype, which the
# functional lowering (a bool result) does not.
BOOL_RESULTS = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or"}
BOOL_RESULTS |= {"logical_xor", "logical_not"}
# Export rewrites floor_divide as div.Tensor_mode before partitioning: neither
# it nor an in-place form of it reaches a delegate (div_.Tensor_mode does).
UNREACHED = {"floor_divide"}


class _AsFunctional:
    """`node` with its functional op as target, for handlers that dispatch on
    the target. It hashes and compares as `node`, so what a handler binds to
    it is bound to the node."""

    def __init__(self, node: Node, functional: torch._ops.OpOverload):
        self._node = node
        self.target = functional

    def __getattr__(self, name: str):
        return getattr(self._node, name)

    def __hash__(self) -> int:
        return hash(self._node)

    def __eq__(self, other: object) -> bool:
        return other is self._node or other is self


def in_place(functional_handler, functional: torch._ops.OpOverload):
    def lower(b: Emitter, node: Node) -> None:
        functional_handler(b, _AsFunctional(node, functional))
        result, operand = b.slot(node), b.slot(node.args[0])
        if isinstance(result, TensorSlot) and isinstance(operand, TensorSlot):
            b.reuse(result, operand)

    lower.__doc__ = f"{functional} in place"
    return lower


def _register_variants() -> None:
    for family in (elementwise, declared):
        for key, handler in family.HANDLERS.handlers().items():
            if not isinstance(key, str) or not key.startswith("aten::"):
                continue
            functional = aten_overload(key)
            if functional.overloadpacket.__name__ in BOOL_RESULTS | UNREACHED:
                continue
            variant = in_place_overload(functional)
            if variant is not None:
                HANDLERS.register([variant])(in_place(handler, functional))


_register_variants()
