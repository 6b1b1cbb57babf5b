"""Inspector metadata of the IR schema: for every op its code, name, node table
and fields, each field tagged as an input slot, an output slot or a literal."""

from __future__ import annotations

from dataclasses import dataclass

import jinja2

from ..model import Schema, TableField
from ..naming import schema_stem
from .ir_view import ir_view, slot_role, type_text


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


def _field(field: TableField) -> InspectedField:
    return InspectedField(field.name, type_text(field.type), slot_role(field), field.required)
