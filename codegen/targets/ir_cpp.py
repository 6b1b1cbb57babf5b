"""C++ target of the IR schema: plain structs mirroring every table and struct,
the OpCode enum, the node variant, `op_name()`, the FlatBuffer -> struct loader
and the interpreter dispatch that calls the hand-written `exec_*` functions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import jinja2

from ..diagnostics import SchemaError
from ..model import Declaration, Scalar, Schema, Struct, Table, TypeKind, TypeRef
from ..naming import cpp_name, schema_stem
from .ir_view import IrView, Op, ir_view, render_each, slot_role

LOADER_NAMESPACE = "mlxd"
OUTPUTS = {
    "cpp/mlx_program.h": "ir/cpp/mlx_program.h.j2",
    "cpp/mlx_program.cpp": "ir/cpp/mlx_program.cpp.j2",
    "cpp/mlx_dispatch.h": "ir/cpp/mlx_dispatch.h.j2",
    "cpp/mlx_dispatch.cpp": "ir/cpp/mlx_dispatch.cpp.j2",
}

CPP_SCALARS = {
    Scalar.BOOL: "bool",
    Scalar.INT8: "int8_t",
    Scalar.UINT8: "uint8_t",
    Scalar.INT16: "int16_t",
    Scalar.UINT16: "uint16_t",
    Scalar.INT32: "int32_t",
    Scalar.UINT32: "uint32_t",
    Scalar.INT64: "int64_t",
    Scalar.UINT64: "uint64_t",
    Scalar.FLOAT32: "float",
    Scalar.FLOAT64: "double",
}


@dataclass(frozen=True)
class CppField:
    name: str  # member name, also flatc's accessor name
    schema_name: str  # as written in the schema (the JSON key)
    type: str  # C++ type of the member
    # How the loader reads it: value, optional_value, object (present or the load
    # fails), optional_object, vector, op (the op union's discriminant and node).
    kind: str
    get: str = ""  # flatc's accessor call on `fb`; an object's gives a pointer
    read: str = ""  # object: expression over the flatc pointer `value`; vector: over element `e`
    record: str = ""  # the mirrored record this field holds, if any
    initializer: str = ""  # `{}` for a value, which would otherwise be left undefined


@dataclass(frozen=True)
class CppRecord:
    name: str
    flatc_type: str  # `::mlxd::ir::AddNode`
    fields: tuple[CppField, ...]
    is_struct: bool  # FlatBuffers struct (read by reference) vs table (by pointer)
    parameter: str  # the loader's: `const ::mlxd::ir::Tid& fb`, `const ::mlxd::ir::AddNode* fb`
    access: str  # `fb.` or `fb->`: how the loader reaches flatc's accessors
    size: int = 0  # a struct's size and alignment, as the schema lays it out
    alignment: int = 0


def render(schema: Schema, env: jinja2.Environment) -> dict[str, str]:
    view = ir_view(schema)
    if view is None:
        return {}
    records = tuple(_record(schema, view, decl) for decl in _in_dependency_order(schema, view))
    holds_ops = _holders_of_ops(records)
    context = dict(
        schema=schema,
        view=view,
        records=records,
        struct_records=tuple(r for r in records if r.is_struct),
        records_before_variant=tuple(r for r in records if r.name not in holds_ops),
        records_after_variant=tuple(r for r in records if r.name in holds_ops),
        root=next(r for r in records if r.name == view.root.name),
        namespace=LOADER_NAMESPACE,
        flatc_header=f"{schema_stem(schema.path)}_generated.h",
        verify_root=f"{_flatc_namespace(view.root)}::Verify{view.root.name}Buffer",
        get_root=f"{_flatc_namespace(view.root)}::Get{view.root.name}",
        union_prefix=f"{_flatc_namespace(view.op_union)}::{view.op_union.name}_",
        slot_fields={op.name: _slot_fields(op) for op in view.ops},
    )
    return render_each(env, OUTPUTS, **context)


def _slot_fields(op: Op) -> tuple[tuple[str, str], ...]:
    """(C++ member, `input` or `output`) of each slot field of the op's node."""
    roles = ((cpp_name(f.name), slot_role(f)) for f in op.table.fields if not f.deprecated)
    return tuple((name, role) for name, role in roles if role != "literal")


def _holders_of_ops(records: tuple[CppRecord, ...]) -> set[str]:
    """Records that hold the node variant, directly or through another record;
    they must be defined after it. `records` is in dependency order."""
    holders: set[str] = set()
    for record in records:
        if any(f.kind == "op" or f.record in holders for f in record.fields):
            holders.add(record.name)
    return holders


def _flatc_namespace(decl: Declaration) -> str:
    return "".join(f"::{part}" for part in decl.namespace)


def _flatc_type(decl: Declaration) -> str:
    return f"{_flatc_namespace(decl)}::{decl.name}"


def _in_dependency_order(schema: Schema, view: IrView) -> list[Declaration]:
    """The structs and tables a program holds (reachable from the root table),
    each after every record it holds by value; others (the payload header) are
    not part of the loaded program."""
    ordered: list[Declaration] = []
    state: dict[str, str] = {}

    def visit(decl: Declaration) -> None:
        if state.get(decl.qualified_name) == "done":
            return
        if state.get(decl.qualified_name) == "visiting":
            raise SchemaError.at(
                decl.location, f"`{decl.name}` contains itself; C++ needs a finite layout"
            )
        state[decl.qualified_name] = "visiting"
        for dep in _dependencies(schema, view, decl):
            visit(dep)
        state[decl.qualified_name] = "done"
        ordered.append(decl)

    held = _reachable(schema, view, view.root)
    for decl in schema.declarations:
        if decl.qualified_name in held:
            visit(decl)
    return ordered


def _reachable(schema: Schema, view: IrView, root: Declaration) -> set[str]:
    seen: set[str] = set()
    pending = [root]
    while pending:
        decl = pending.pop()
        if decl.qualified_name not in seen:
            seen.add(decl.qualified_name)
            pending.extend(_dependencies(schema, view, decl))
    return seen


def _dependencies(schema: Schema, view: IrView, decl: Declaration) -> list[Declaration]:
    deps = []
    for field in decl.fields:
        t = (
            field.type.element
            if field.type.kind in (TypeKind.VECTOR, TypeKind.ARRAY)
            else field.type
        )
        if t.kind in (TypeKind.STRUCT, TypeKind.TABLE):
            deps.append(schema.lookup(t.decl))
        elif t.kind is TypeKind.UNION:
            deps.extend(op.table for op in view.ops)
    return deps


def _record(schema: Schema, view: IrView, decl: Declaration) -> CppRecord:
    """flatc's structs are read by reference, its tables by pointer."""
    is_struct = isinstance(decl, Struct)
    access = "fb." if is_struct else "fb->"
    fields = tuple(
        _field(schema, view, decl, f, access)
        for f in decl.fields
        if not getattr(f, "deprecated", False)
    )
    record = partial(CppRecord, decl.name, _flatc_type(decl), fields, is_struct)
    if is_struct:
        return record(f"const {_flatc_type(decl)}& fb", access, decl.size, decl.alignment)
    return record(f"const {_flatc_type(decl)}* fb", access)


def _field(schema: Schema, view: IrView, owner: Declaration, field, access: str) -> CppField:
    name = cpp_name(field.name)
    get = f"{access}{name}()"
    field_of = partial(CppField, name, field.name)
    t = field.type
    if t.kind is TypeKind.UNION:
        if t.decl != view.op_union.qualified_name:
            raise SchemaError.at(field.location, "the C++ loader supports only the op union")
        return field_of("NodeVariant", "op")
    if t.kind is TypeKind.ARRAY:
        raise SchemaError.at(field.location, "the C++ loader does not mirror fixed arrays")
    if t.kind is TypeKind.VECTOR:
        element_type, read, record = _element(schema, t.element)
        return field_of(f"std::vector<{element_type}>", "vector", get, read, record)
    if t.kind in (TypeKind.SCALAR, TypeKind.ENUM):
        value_type = _value_type(schema, t)
        if getattr(field, "optional", False):
            return field_of(f"std::optional<{value_type}>", "optional_value", get)
        return field_of(value_type, "value", get, initializer="{}")
    if t.kind is TypeKind.STRING:
        type_, read, record = "std::string", "value->str()", ""
    else:
        decl = schema.lookup(t.decl)
        type_, record = decl.name, decl.name
        read = (
            f"load_{decl.name}(*value)" if isinstance(decl, Struct) else f"load_{decl.name}(value)"
        )
    if isinstance(owner, Struct):  # always there; flatc returns a struct's struct by reference
        return field_of(type_, "object", f"&{get}", read, record)
    if field.required:
        return field_of(type_, "object", get, read, record)
    return field_of(f"std::optional<{type_}>", "optional_object", get, read, record)


def _value_type(schema: Schema, t: TypeRef) -> str:
    if t.kind is TypeKind.ENUM:
        return _flatc_type(schema.lookup(t.decl))
    return CPP_SCALARS[t.scalar]


def _element(schema: Schema, t: TypeRef) -> tuple[str, str, str]:
    """(C++ element type, expression loading the flatc element `e`, record held)."""
    if t.kind is TypeKind.SCALAR:
        return CPP_SCALARS[t.scalar], "e", ""
    if t.kind is TypeKind.ENUM:
        enum_type = _value_type(schema, t)
        return enum_type, f"static_cast<{enum_type}>(e)", ""
    if t.kind is TypeKind.STRING:
        return "std::string", "e->str()", ""
    decl = schema.lookup(t.decl)
    if isinstance(decl, Struct):
        return decl.name, f"load_{decl.name}(*e)", decl.name
    if isinstance(decl, Table):
        return decl.name, f"load_{decl.name}(e)", decl.name
    raise AssertionError(f"unexpected vector element {t}")  # the resolver allows no other
