"""The program builder: an FX walk (`walk.py`) that turns an exported
(sub)program into the MLX IR, handing each node to a registered op handler
that lowers it through the emitter API (`emitter.py`); the finaliser
(`finalize.py`) numbers the result. The partitioner runs the same builder in
dry-run mode to decide support, so partitioning and compilation cannot
disagree."""

from .emitter import Emitter, LoweredProgram
from .registry import HandlerRegistry, PatternMatch, target_key
from .slots import SlotKind, TensorSlot, Unsupported, ValueSlot, ir_dtype
from .walk import BuiltProgram, ProgramBuilder

__all__ = [
    "BuiltProgram",
    "Emitter",
    "HandlerRegistry",
    "LoweredProgram",
    "PatternMatch",
    "ProgramBuilder",
    "SlotKind",
    "TensorSlot",
    "Unsupported",
    "ValueSlot",
    "ir_dtype",
    "target_key",
]
