"""The resolved schema model: what every render step reads.

Built once by codegen.resolve from the syntax tree; frozen, so that no target can
change what another target sees. Names are resolved, types are linked by fully
qualified name, enum values are computed, struct layouts and table vtable slots
are laid out as FlatBuffers lays them out. Invariants are checked by
codegen.resolve, once, before any of these objects exists.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
import typing
from typing import Optional


@dataclass(frozen=True, order=True)
class Location:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class Scalar(enum.Enum):
    """FlatBuffers scalar types, by canonical name; value = (size in bytes, kind)."""

    BOOL = ("bool", 1, "bool")
    INT8 = ("int8", 1, "int")
    UINT8 = ("uint8", 1, "uint")
    INT16 = ("int16", 2, "int")
    UINT16 = ("uint16", 2, "uint")
    INT32 = ("int32", 4, "int")
    UINT32 = ("uint32", 4, "uint")
    INT64 = ("int64", 8, "int")
    UINT64 = ("uint64", 8, "uint")
    FLOAT32 = ("float32", 4, "float")
    FLOAT64 = ("float64", 8, "float")

    @property
    def canonical(self) -> str:
        return self.value[0]

    @property
    def size(self) -> int:
        return self.value[1]

    @property
    def is_bool(self) -> bool:
        return self.value[2] == "bool"

    @property
    def is_integer(self) -> bool:
        return self.value[2] in ("int", "uint")

    @property
    def is_signed(self) -> bool:
        return self.value[2] == "int"

    @property
    def is_float(self) -> bool:
        return self.value[2] == "float"

    @property
    def int_range(self) -> tuple[int, int]:
        if self.is_bool:
            return (0, 1)
        bits = self.size * 8
        if self.is_signed:
            return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
        return (0, (1 << bits) - 1)

    @staticmethod
    def from_name(name: str) -> Optional["Scalar"]:
        return SCALAR_NAMES.get(name)


SCALAR_NAMES: dict[str, Scalar] = {
    "bool": Scalar.BOOL,
    "byte": Scalar.INT8,
    "int8": Scalar.INT8,
    "ubyte": Scalar.UINT8,
    "uint8": Scalar.UINT8,
    "short": Scalar.INT16,
    "int16": Scalar.INT16,
    "ushort": Scalar.UINT16,
    "uint16": Scalar.UINT16,
    "int": Scalar.INT32,
    "int32": Scalar.INT32,
    "uint": Scalar.UINT32,
    "uint32": Scalar.UINT32,
    "long": Scalar.INT64,
    "int64": Scalar.INT64,
    "ulong": Scalar.UINT64,
    "uint64": Scalar.UINT64,
    "float": Scalar.FLOAT32,
    "float32": Scalar.FLOAT32,
    "double": Scalar.FLOAT64,
    "float64": Scalar.FLOAT64,
}


class TypeKind(enum.Enum):
    SCALAR = "scalar"
    STRING = "string"
    VECTOR = "vector"  # [T]
    ARRAY = "array"  # [T:N], structs only
    ENUM = "enum"
    STRUCT = "struct"
    TABLE = "table"
    UNION = "union"


@dataclass(frozen=True)
class TypeRef:
    """A linked field type. `decl` is the fully qualified name of the declaration
    for ENUM/STRUCT/TABLE/UNION; `scalar` is set for SCALAR and for ENUM (its
    underlying type); `element` for VECTOR and ARRAY; `length` for ARRAY."""

    kind: TypeKind
    scalar: Optional[Scalar] = None
    decl: Optional[str] = None
    element: Optional["TypeRef"] = None
    length: Optional[int] = None

    @property
    def is_scalar_like(self) -> bool:
        """Stored inline in a table (scalar or enum)."""
        return self.kind in (TypeKind.SCALAR, TypeKind.ENUM)


class DefaultKind(enum.Enum):
    NONE = "none"  # no default written: zero / false / first... as flatc does
    NULL = "null"  # optional scalar
    INT = "int"
    FLOAT = "float"  # includes nan / inf / -inf
    BOOL = "bool"
    ENUM = "enum"  # one or more enum value names (bit_flags: several)


@dataclass(frozen=True)
class Default:
    """The default of a table field, already checked against the field type.

    `value` is the effective Python value: int for integers and enums (for enums
    the computed integer, for bit_flags the OR of the named flags), float for
    floats (math.nan / math.inf allowed), bool for bools, None for NULL and for
    non-scalars (strings, vectors, tables, structs and unions take no default,
    as flatc --python has none for them). `enum_names` lists the enum value
    names written in the schema, if any."""

    kind: DefaultKind
    value: typing.Union[int, float, bool, None] = None
    enum_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Attribute:
    """`name` or `name: value` in a declaration's or field's metadata."""

    name: str
    value: Optional[str] = None  # the literal as written, unquoted for strings
    location: Optional[Location] = None


def attribute_value(attributes: tuple[Attribute, ...], name: str) -> Optional[str]:
    return next((a.value for a in attributes if a.name == name), None)


@dataclass(frozen=True)
class TableField:
    name: str
    type: TypeRef
    slot: int  # vtable slot index of the value; a union's value; its type field is slot - 1
    default: Default
    required: bool
    deprecated: bool
    optional: bool  # optional scalar (`= null`)
    key: bool
    doc: tuple[str, ...]
    attributes: tuple[Attribute, ...]
    location: Location

    @property
    def vtable_offset(self) -> int:
        return 4 + 2 * self.slot

    @property
    def union_type_slot(self) -> Optional[int]:
        return self.slot - 1 if self.type.kind is TypeKind.UNION else None


@dataclass(frozen=True)
class StructField:
    name: str
    type: TypeRef  # SCALAR, ENUM, STRUCT or ARRAY
    offset: int  # byte offset inside the struct
    size: int  # bytes the field occupies (without padding)
    padding: int  # bytes of padding after the field
    doc: tuple[str, ...]
    attributes: tuple[Attribute, ...]
    location: Location


@dataclass(frozen=True)
class EnumValue:
    name: str
    value: int  # for bit_flags, the mask (1 << position)
    doc: tuple[str, ...]
    location: Location
    attributes: tuple[Attribute, ...] = ()

    def attribute(self, name: str) -> Optional[str]:
        """The value of attribute `name` (None when absent or given without a value)."""
        return attribute_value(self.attributes, name)


@dataclass(frozen=True)
class UnionMember:
    name: str  # the alias if given, else the type name as written with "." turned into "_"
    type: TypeRef  # TABLE: flatc --python allows no other union member
    value: int  # discriminant, 1..; 0 is NONE
    doc: tuple[str, ...]
    location: Location


@dataclass(frozen=True)
class Declaration:
    name: str  # short name as in the schema
    namespace: tuple[str, ...]
    doc: tuple[str, ...]
    attributes: tuple[Attribute, ...]
    location: Location
    file: str  # the schema file (path as given) that declared it

    @property
    def qualified_name(self) -> str:
        return ".".join(self.namespace + (self.name,))

    def attribute(self, name: str) -> Optional[str]:
        """The value of attribute `name` (None when absent or given without a value)."""
        return attribute_value(self.attributes, name)


@dataclass(frozen=True)
class Table(Declaration):
    fields: tuple[TableField, ...] = ()

    @property
    def vtable_slots(self) -> int:
        return max((f.slot + 1 for f in self.fields), default=0)


@dataclass(frozen=True)
class Struct(Declaration):
    fields: tuple[StructField, ...] = ()
    size: int = 0
    alignment: int = 1


@dataclass(frozen=True)
class Enum(Declaration):
    underlying: Scalar = Scalar.INT32
    values: tuple[EnumValue, ...] = ()
    bit_flags: bool = False

    def value_of(self, name: str) -> Optional[EnumValue]:
        return next((v for v in self.values if v.name == name), None)


@dataclass(frozen=True)
class Union(Declaration):
    members: tuple[UnionMember, ...] = ()


@dataclass(frozen=True)
class RpcMethod:
    name: str
    request: str  # qualified table name
    response: str
    attributes: tuple[Attribute, ...]
    doc: tuple[str, ...]
    location: Location


@dataclass(frozen=True)
class RpcService(Declaration):
    methods: tuple[RpcMethod, ...] = ()


@dataclass(frozen=True)
class Schema:
    """A whole resolved schema: the root file and everything it includes."""

    path: str  # the root schema file as given
    files: tuple[str, ...]  # every file parsed, root first, each once
    declarations: tuple[Declaration, ...]  # in declaration order across files (includes first)
    root_type: Optional[str] = None  # qualified name of the root table
    file_identifier: Optional[str] = None
    file_extension: Optional[str] = None
    attributes: tuple[str, ...] = ()  # user attributes declared with `attribute "x";`
    native_includes: tuple[str, ...] = ()
    _index: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        # Services have names of their own: a table may share one with a service.
        services = [d for d in self.declarations if isinstance(d, RpcService)]
        types = [d for d in self.declarations if not isinstance(d, RpcService)]
        self._index.update({d.qualified_name: d for d in services + types})

    def lookup(self, qualified_name: str) -> Declaration:
        return self._index[qualified_name]

    def of_kind(self, kind: type) -> tuple:
        return tuple(d for d in self.declarations if isinstance(d, kind))

    @property
    def tables(self) -> tuple[Table, ...]:
        return self.of_kind(Table)

    @property
    def structs(self) -> tuple[Struct, ...]:
        return self.of_kind(Struct)

    @property
    def enums(self) -> tuple[Enum, ...]:
        return self.of_kind(Enum)

    @property
    def unions(self) -> tuple[Union, ...]:
        return self.of_kind(Union)
