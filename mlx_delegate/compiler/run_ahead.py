"""The next call a program predicts (the schema's `RunAhead`), asked for by
input name through a compile spec and resolved to input and output positions
when the delegate's program is built.

With it the runtime builds the predicted next call's graph and starts it on
the device before this call returns (runtime_cpp/src/plugin/program.cpp,
`RunAheadState`), so the host's graph building overlaps the device's work. An
LLM's decode step is the case: its next tokens are its output, its position
moves on by the tokens it took, its sampling settings stay. What a program
that asks for this vouches for is in the schema's comment on `RunAhead`."""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Iterable, Optional, Sequence

from .._logging import debug
from ..formats.ir import schema as ir

if TYPE_CHECKING:  # importing it imports exir (10 s): the LLM's command lines need only RunAhead
    from executorch.exir.backend.compile_spec_schema import CompileSpec

COMPILE_SPEC = "run_ahead"


@dataclasses.dataclass(frozen=True)
class RunAhead:
    """`fed`: input name -> the output position it takes next call;
    `advanced`: integer inputs that move on by the first fed input's element
    count (a position by the tokens taken)."""

    fed: tuple[tuple[str, int], ...]
    advanced: tuple[str, ...] = ()

    def compile_spec(self) -> CompileSpec:
        from executorch.exir.backend.compile_spec_schema import CompileSpec

        value = {"fed": dict(self.fed), "advanced": list(self.advanced)}
        return CompileSpec(COMPILE_SPEC, json.dumps(value).encode())

    @classmethod
    def from_compile_specs(cls, specs: Iterable[CompileSpec]) -> Optional["RunAhead"]:
        for spec in specs:
            if spec.key == COMPILE_SPEC:
                value = json.loads(bytes(spec.value).decode())
                return cls(tuple(value["fed"].items()), tuple(value["advanced"]))
        return None

    def resolve(self, input_names: Sequence[str], num_outputs: int) -> Optional[ir.RunAhead]:
        """The schema table for a delegate whose inputs are `input_names` (in
        order) and which has `num_outputs` outputs; None for a delegate that
        does not take every input named (a method lowered in parts: the next
        call of a part is not the method's, so that part predicts nothing)."""
        names = list(input_names)
        missing = [n for n, _ in self.fed if n not in names] + [
            n for n in self.advanced if n not in names
        ]
        if missing:
            debug("run ahead: the delegate takes no %s; it predicts nothing", ", ".join(missing))
            return None
        for name, output in self.fed:
            if not 0 <= output < num_outputs:
                raise ValueError(
                    f"run ahead: input {name!r} is fed from output {output}, "
                    f"the delegate has {num_outputs}"
                )
        return ir.RunAhead(
            fed_inputs=[names.index(name) for name, _ in self.fed],
            fed_from_outputs=[output for _, output in self.fed],
            advanced_inputs=[names.index(name) for name in self.advanced],
        )
