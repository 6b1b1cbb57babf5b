"""Prints the MLX delegates of a .pte: per delegate the slot counts, the
instructions (op name, input and output slots, literal arguments) and the
constants, read through the generated inspector metadata.

    python -m mlx_delegate.inspect MODEL.pte
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from . import _layout, _quiet
from .ir import inspector, schema
from .serialization import BACKEND_ID, PayloadError, split

FLATC_PYTHON = _layout.GENERATED_DIR / "flatc_py"


def _flatc(name: str):
    """A class of flatc's Python reader of the IR (generated/flatc_py)."""
    if str(FLATC_PYTHON) not in sys.path:
        sys.path.insert(0, str(FLATC_PYTHON))
    return getattr(importlib.import_module(f"mlxd.ir.{name}"), name)


def _accessor(field_name: str) -> str:
    """flatc's Python accessor name: `num_axes` -> `NumAxes`."""
    return "".join(part[:1].upper() + part[1:] for part in field_name.split("_"))


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
    flatbuffer = split(payload).flatbuffer
    graph = _flatc("MLXGraph").GetRootAs(flatbuffer, 0)
    lines = [f"  compile specs: {specs or '{}'}"]
    lines.append(
        "  slots: {} constants, {} inputs, {} outputs, {} mutable buffers, {} temps; {} values".format(
            graph.NumConstantTensors(),
            graph.NumInputTensors(),
            graph.NumOutputTensors(),
            graph.NumMutableBufferTensors(),
            graph.NumTempTensors(),
            graph.NumValues(),
        )
    )
    lines.append("  chains run " + ("compiled" if graph.CompileChains() else "interpreted"))
    lines.append("  inputs: " + _slot_refs(graph, "InputMap"))
    lines.append("  outputs: " + _slot_refs(graph, "OutputMap"))
    for c in range(graph.InstructionChainsLength()):
        chain = graph.InstructionChains(c)
        role = " (main)" if c == graph.MainChain() else " (init)" if c == graph.InitChain() else ""
        lines.append(f"  chain {c}{role}: {chain.InstructionsLength()} instructions")
        for i in range(chain.InstructionsLength()):
            lines.append(f"    {i:4d}  {_instruction(chain.Instructions(i))}")
    lines.append(f"  constants: {graph.NamedSlotsLength()}")
    for n in range(graph.NamedSlotsLength()):
        named = graph.NamedSlots(n)
        tid = named.Slot().Idx()
        lines.append(f"    t{tid} = {named.Name().decode()}  {_meta(graph, tid)}")
    return lines


def _slot_refs(graph, name: str) -> str:
    refs = [getattr(graph, name)(i) for i in range(getattr(graph, name + "Length")())]
    return (
        ", ".join(("t" if r.Kind() == schema.SlotKind.Tensor else "v") + str(r.Idx()) for r in refs)
        or "-"
    )


def _meta(graph, tid: int) -> str:
    if tid >= graph.TensorMetaLength():
        return ""
    meta = graph.TensorMeta(tid)
    dims = [meta.Shape(d) for d in range(meta.ShapeLength())]
    shape = ", ".join(f"v{d.Vid().Idx()}" if d.Vid() else str(d.Literal()) for d in dims)
    return f"{schema.DType(meta.Dtype()).name}[{shape}]"


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
    graph = _flatc("MLXGraph").GetRootAs(split(payload).flatbuffer, 0)
    chain = graph.InstructionChains(graph.MainChain())
    return [_decode(chain.Instructions(i)) for i in range(chain.InstructionsLength())]


def _instruction(instruction) -> str:
    decoded = _decode(instruction)
    return str(decoded) if decoded else f"<unknown op code {instruction.OpType()}>"


def _decode(instruction) -> Optional[Instruction]:
    info = inspector.OPS.get(instruction.OpType())
    if info is None:
        return None
    node = _flatc(info.table)()
    table = instruction.Op()
    node.Init(table.Bytes, table.Pos)
    parts = {"input": {}, "output": {}, "literal": {}}
    for f in info.fields:
        value = _field_value(node, f)
        if value is not None:  # slots as the listing names them: t5, v2, [t1, t2]
            parts[f.role][f.name] = value if f.role == "literal" else str(value)
    return Instruction(info.name, parts["input"], parts["output"], parts["literal"])


def _field_value(node, field) -> Any:
    accessor = _accessor(field.name)
    if field.type.startswith("["):
        length = getattr(node, accessor + "Length")()
        if getattr(node, accessor + "IsNone")():
            return None
        element = field.type[1:-1]
        return (
            "["
            + ", ".join(str(_format(getattr(node, accessor)(j), element)) for j in range(length))
            + "]"
        )
    return _format(getattr(node, accessor)(), field.type)


def _format(value: Any, type_name: str) -> Any:
    if value is None:
        return None
    if type_name == "Tid":
        return f"t{value.Idx()}"
    if type_name == "Vid":
        return f"v{value.Idx()}"
    if type_name in ("IntOrVid", "FloatOrVid"):
        return f"v{value.Vid().Idx()}" if value.Vid() else value.Literal()
    if type_name == "TidOrVid":
        return f"t{value.Tid().Idx()}" if value.Tid() else f"v{value.Vid().Idx()}"
    enum = getattr(schema, type_name, None)
    if enum is not None and isinstance(enum, type) and issubclass(enum, int):
        return enum(value).name
    if isinstance(value, float):
        return f"{value:g}"
    return value


def main(argv=None) -> int:
    _quiet.install()
    parser = argparse.ArgumentParser(prog="python -m mlx_delegate.inspect")
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
