"""The IR's view of a schema: which union holds the ops, and each op's code,
names and node table. Shared by the targets that only the IR schema gets (C++
loader and dispatch, inspector metadata)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, TypeVar

import jinja2

from ..diagnostics import SchemaError
from ..model import Declaration, Schema, Table, TableField, TypeKind, TypeRef, Union
from ..naming import snake_case, upper_snake_case

OP_UNION = "OpNode"
NODE_SUFFIX = "Node"
SLOT_TYPES = ("Tid", "Vid", "IntOrVid", "FloatOrVid", "TidOrVid")

D = TypeVar("D", bound=Declaration)


@dataclass(frozen=True)
class Op:
    code: int  # the union discriminant, which is also the OpCode value
    table: Table
    name: str  # `LayerNorm`
    enumerator: str  # `LAYER_NORM`
    exec_name: str  # `exec_layer_norm`


@dataclass(frozen=True)
class IrView:
    schema: Schema
    op_union: Union
    ops: tuple[Op, ...]
    root: Table


def op_name(table_name: str) -> str:
    if table_name.endswith(NODE_SUFFIX) and len(table_name) > len(NODE_SUFFIX):
        return table_name[: -len(NODE_SUFFIX)]
    return table_name


def op_enumerator(name: str) -> str:
    """The op's OpCode enumerator: `LayerNorm` -> `LAYER_NORM`."""
    return upper_snake_case(name)


def exec_name(name: str) -> str:
    """The op's hand-written (or declared) C++ function: `exec_layer_norm`."""
    return f"exec_{snake_case(name)}"


def ir_view(schema: Schema) -> Optional[IrView]:
    """The view, or None for a schema that is not an IR schema (no `OpNode` union)."""
    union = next((u for u in schema.unions if u.name == OP_UNION), None)
    if union is None:
        return None
    if schema.root_type is None:
        raise SchemaError.at(union.location, f"an IR schema with `{OP_UNION}` needs a root_type")
    ops = []
    for member in union.members:
        table = schema.lookup(member.type.decl) if member.type.decl else None
        if not isinstance(table, Table):
            raise SchemaError.at(member.location, f"`{OP_UNION}` members must be tables")
        name = op_name(table.name)
        ops.append(Op(member.value, table, name, op_enumerator(name), exec_name(name)))
    return IrView(schema, union, tuple(ops), schema.lookup(schema.root_type))


def type_text(t: TypeRef) -> str:
    """A field's type as written in the schema: `Tid`, `[IntOrVid]`, `float32`."""
    if t.kind in (TypeKind.VECTOR, TypeKind.ARRAY):
        suffix = f":{t.length}" if t.kind is TypeKind.ARRAY else ""
        return f"[{type_text(t.element)}{suffix}]"
    if t.kind is TypeKind.SCALAR:
        return t.scalar.canonical
    if t.kind is TypeKind.STRING:
        return "string"
    return t.decl.rsplit(".", 1)[-1]


def slot_role(field: TableField) -> str:
    """`output` for a slot field marked `output` (the op writes it), `input` for
    any other slot field (the op reads it), `literal` for everything else."""
    is_output = any(a.name == "output" for a in field.attributes)
    if type_text(field.type).strip("[]") not in SLOT_TYPES:
        if is_output:
            raise SchemaError.at(
                field.location, f"`{field.name}`: only a slot field can be an `output`"
            )
        return "literal"
    return "output" if is_output else "input"


def required_declaration(view: IrView, declarations: tuple[D, ...], name: str, what: str) -> D:
    """The declaration called `name` among `declarations` (`what` says their
    kind: "an enum"), which every IR schema must have."""
    found = next((d for d in declarations if d.name == name), None)
    if found is None:
        raise SchemaError.at(view.root.location, f"an IR schema needs {what} `{name}`")
    return found


def render_each(env: jinja2.Environment, outputs: dict[str, str], **context) -> dict[str, str]:
    """Each output path rendered from its template, all from one context."""
    return {path: env.get_template(tpl).render(**context) for path, tpl in outputs.items()}
