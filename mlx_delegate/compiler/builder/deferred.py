"""Constants whose bytes are made after the export, one at a time.

An LLM of a few billion parameters does not fit in memory two or three times
over, which is what holding every constant as bytes (the builder's, the named
data store's, the serialized program's) costs. Inside an `external_data`
session the builder records each constant as a `DeferredConstant`: how to make
it, its dtype and shape. The export writes them afterwards, one at a time, into
a `.ptd` file beside the `.pte` (`mlx_delegate/formats/ptd.py`).

In a session, the exported program may hold *meta* tensors (a model built on
the meta device: shapes without data); the session's `resolve` gives the real
tensor that a parameter, buffer or lifted constant stands for, by its name in
the program's graph signature."""

from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

import torch

# (graph-signature target, meta tensor) -> the real tensor it stands for
Resolve = Callable[[str, torch.Tensor], torch.Tensor]
# the same, as consecutive slices of its first axis (a weight made slice by slice)
ResolveRows = Callable[[str, torch.Tensor], Iterator[torch.Tensor]]


@dataclass(frozen=True)
class DeferredConstant:
    make: Callable[[], torch.Tensor]
    dtype: torch.dtype
    shape: tuple[int, ...]

    @property
    def nbytes(self) -> int:
        return torch.Size(self.shape).numel() * self.dtype.itemsize

    def tensor(self) -> torch.Tensor:
        tensor = self.make()
        if tensor.dtype != self.dtype or tuple(tensor.shape) != self.shape:
            raise ValueError(
                f"constant made as {tensor.dtype}{tuple(tensor.shape)}, "
                f"declared {self.dtype}{self.shape}"
            )
        return tensor


@dataclass
class DataSession:
    """The constants of one export, by named-data key, in the order the builder
    declared them (which is about the order the checkpoint holds them)."""

    resolve: Optional[Resolve] = None
    resolve_rows: Optional[ResolveRows] = None
    constants: dict[str, DeferredConstant] = field(default_factory=dict)

    _keys: int = 0

    def new_key(self) -> str:
        """A named-data key of its own (constants are named before they are made)."""
        self._keys += 1
        return f"mlxd_x{self._keys:06d}"

    def keep(self, key: str, constant: DeferredConstant) -> None:
        """A delegate's constant, to be written (one its passes still read)."""
        self.constants[key] = constant

    def real(self, target: str, meta: torch.Tensor) -> torch.Tensor:
        """The data the program's meta tensor `target` stands for."""
        if self.resolve is None:
            raise ValueError(f"{target} is a meta tensor and this export has no weight source")
        return self.resolve(target, meta)

    def real_rows(self, target: str, meta: torch.Tensor) -> Iterator[torch.Tensor]:
        """The same data as consecutive slices of its first axis, where the
        source makes it that way (a quantized weight's values, which a maker
        packs slice by slice, never holding them whole); else one slice."""
        if self.resolve_rows is None:
            yield self.real(target, meta)
        else:
            yield from self.resolve_rows(target, meta)

    @property
    def nbytes(self) -> int:
        return sum(c.nbytes for c in self.constants.values())


_session: contextvars.ContextVar[Optional[DataSession]] = contextvars.ContextVar(
    "mlxd_data_session", default=None
)


@contextlib.contextmanager
def external_data(
    resolve: Optional[Resolve] = None, resolve_rows: Optional[ResolveRows] = None
) -> Iterator[DataSession]:
    """Inside the block, every delegate the export lowers defers its constants
    to the yielded session instead of the `.pte`'s named data."""
    session = DataSession(resolve, resolve_rows)
    token = _session.set(session)
    try:
        yield session
    finally:
        _session.reset(token)


def active_session() -> Optional[DataSession]:
    return _session.get()
