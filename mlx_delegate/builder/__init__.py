"""The program builder: an FX walk that turns an exported (sub)program into the
MLX IR, dispatching each node to a registered op handler. The partitioner runs
the same builder in dry-run mode to decide support, so partitioning and
compilation cannot disagree."""

from .program_builder import BuiltProgram, ProgramBuilder, Unsupported
from .registry import REGISTRY

__all__ = ["BuiltProgram", "ProgramBuilder", "Unsupported", "REGISTRY"]
