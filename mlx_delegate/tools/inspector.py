"""Prints the MLX delegates of a .pte: per delegate the slot counts, the
instructions (op name, input and output slots, literal arguments) and the
constants. The IR is decoded by the reader generated from the schema
(generated/python/schema_reader.py) into the generated dataclasses, and each
op's fields are listed by the generated inspector metadata.

    python -m mlx_delegate inspect MODEL.pte   (python -m mlx_delegate.tools.inspector MODEL.pte)
"""

from __future__ import annotations

import argparse
import enum
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Optional

from ..formats import _generated
from .. import _quiet
from ..formats.ir import inspector, schema
from ..compiler.serialization import BACKEND_ID, PayloadError, split

_reader = _generated.generated("schema_reader")


def decode_graph(payload: bytes):
    """The `MLXGraph` of a delegate payload; PayloadError if it does not decode."""
    try:
        return _reader.decode(split(payload).flatbuffer)
    except _reader.DecodeError as error:
        raise PayloadError(f"the IR FlatBuffer does not decode: {error}") from None


def delegates(pte: bytes) -> Iterator[tuple[int, bytes, dict, list]]:
    """(index, payload, compile specs, named-data keys) of every MLX delegate."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    pte_file = deserialize_pte_binary(pte)
    program = pte_file.program
    keys = sorted(pte_file.named_data.pte_data) if pte_file.named_data else []
    index = 0
    for plan in program.execution_plan:
        for delegate in plan.delegates:
            if delegate.id != BACKEND_ID:
                continue
            payload = program.backend_delegate_data[delegate.processed.index].data
            specs = {s.key: bytes(s.value).decode(errors="replace") for s in delegate.compile_specs}
            yield index, bytes(payload), specs, keys
            index += 1


def describe(payload: bytes, specs: dict) -> list[str]:
    graph = decode_graph(payload)
    lines = [f"  compile specs: {specs or '{}'}"]
    lines.append(
        "  slots: {} constants, {} inputs, {} outputs, {} mutable buffers, {} temps; {} values".format(
            graph.num_constant_tensors,
            graph.num_input_tensors,
            graph.num_output_tensors,
            graph.num_mutable_buffer_tensors,
            graph.num_temp_tensors,
            graph.num_values,
        )
    )
    lines.append("  chains run " + ("compiled" if graph.compile_chains else "interpreted"))
    lines.append("  inputs: " + _slot_refs(graph.input_map))
    lines.append("  outputs: " + _slot_refs(graph.output_map))
    for c, chain in enumerate(graph.instruction_chains or []):
        role = " (main)" if c == graph.main_chain else " (init)" if c == graph.init_chain else ""
        instructions = chain.instructions or []
        lines.append(f"  chain {c}{role}: {len(instructions)} instructions")
        for i, instruction in enumerate(instructions):
            lines.append(f"    {i:4d}  {_instruction(instruction)}")
    named_slots = graph.named_slots or []
    lines.append(f"  constants: {len(named_slots)}")
    for named in named_slots:
        tid = named.slot.idx
        lines.append(f"    t{tid} = {named.name}  {_meta(graph, tid)}")
    return lines


def _slot_refs(refs) -> str:
    return (
        ", ".join(
            ("t" if r.kind == schema.SlotKind.Tensor else "v") + str(r.idx) for r in refs or []
        )
        or "-"
    )


def _meta(graph, tid: int) -> str:
    metas = graph.tensor_meta or []
    if tid >= len(metas):
        return ""
    meta = metas[tid]
    shape = ", ".join(f"v{d.vid.idx}" if d.vid else str(d.literal) for d in meta.shape or [])
    return f"{meta.dtype.name}[{shape}]"


@dataclass(frozen=True)
class Instruction:
    """One decoded instruction: its op, and its fields by role (slots read,
    slots written, literal arguments), each rendered as the listing shows it."""

    op: str
    reads: dict
    writes: dict
    literals: dict

    def __str__(self) -> str:
        show = lambda fields: ", ".join(f"{k}={v}" for k, v in fields.items())
        text = f"{self.op}({show(self.reads)}) -> {show(self.writes)}"
        text += f"  [{show(self.literals)}]" if self.literals else ""
        return text


def main_instructions(pte: bytes) -> list[Instruction]:
    """The main chain of the one MLX delegate of `pte` (tests read the IR this way)."""
    ((_, payload, _, _),) = list(delegates(pte))
    graph = decode_graph(payload)
    chain = graph.instruction_chains[graph.main_chain]
    return [_decode(instruction) for instruction in chain.instructions or []]


def _instruction(instruction) -> str:
    decoded = _decode(instruction)
    return str(decoded) if decoded else f"<unknown op code {int(instruction.op_type)}>"


def _decode(instruction) -> Optional[Instruction]:
    """None for an op this build's schema does not know (the reader leaves it None)."""
    info = inspector.OPS.get(instruction.op_type)
    if info is None or instruction.op is None:
        return None
    parts = {"input": {}, "output": {}, "literal": {}}
    for f in info.fields:
        value = _field_value(getattr(instruction.op, f.name), f.type)
        if value is not None:  # slots as the listing names them: t5, v2, [t1, t2]
            parts[f.role][f.name] = value if f.role == "literal" else str(value)
    return Instruction(info.name, parts["input"], parts["output"], parts["literal"])


def _field_value(value: Any, type_name: str) -> Any:
    if value is not None and type_name.startswith("["):
        element = type_name[1:-1]
        return "[" + ", ".join(str(_format(item, element)) for item in value) + "]"
    return _format(value, type_name)


def _format(value: Any, type_name: str) -> Any:
    if value is None:
        return None
    if type_name == "Tid":
        return f"t{value.idx}"
    if type_name == "Vid":
        return f"v{value.idx}"
    if type_name in ("IntOrVid", "FloatOrVid"):
        return f"v{value.vid.idx}" if value.vid else value.literal
    if type_name == "TidOrVid":
        return f"t{value.tid.idx}" if value.tid else f"v{value.vid.idx}"
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, float):
        return f"{value:g}"
    return value


def main(argv=None) -> int:
    _quiet.install()
    parser = argparse.ArgumentParser(prog="python -m mlx_delegate inspect")
    parser.add_argument("pte", type=Path)
    args = parser.parse_args(argv)
    try:
        data = args.pte.read_bytes()
        found = list(delegates(data))
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except Exception as error:  # the deserializer raises many types for a bad file
        print(f"error: {args.pte} is not a readable .pte file: {error}", file=sys.stderr)
        return 2
    print(f"{args.pte}: {len(found)} MLX delegate(s)")
    status = 0
    for index, payload, specs, _ in found:
        print(f"delegate {index}: {len(payload)} bytes")
        try:
            print("\n".join(describe(payload, specs)))
        except PayloadError as error:
            print(f"  error: {error}")
            status = 2
    return status


if __name__ == "__main__":
    sys.exit(main())
