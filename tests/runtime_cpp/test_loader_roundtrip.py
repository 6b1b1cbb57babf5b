"""The generated C++ loader reads back every field of every op node that the
generated Python serializer writes: one program holding every op with
pseudo-random field values, loaded by `mlxd-ir-dump` (the loader the plugins
use) and printed as JSON, compared with what was written."""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import random
import struct
import subprocess
from pathlib import Path

import pytest

from codegen.frontend import load_schema
from codegen.model import Scalar, Struct, TypeKind
from mlx_delegate.formats.ir import schema as ir
from mlx_delegate.compiler.serialization import serialize

REPO = Path(__file__).resolve().parents[2]
MODEL = load_schema(REPO / "schema" / "schema.fbs")
OP_UNION = next(u for u in MODEL.unions if u.name == "OpNode")
INSTRUCTION = next(d for d in MODEL.declarations if d.name == "Instruction")


def random_value(rng: random.Random, field_type, required: bool, optional: bool):
    if not required and (optional or field_type.kind not in (TypeKind.SCALAR, TypeKind.ENUM)):
        if rng.random() < 0.3:
            return None
    kind = field_type.kind
    if kind is TypeKind.SCALAR:
        return random_scalar(rng, field_type.scalar)
    if kind is TypeKind.ENUM:
        decl = MODEL.lookup(field_type.decl)
        return getattr(ir, decl.name)(rng.choice(decl.values).value)
    if kind is TypeKind.STRING:
        return "".join(rng.choice('abc_"\\\n é') for _ in range(rng.randint(0, 8)))
    if kind is TypeKind.VECTOR:
        return [
            random_value(rng, field_type.element, True, False) for _ in range(rng.randint(0, 3))
        ]
    decl = MODEL.lookup(field_type.decl)
    return random_record(rng, decl)


def random_scalar(rng: random.Random, scalar: Scalar):
    if scalar.is_bool:
        return rng.random() < 0.5
    if scalar.is_float:
        value = rng.choice([0.0, -1.5, 1e-3, 12345.678, rng.uniform(-1e6, 1e6), math.inf])
        return struct.unpack("<f", struct.pack("<f", value))[0] if scalar.size == 4 else value
    low, high = scalar.int_range
    return rng.choice([low, high, 0, rng.randint(low, high)])


def random_record(rng: random.Random, decl):
    cls = getattr(ir, decl.name)
    values = {}
    for field in decl.fields:
        required = isinstance(decl, Struct) or field.required
        values[field.name] = random_value(
            rng, field.type, required, getattr(field, "optional", False)
        )
    return cls(**values)


def expected_json(value, field_type=None):
    """What the C++ loader should print for a Python value of the schema type."""
    if value is None:
        return [] if field_type is not None and field_type.kind is TypeKind.VECTOR else None
    if isinstance(value, list):
        return [expected_json(v, field_type.element if field_type else None) for v in value]
    if isinstance(value, enum.Enum):
        return int(value)
    if dataclasses.is_dataclass(value):
        decl = next(d for d in MODEL.declarations if d.name == type(value).__name__)
        return {f.name: expected_json(getattr(value, f.name), f.type) for f in decl.fields}
    return value


def random_instruction(rng: random.Random, node) -> "ir.Instruction":
    """`node` in an Instruction whose other fields (the device) are random too."""
    others = [f for f in INSTRUCTION.fields if f.type.kind is not TypeKind.UNION]
    values = {f.name: random_value(rng, f.type, True, False) for f in others}
    return ir.Instruction(op=node, **values)


def instruction_json(instruction) -> dict:
    node = instruction.op
    member = next(m for m in OP_UNION.members if m.type.decl.endswith("." + type(node).__name__))
    name = member.name[: -len("Node")]
    others = [f for f in INSTRUCTION.fields if f.type.kind is not TypeKind.UNION]
    fields = {f.name: expected_json(getattr(instruction, f.name), f.type) for f in others}
    return {"op": name, "node": expected_json(node), **fields}


@pytest.fixture(scope="module")
def ir_dump(runtime_build: Path) -> Path:
    tool = runtime_build / "mlxd-ir-dump"
    assert tool.is_file(), f"{tool} was not built"
    return tool


def dump(tool: Path, payload: bytes, tmp_path: Path) -> dict:
    path = tmp_path / "payload.bin"
    path.write_bytes(payload)
    result = subprocess.run([str(tool), str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_field_of_every_op_round_trips(ir_dump: Path, tmp_path: Path, seed: int):
    rng = random.Random(seed)
    nodes = [random_record(rng, MODEL.lookup(m.type.decl)) for m in OP_UNION.members]
    instructions = [random_instruction(rng, n) for n in nodes]
    graph = ir.MLXGraph(
        num_values=seed,
        instruction_chains=[ir.InstructionChain(instructions=instructions)],
        named_slots=[ir.NamedSlot(name="weight", slot=ir.Tid(idx=7))],
    )
    loaded = dump(ir_dump, serialize(graph), tmp_path)
    (chain,) = loaded["instruction_chains"]
    assert len(chain["instructions"]) == len(OP_UNION.members)
    for instruction, got in zip(instructions, chain["instructions"]):
        assert got == instruction_json(instruction), type(instruction.op).__name__
    assert loaded["num_values"] == seed
    assert loaded["named_slots"] == [{"name": "weight", "slot": {"idx": 7}}]


@pytest.mark.parametrize(
    "payload, message",
    [
        (b"", "error: "),
        (b"\0\0\0\0MLX0" + b"\0" * 16, "error: "),
        (
            b"\0\0\0\0MLX0" + (56).to_bytes(8, "little") + b"\0" * 8 + b"garbage!" * 4,
            "verification failed",
        ),
    ],
)
def test_malformed_payload_is_rejected_with_a_message(ir_dump, tmp_path, payload, message):
    path = tmp_path / "bad.bin"
    path.write_bytes(payload)
    result = subprocess.run([str(ir_dump), str(path)], capture_output=True, text=True)
    assert result.returncode == 1
    assert message in result.stderr
