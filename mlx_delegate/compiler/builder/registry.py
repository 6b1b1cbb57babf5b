"""Registries of op handlers: ATen target -> function(emitter, node), and the
patterns tried at every node. Each handler module fills its own `HANDLERS`;
`mlx_delegate.compiler.ops.register_all` gathers them into the registry a build uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Optional

# handler(emitter: Emitter, node: torch.fx.Node) emits IR nodes or raises Unsupported.
Handler = Callable[..., None]


@dataclass(frozen=True)
class PatternMatch:
    """Nodes a multi-node pattern lowers together (its anchor, the last, among
    them) and how: `lower(emitter)` emits IR for all of them and binds the anchor."""

    name: str
    nodes: tuple
    lower: Callable[..., None]
    # Nodes outside the match whose form it relies on (a rope's cos and sin
    # tables): rewrites such as re-inplacing must leave them as they are.
    inspected: tuple = ()


class HandlerRegistry:
    def __init__(self) -> None:
        self._handlers: dict[object, Handler] = {}
        self._keep_whole: list[object] = []
        self._patterns: list[Callable[..., Optional[PatternMatch]]] = []

    def register_pattern(self, matcher: Callable[..., Optional[PatternMatch]]):
        """Registers `matcher(node) -> PatternMatch | None`, tried at every node."""
        self._patterns.append(matcher)
        return matcher

    def patterns(self) -> list:
        return list(self._patterns)

    def include(self, other: "HandlerRegistry") -> None:
        """Adds `other`'s handlers, kept-whole targets and patterns to this one."""
        for key, handler in other._handlers.items():
            if key in self._handlers:
                raise ValueError(f"two handlers for {key}")
            self._handlers[key] = handler
        self._keep_whole.extend(other._keep_whole)
        self._patterns.extend(other._patterns)

    def register(self, target: Iterable[object] | object, *, keep_whole: bool = False):
        """Registers the decorated function for one or more targets. `keep_whole`
        asks ExecuTorch not to decompose the op before partitioning (we lower it
        as one node, e.g. linear or scaled_dot_product_attention)."""
        targets = list(target) if isinstance(target, (list, tuple)) else [target]

        def decorate(handler: Handler) -> Handler:
            for t in targets:
                if target_key(t) in self._handlers:
                    raise ValueError(f"two handlers for {t}")
                self._handlers[target_key(t)] = handler
                if keep_whole:
                    self._keep_whole.append(t)
            return handler

        return decorate

    def lookup(self, target: object) -> Optional[Handler]:
        return self._handlers.get(target_key(target))

    def targets(self) -> list[object]:
        return list(self._handlers)

    def keep_whole(self) -> list[object]:
        return list(self._keep_whole)

    def keep_whole_keys(self) -> set:
        return {target_key(t) for t in self.keep_whole()}

    def handlers(self) -> dict[object, Handler]:
        """Target key -> handler."""
        return dict(self._handlers)


def target_key(target: object) -> object:
    """ATen ops and their edge-dialect wrappers share one key, `aten::add.Tensor`;
    Python callables (operator.getitem, operator.mul on sizes) are their own key."""
    name = getattr(target, "name", None)
    is_aten_op = hasattr(target, "_schema") or hasattr(target, "_op")
    return name() if callable(name) and is_aten_op else target
