"""The op that `python -m codegen add-op NAME --fields SPEC` adds: the command
line parsed (OpSpec, each field located in the `--fields` text) and resolved
against the IR schema (NewOp: each field's type, attributes and role as the
schema writes them, and the op's names in every language).

The field list is `name: Type` items separated by commas:

    x: Tid, weight: Tid?, axis: int32 = -1, mode: PoolKind = Avg, sizes: [int32]

- Types are the schema's: scalars (`int32`, `float`, `bool`...), `string`,
  its enums, structs and tables (`Tid`, `IntOrVid`, `DType`...), or `[T]`.
- A slot field (`Tid`, `Vid`, `IntOrVid`, `FloatOrVid`, `TidOrVid`, or a
  vector of them) is `required` unless written with `?`; a scalar written
  with `?` is an optional scalar (`= null`).
- A slot field named `out`, `outs` or `..._out` is written by the op: it is
  marked `output`, as every output in the schema is named. Without one, the op
  gets `out: Tid (required, output)` after its last required input slot.
- `= value` is a scalar's or enum's default, written into the schema as is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .diagnostics import Diagnostic, SchemaError
from .model import Declaration, Enum, Location, RpcService, Scalar, Schema, Union
from .naming import PYTHON_KEYWORDS, snake_case
from .targets.ir_view import (
    NODE_SUFFIX,
    SLOT_TYPES,
    IrView,
    exec_name,
    op_enumerator,
)

FIELDS_ARGUMENT = "--fields"  # the "file" of diagnostics located in the field list

OP_NAME = re.compile(r"[A-Z][A-Za-z0-9]*\Z")
IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"
DOTTED = rf"{IDENTIFIER}(?:\.{IDENTIFIER})*"
FIELD = re.compile(
    rf"(?P<name>{IDENTIFIER})\s*:\s*"
    rf"(?P<type>{DOTTED}|\[\s*{DOTTED}\s*\])\s*"
    r"(?P<optional>\?)?\s*"
    r"(?:=\s*(?P<default>[^\s,=?]+)\s*)?"
)
OUTPUT_NAMES = re.compile(r"(out|outs|.+_out)\Z")
DEFAULT_OUTPUT = "out"


@dataclass(frozen=True)
class FieldSpec:
    name: str
    type: str  # as written: `Tid`, `[int32]`, `ir.DType`
    optional: bool  # written with `?`
    default: Optional[str]  # the text after `=`
    location: Location  # of the field's name in the --fields text
    type_location: Location


@dataclass(frozen=True)
class OpSpec:
    name: str  # the op, `ScaledSquare` (its table is `ScaledSquareNode`)
    fields: tuple[FieldSpec, ...]


@dataclass(frozen=True)
class NewField:
    name: str
    type: str  # as the schema writes it
    default: Optional[str]
    attributes: tuple[str, ...]  # `required`, `output`, in the schema's order
    role: str  # input, output (slot fields the op reads / writes) or literal
    required: bool
    vector: bool
    slot_type: Optional[str]  # `Tid`, `Vid`...: the slot type of a slot field
    spec: Optional[FieldSpec]  # None for the `out` that add-op adds


@dataclass(frozen=True)
class NewOp:
    name: str  # `ScaledSquare`
    table: str  # `ScaledSquareNode`
    snake: str  # `scaled_square`: its module and function names
    enumerator: str  # `SCALED_SQUARE`
    exec_name: str  # `exec_scaled_square`
    code: int  # its OpCode: the union discriminant it gets
    fields: tuple[NewField, ...]

    @property
    def inputs(self) -> tuple[NewField, ...]:
        return tuple(f for f in self.fields if f.role == "input")

    @property
    def outputs(self) -> tuple[NewField, ...]:
        return tuple(f for f in self.fields if f.role == "output")


# ---------------------------------------------------------------- parsing


def parse_op_spec(name: str, fields: str) -> OpSpec:
    """NAME and the --fields text -> OpSpec; SchemaError for a malformed one."""
    op = name[: -len(NODE_SUFFIX)] if name.endswith(NODE_SUFFIX) and name != NODE_SUFFIX else name
    if not OP_NAME.match(op):
        raise SchemaError.at(
            None,
            f"op name {name!r}: expected an UpperCamelCase name such as `CumProd` "
            f"(its table is `CumProdNode`)",
        )
    return OpSpec(op, _parse_fields(fields))


def _parse_fields(text: str) -> tuple[FieldSpec, ...]:
    fields: list[FieldSpec] = []
    diagnostics: list[Diagnostic] = []
    position = _skip_blanks(text, 0)
    while position < len(text):
        match = FIELD.match(text, position)
        if match is None:
            diagnostics.append(
                Diagnostic(
                    "expected a field `name: Type` (`x: Tid`, `axis: int32 = -1`, `bias: Tid?`)",
                    _location(text, position),
                )
            )
            break
        fields.append(
            FieldSpec(
                match["name"],
                re.sub(r"\s+", "", match["type"]),
                match["optional"] is not None,
                match["default"],
                _location(text, match.start("name")),
                _location(text, match.start("type")),
            )
        )
        position = match.end()
        if position < len(text) and text[position] != ",":
            diagnostics.append(
                Diagnostic("expected `,` or the end of the fields", _location(text, position))
            )
            break
        position = _skip_blanks(text, position + 1)
    if diagnostics:
        raise SchemaError(diagnostics)
    return tuple(fields)


def _skip_blanks(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _location(text: str, offset: int) -> Location:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Location(FIELDS_ARGUMENT, line, column)


# ---------------------------------------------------------------- resolving


def resolve_op(spec: OpSpec, view: IrView) -> NewOp:
    """Checks the op against the schema (its names are new, its field types
    exist) and lays out its table; SchemaError with every problem found."""
    schema = view.schema
    table = spec.name + NODE_SUFFIX
    diagnostics = _name_clashes(spec, table, view)
    fields: list[NewField] = []
    seen: dict[str, FieldSpec] = {}
    for field in spec.fields:
        if field.name in seen:
            diagnostics.append(Diagnostic(f"field `{field.name}` is listed twice", field.location))
            continue
        seen[field.name] = field
        try:
            fields.append(_resolve_field(field, schema, view.op_union.namespace))
        except SchemaError as error:
            diagnostics.extend(error.diagnostics)
    if diagnostics:
        raise SchemaError(diagnostics)
    if not any(f.role == "output" for f in fields):
        fields.insert(_default_output_position(fields), _default_output())
    return NewOp(
        name=spec.name,
        table=table,
        snake=snake_case(spec.name),
        enumerator=op_enumerator(spec.name),
        exec_name=exec_name(spec.name),
        code=max((op.code for op in view.ops), default=0) + 1,
        fields=tuple(fields),
    )


def _name_clashes(spec: OpSpec, table: str, view: IrView) -> list[Diagnostic]:
    """The table must be a new name (the C++ loader and the Python module name
    records by their short name, whatever their namespace), and so must the op's
    OpCode enumerator and exec_ function, which two table names can share
    (`ArgMAX` would get `ArgMax`'s `ARG_MAX` and `exec_arg_max`)."""
    for decl in view.schema.declarations:
        if decl.name == table:
            return [Diagnostic(f"`{table}` is declared here already", decl.location)]
    for op in view.ops:
        if op.enumerator == op_enumerator(spec.name) or op.exec_name == exec_name(spec.name):
            return [
                Diagnostic(
                    f"op `{op.name}` here already has the OpCode `{op.enumerator}` and the "
                    f"function `{op.exec_name}` that `{spec.name}` would get",
                    op.table.location,
                )
            ]
    return []


def _resolve_field(field: FieldSpec, schema: Schema, namespace: tuple[str, ...]) -> NewField:
    vector = field.type.startswith("[")
    written = field.type.strip("[]")
    decl = None
    if Scalar.from_name(written) is None and written != "string":
        decl = _lookup(schema, namespace, written)
        if decl is None:
            raise _error(field, f"unknown type `{written}`", field.type_location)
        if isinstance(decl, (Union, RpcService)):
            kind = "a union" if isinstance(decl, Union) else "an rpc service"
            raise _error(
                field, f"`{written}` is {kind}; an op's fields cannot hold one", field.type_location
            )
    slot_type = decl.name if decl is not None and decl.name in SLOT_TYPES else None
    output = OUTPUT_NAMES.match(field.name) is not None
    if output and slot_type is None:
        raise _error(
            field,
            f"`{field.name}` is named as an output, and outputs are slot fields "
            f"({', '.join(SLOT_TYPES)}); name it otherwise",
        )
    scalar = not vector and (decl is None or isinstance(decl, Enum)) and written != "string"
    if field.default is not None and not scalar:
        raise _error(field, "only a scalar or enum field takes a default (`= value`)")
    if field.optional and field.default is not None:
        raise _error(field, "`?` (optional) and a default exclude each other")
    if field.optional and slot_type is None and not scalar:
        raise _error(
            field,
            "`?` makes a slot field optional, or a scalar one; "
            f"a `{field.type}` field is optional already",
        )
    if field.name in PYTHON_KEYWORDS:
        raise _error(field, f"`{field.name}` is a Python keyword; the handler could not name it")
    required = slot_type is not None and not field.optional
    attributes = tuple(a for a, on in (("required", required), ("output", output)) if on)
    default = "null" if scalar and field.optional else field.default
    role = "output" if output else "input" if slot_type else "literal"
    return NewField(
        field.name, field.type, default, attributes, role, required, vector, slot_type, field
    )


def _lookup(schema: Schema, namespace: tuple[str, ...], written: str) -> Optional[Declaration]:
    """A type name as flatc finds it from the op union's namespace: there, then
    in each enclosing namespace, then as written."""
    for depth in range(len(namespace), -1, -1):
        try:
            return schema.lookup(".".join(namespace[:depth] + (written,)))
        except KeyError:
            continue
    return None


def _error(field: FieldSpec, message: str, location: Optional[Location] = None) -> SchemaError:
    return SchemaError.at(location or field.location, f"field `{field.name}`: {message}")


def _default_output() -> NewField:
    return NewField(
        DEFAULT_OUTPUT, "Tid", None, ("required", "output"), "output", True, False, "Tid", None
    )


def _default_output_position(fields: list[NewField]) -> int:
    """After the last required input slot: inputs, `out`, then the rest, as
    the schema lays out its ops (`x`, `weight`, `out`, `bias`, `eps`)."""
    last = max((i for i, f in enumerate(fields) if f.role == "input" and f.required), default=-1)
    return last + 1
