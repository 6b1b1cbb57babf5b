"""The delegate payload's header, from the IR schema's `PayloadHeader` struct:
its layout (the struct's fields, offsets and padding as the model lays them
out), its magic, the payload alignment and the delegate backend's id, as C++
constants and as a Python `struct` format. Each language's one parser of the
header reads these."""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from ..diagnostics import SchemaError
from ..model import Scalar, Schema, Struct, TypeKind
from ..naming import schema_stem
from .ir_view import ir_view, render_each, required_declaration
from .python_module import SCALAR_TABLE

HEADER_STRUCT = "PayloadHeader"
BYTE_SCALARS = (Scalar.UINT8, Scalar.INT8)


@dataclass(frozen=True)
class HeaderField:
    name: str
    offset: int
    size: int
    pack_format: str  # Python `struct` code: `Q`, `4s`; padding after it as `x`s


@dataclass(frozen=True)
class PayloadFacts:
    magic: str
    alignment: int
    backend_id: str
    size: int
    fields: tuple[HeaderField, ...]

    @property
    def pack_format(self) -> str:
        return "<" + "".join(f.pack_format for f in self.fields)

    @property
    def magic_bytes(self) -> bytes:
        return self.magic.encode("ascii")

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)


def render(schema: Schema, env: jinja2.Environment) -> dict[str, str]:
    view = ir_view(schema)
    if view is None:
        return {}
    header = required_declaration(view, schema.structs, HEADER_STRUCT, "a struct")
    outputs = {
        "cpp/mlx_payload.h": "ir/cpp/mlx_payload.h.j2",
        f"python/{schema_stem(schema.path)}_payload.py": "ir/payload.py.j2",
    }
    return render_each(env, outputs, schema=schema, header=header, payload=_facts(header))


def _facts(header: Struct) -> PayloadFacts:
    values = {name: header.attribute(name) for name in ("magic", "alignment", "backend_id")}
    for name, value in values.items():
        if not value:
            raise SchemaError.at(header.location, f"`{HEADER_STRUCT}` needs the attribute `{name}`")
    magic_field = next((f for f in header.fields if f.name == "magic"), None)
    magic = values["magic"]
    if (
        magic_field is None
        or magic_field.type.kind is not TypeKind.ARRAY
        or magic_field.type.element.scalar not in BYTE_SCALARS
        or magic_field.type.length != len(magic.encode("ascii", "replace"))
    ):
        raise SchemaError.at(
            header.location,
            f"`{HEADER_STRUCT}` needs a field `magic: [ubyte:{len(magic)}]` for the magic {magic!r}",
        )
    if not values["alignment"].isdigit():
        raise SchemaError.at(header.location, f"`{HEADER_STRUCT}`: alignment must be an integer")
    fields = tuple(
        HeaderField(f.name, f.offset, f.size, _pack_format(f) + "x" * f.padding)
        for f in header.fields
    )
    return PayloadFacts(magic, int(values["alignment"]), values["backend_id"], header.size, fields)


def _pack_format(field) -> str:
    t = field.type
    if t.kind is TypeKind.SCALAR:
        return SCALAR_TABLE[t.scalar][1]
    if t.kind is TypeKind.ARRAY and t.element.kind is TypeKind.SCALAR:
        code = "s" if t.element.scalar in BYTE_SCALARS else SCALAR_TABLE[t.element.scalar][1]
        return f"{t.length}{code}"
    raise SchemaError.at(
        field.location, f"`{HEADER_STRUCT}` fields must be scalars or arrays of scalars"
    )
