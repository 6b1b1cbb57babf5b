"""Graph passes over programs on their way to the delegate."""

from .pre_decomposition import rewrite_non_core_ops

__all__ = ["rewrite_non_core_ops"]
