"""Inspector metadata of the IR schema: for every op its code, name, node table
and fields, each field tagged as an input slot, an output slot or a literal."""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from ..diagnostics import SchemaError
from ..model import Schema, TableField, TypeKind, TypeRef
from ..naming import schema_stem
from .ir_view import ir_view

SLOT_TYPES = ("Tid", "Vid", "IntOrVid", "FloatOrVid", "TidOrVid")


@dataclass(frozen=True)
class InspectedField:
    name: str
    type: str  # as written in the schema: `Tid`, `[IntOrVid]`, `float32`
    role: str  # input, output or literal
    required: bool


def render(schema: Schema, env: jinja2.Environment) -> dict[str, str]:
    view = ir_view(schema)
    if view is None:
        return {}
    ops = [(op, tuple(_field(f) for f in op.table.fields if not f.deprecated)) for op in view.ops]
    text = env.get_template("ir/inspector.py.j2").render(schema=schema, ops=ops)
    return {f"python/{schema_stem(schema.path)}_inspector.py": text}


def type_text(t: TypeRef) -> str:
    if t.kind in (TypeKind.VECTOR, TypeKind.ARRAY):
        suffix = f":{t.length}" if t.kind is TypeKind.ARRAY else ""
        return f"[{type_text(t.element)}{suffix}]"
    if t.kind is TypeKind.SCALAR:
        return t.scalar.canonical
    if t.kind is TypeKind.STRING:
        return "string"
    return t.decl.rsplit(".", 1)[-1]


def _field(field: TableField) -> InspectedField:
    """Slot fields are outputs when marked `output`, inputs otherwise;
    everything else is a literal argument."""
    type_name = type_text(field.type)
    is_output = any(a.name == "output" for a in field.attributes)
    if type_name.strip("[]") not in SLOT_TYPES:
        if is_output:
            raise SchemaError.at(
                field.location, f"`{field.name}`: only a slot field can be an `output`"
            )
        return InspectedField(field.name, type_name, "literal", field.required)
    return InspectedField(field.name, type_name, "output" if is_output else "input", field.required)
