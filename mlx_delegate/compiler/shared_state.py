"""State shared by the methods of one program.

A delegate's mutable buffers belong to its own payload: two methods of one
`.pte` are two delegates, and could not see each other's buffers. A buffer
named here is one cell in the plugin for every method that holds it
(runtime_cpp/src/plugin/program.cpp, `shared_state_cell`): what one method
writes, the next call of another method reads, on the device, without a copy
through ExecuTorch. Whisper's encoder writes the cross-attention keys and
values once per window; its decoder reads them at every token.

ExecuTorch gives a delegate no handle on the program it belongs to, so the
names carry a scope unique to one export: two exports never share, two loads
of one file in one process do. A method that only reads the state holds it
as a mutable buffer too (not a constant), so it is bound to the cell and
never written to the data file."""

from __future__ import annotations

import dataclasses
import uuid
from typing import Iterable, Optional

from executorch.exir.backend.compile_spec_schema import CompileSpec

PREFIX = "mlxd.shared/"  # the runtime's kSharedStatePrefix
COMPILE_SPEC = "shared_state"


@dataclasses.dataclass(frozen=True)
class SharedState:
    """Buffers (by their name in the exported program) that the methods of one
    export share, in the scope `scope`."""

    buffers: frozenset[str]
    scope: str = dataclasses.field(default_factory=lambda: uuid.uuid4().hex)

    @classmethod
    def of(cls, buffers: Iterable[str]) -> "SharedState":
        return cls(frozenset(buffers))

    def name(self, target: str) -> str:
        """The named slot of buffer `target` in every method's delegate."""
        return f"{PREFIX}{self.scope}/{target}"

    def compile_spec(self) -> CompileSpec:
        return CompileSpec(COMPILE_SPEC, "\n".join([self.scope, *sorted(self.buffers)]).encode())

    @classmethod
    def from_compile_specs(cls, specs: Iterable[CompileSpec]) -> Optional["SharedState"]:
        for spec in specs:
            if spec.key == COMPILE_SPEC:
                scope, *buffers = bytes(spec.value).decode().split("\n")
                return cls(frozenset(buffers), scope)
        return None
