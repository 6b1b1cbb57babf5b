"""The collectives' custom ops (mlx_delegate/compiler/collectives.py), each lowered to
one node that the plugin runs on its process's group."""

from __future__ import annotations

from torch.fx import Node

from ..builder import HandlerRegistry
from ..builder.emitter import Emitter
from ...formats.ir import schema as ir

HANDLERS = HandlerRegistry()

# Registered by name: the ops exist once mlx_delegate.compiler.collectives is imported,
# which building the model that calls them did.
ALL_SUM = "mlx_delegate::all_sum"
ALL_GATHER = "mlx_delegate::all_gather"


@HANDLERS.register([ALL_SUM])
def all_sum(b: Emitter, node: Node) -> None:
    x, group_size = node.args
    b.emit(ir.AllSumNode(x=b.tensor_slot(x).tid, group_size=group_size, out=b.out(node).tid))


@HANDLERS.register([ALL_GATHER])
def all_gather(b: Emitter, node: Node) -> None:
    x, group_size = node.args
    b.emit(ir.AllGatherNode(x=b.tensor_slot(x).tid, group_size=group_size, out=b.out(node).tid))
