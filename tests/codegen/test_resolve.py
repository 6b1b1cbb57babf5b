"""codegen.resolve, the whole step: names, enum values, struct layout, vtable
slots, defaults, and one test per validation rule, each pinned to the token it
must point at.

Every invalid schema here was checked to be rejected by flatc 25.12.19
--python, every valid one to be accepted (see also test_flatc_agreement)."""

from __future__ import annotations

import math

import pytest

from codegen.model import (
    DefaultKind,
    Enum,
    Scalar,
    Struct,
    Table,
    TypeKind,
    Union,
)
from schema_helpers import assert_error_at, errors, load, position

# ---------------------------------------------------------------- names


def test_declarations_get_their_namespace(tmp_path):
    schema = load(
        tmp_path,
        "namespace a.b;\ntable T {}\nnamespace c;\nstruct S { x: int; }\n"
        "namespace;\nenum E : byte { A }\n",
    )
    assert [d.qualified_name for d in schema.declarations] == ["a.b.T", "c.S", "E"]
    assert schema.lookup("a.b.T").namespace == ("a", "b")


def test_type_found_in_enclosing_namespace(tmp_path):
    schema = load(tmp_path, "namespace a;\ntable X {}\nnamespace a.b;\ntable T { x: X; }\n")
    assert schema.lookup("a.b.T").fields[0].type.decl == "a.X"


def test_type_found_by_relative_and_absolute_paths(tmp_path):
    schema = load(
        tmp_path,
        "namespace a.b;\ntable X {}\nnamespace a.c;\ntable T { rel: b.X; abs: a.b.X; }\n",
    )
    assert [f.type.decl for f in schema.lookup("a.c.T").fields] == ["a.b.X", "a.b.X"]


def test_type_in_sibling_namespace_is_unknown(tmp_path):
    text = "namespace a;\ntable T {}\nnamespace b;\ntable U { t: T; }\n"
    assert_error_at(tmp_path, text, "t: |T;", "unknown type 'T'")


def test_plain_forward_reference_binds_to_next_declaration_of_that_name(tmp_path):
    # flatc's rule: an unknown plain name waits for the next table or struct of that name.
    text = "namespace a;\ntable T { x: X; }\nnamespace b;\ntable X {}\nnamespace a;\ntable X {}\n"
    assert load(tmp_path, text).lookup("a.T").fields[0].type.decl == "b.X"


def test_dotted_forward_reference_must_be_absolute(tmp_path):
    text = "namespace a.b;\ntable T { x: b.X; }\ntable X {}\n"
    assert_error_at(tmp_path, text, "b.X;", "unknown type 'b.X'")


def test_enum_must_be_declared_before_use(tmp_path):
    text = "table T { e: E; }\nenum E : byte { A }\n"
    assert_error_at(tmp_path, text, "e: |E;", "used before its declaration")


def test_union_must_be_declared_before_use(tmp_path):
    text = "table T { u: U; }\nunion U { T }\n"
    assert_error_at(tmp_path, text, "u: |U;", "union 'U' is used before")


def test_undefined_type(tmp_path):
    assert_error_at(tmp_path, "table T { a: Nope; }\n", "Nope", "unknown type 'Nope'")


def test_duplicate_declaration_across_kinds(tmp_path):
    text = "table E {}\nenum E : byte { A }\n"
    assert_error_at(tmp_path, text, "enum |E", "'E' is already declared")


def test_same_name_in_two_namespaces_is_fine(tmp_path):
    schema = load(tmp_path, "namespace a;\ntable T {}\nnamespace b;\ntable T {}\n")
    assert [d.qualified_name for d in schema.tables] == ["a.T", "b.T"]


def test_duplicate_field(tmp_path):
    assert_error_at(tmp_path, "table T { a: int; a: long; }\n", "a: long", "field 'a' already")


def test_field_named_like_its_table(tmp_path):
    assert_error_at(tmp_path, "table Foo { Foo: int; }\n", "Foo: int", "name of table or struct")


def test_union_type_field_name_clash(tmp_path):
    text = "table A {}\nunion U { A }\ntable T { u: U; u_type: int; }\n"
    assert_error_at(tmp_path, text, "u_type", "'u_type' already exists")


def test_union_type_field_clash_before_the_union_field(tmp_path):
    text = "table A {}\nunion U { A }\ntable T { u_type: int; u: U; }\n"
    assert_error_at(tmp_path, text, "u: U", "union field 'u' declares it")


def test_rpc_service_is_not_a_type(tmp_path):
    text = "table A {}\nrpc_service S { M(A):A; }\ntable T { s: S; }\n"
    assert_error_at(tmp_path, text, "s: |S;", "not a type")


# ---------------------------------------------------------------- enums


def test_enum_values_increment_from_previous(tmp_path):
    enum = load(tmp_path, "enum E : short { A, B = 10, C, D = -3, E2 }\n").lookup("E")
    assert isinstance(enum, Enum) and enum.underlying is Scalar.INT16
    assert [(v.name, v.value) for v in enum.values] == [
        ("A", 0),
        ("B", 10),
        ("C", 11),
        ("D", -3),
        ("E2", -2),
    ]


def test_enum_hex_values(tmp_path):
    enum = load(tmp_path, "enum E : uint { A = 0x10, B }\n").lookup("E")
    assert [v.value for v in enum.values] == [16, 17]


def test_bit_flags_values_are_masks(tmp_path):
    enum = load(tmp_path, "enum F : ubyte (bit_flags) { A, B, C = 7 }\n").lookup("F")
    assert enum.bit_flags
    assert [v.value for v in enum.values] == [1, 2, 128]


def test_bit_flags_position_out_of_range(tmp_path):
    text = "enum F : ubyte (bit_flags) { A = 8 }\n"
    assert_error_at(tmp_path, text, "8", "bit flag position 8 is out of range")


def test_bit_flags_implicit_position_out_of_range(tmp_path):
    text = "enum F : ubyte (bit_flags) { A = 7, B }\n"
    assert_error_at(tmp_path, text, "B }", "bit flag position 8")


def test_bit_flags_negative_position(tmp_path):
    assert_error_at(tmp_path, "enum F : ubyte (bit_flags) { A = -1 }\n", "-1", "does not fit")


def test_bit_flags_on_signed_type_is_accepted(tmp_path):
    # flatc only warns about a signed bit_flags enum.
    assert load(tmp_path, "enum F : byte (bit_flags) { A, B }\n").lookup("F").bit_flags


def test_enum_value_out_of_range(tmp_path):
    assert_error_at(tmp_path, "enum E : byte { A = 128 }\n", "128", "does not fit int8")


def test_enum_implicit_value_out_of_range(tmp_path):
    assert_error_at(tmp_path, "enum E : byte { A = 127, B }\n", "B }", "128 does not fit")


def test_enum_value_must_be_integer(tmp_path):
    assert_error_at(tmp_path, "enum E : ubyte { A = 1.5 }\n", "1.5", "must be an integer")


def test_enum_needs_underlying_type(tmp_path):
    assert_error_at(tmp_path, "enum E { A }\n", "E {", "needs an underlying integer type")


@pytest.mark.parametrize("base", ["float", "double", "bool", "string", "T"])
def test_enum_underlying_type_must_be_integral(tmp_path, base):
    text = f"table T {{}}\nenum E : {base} {{ A }}\n"
    assert_error_at(tmp_path, text, f": |{base} ", "must be an integer type")


def test_duplicate_enum_value_name(tmp_path):
    assert_error_at(tmp_path, "enum E : byte { A, A }\n", "A, |A", "'A' already exists")


def test_repeat_of_smallest_enum_value_rejected(tmp_path):
    assert_error_at(tmp_path, "enum E : byte { A = 1, B = 1 }\n", "B = 1", "'A' and 'B'")


def test_other_repeated_enum_values_accepted_as_flatc_does(tmp_path):
    # flatc compares every value with the smallest one only.
    enum = load(tmp_path, "enum E : byte { A = 3, B = 1, C, D }\n").lookup("E")
    assert [v.value for v in enum.values] == [3, 1, 2, 3]


def test_empty_enum_gets_none_as_in_flatc_and_trailing_comma(tmp_path):
    schema = load(tmp_path, "enum E : byte { }\nenum F : byte { A, B, }\n")
    assert [(v.name, v.value) for v in schema.lookup("E").values] == [("NONE", 0)]
    assert len(schema.lookup("F").values) == 2


# ---------------------------------------------------------------- unions


def test_union_members_values_and_aliases(tmp_path):
    text = (
        "namespace n;\ntable A {}\ntable B {}\nnamespace m;\n"
        "union U { n.A, Alias: n.B = 5, C: n.A }\n"
    )
    union = load(tmp_path, text).lookup("m.U")
    assert isinstance(union, Union)
    assert [(x.name, x.type.decl, x.value) for x in union.members] == [
        ("n_A", "n.A", 1),
        ("Alias", "n.B", 5),
        ("C", "n.A", 6),
    ]


def test_union_member_may_be_declared_later(tmp_path):
    union = load(tmp_path, "union U { A }\ntable A {}\n").lookup("U")
    assert union.members[0].type.decl == "A"


def test_union_member_must_be_table(tmp_path):
    text = "struct S { a: int; }\nunion U { S }\n"
    assert_error_at(tmp_path, text, "{ |S }", "union members must be tables")


def test_union_string_member_rejected(tmp_path):
    assert_error_at(tmp_path, "union U { string }\n", "string", "must be tables")


def test_union_member_named_none(tmp_path):
    assert_error_at(tmp_path, "table NONE {}\nunion U { NONE }\n", "{ |NONE", "'NONE' already")


def test_union_value_zero_is_none(tmp_path):
    assert_error_at(
        tmp_path, "table A {}\nunion U { A = 0 }\n", "A = 0", "'NONE' and 'A' are both 0"
    )


def test_union_value_out_of_range(tmp_path):
    assert_error_at(tmp_path, "table A {}\nunion U { A = 256 }\n", "256", "does not fit ubyte")


def test_duplicate_union_member(tmp_path):
    assert_error_at(tmp_path, "table A {}\nunion U { A, A }\n", "A, |A", "'A' already exists")


def test_vector_of_union_rejected_for_python(tmp_path):
    text = "table A {}\nunion U { A }\ntable T { u: [U]; }\n"
    assert_error_at(tmp_path, text, "[U]", "vectors of unions")


# ---------------------------------------------------------------- structs


def struct(tmp_path, text: str, name: str) -> Struct:
    return load(tmp_path, text).lookup(name)


def layout(s: Struct) -> list[tuple[str, int, int, int]]:
    return [(f.name, f.offset, f.size, f.padding) for f in s.fields]


def test_struct_layout_aligns_each_field(tmp_path):
    s = struct(tmp_path, "struct M { a: byte; b: int; c: short; d: double; e: bool; }\n", "M")
    assert layout(s) == [
        ("a", 0, 1, 3),
        ("b", 4, 4, 0),
        ("c", 8, 2, 6),
        ("d", 16, 8, 0),
        ("e", 24, 1, 7),
    ]
    assert (s.size, s.alignment) == (32, 8)


def test_nested_struct_layout(tmp_path):
    text = "struct In { a: short; b: byte; }\nstruct Out { x: byte; i: In; y: byte; }\n"
    schema = load(tmp_path, text)
    assert (schema.lookup("In").size, schema.lookup("In").alignment) == (4, 2)
    out = schema.lookup("Out")
    assert layout(out) == [("x", 0, 1, 1), ("i", 2, 4, 0), ("y", 6, 1, 1)]
    assert out.size == 8 and out.fields[1].type.kind is TypeKind.STRUCT


def test_force_align_rounds_size(tmp_path):
    s = struct(tmp_path, "struct F (force_align: 16) { x: float; y: float; z: float; }\n", "F")
    assert (s.size, s.alignment) == (16, 16)
    assert s.fields[-1].padding == 4


def test_fixed_array_layout(tmp_path):
    s = struct(tmp_path, "struct W { tag: ubyte; v: [float:3]; b: [ubyte:5]; }\n", "W")
    assert layout(s) == [("tag", 0, 1, 3), ("v", 4, 12, 0), ("b", 16, 5, 3)]
    assert s.size == 24 and s.fields[1].type.kind is TypeKind.ARRAY
    assert (s.fields[1].type.length, s.fields[1].type.element.scalar) == (3, Scalar.FLOAT32)


def test_array_of_structs_and_enums(tmp_path):
    text = (
        "enum E : short { A }\nstruct R { d: double; }\nstruct S { b: byte; r: [R:2]; e: [E:3]; }\n"
    )
    s = struct(tmp_path, text, "S")
    assert layout(s) == [("b", 0, 1, 7), ("r", 8, 16, 0), ("e", 24, 6, 2)]


@pytest.mark.parametrize("value", ["3", "2", "64"])
def test_force_align_must_be_power_of_two_in_range(tmp_path, value):
    text = f"struct S (force_align: {value}) {{ a: int; }}\n"
    assert_error_at(tmp_path, text, value + ")", "force_align must be a power of two")


def test_empty_struct(tmp_path):
    assert_error_at(tmp_path, "struct S {}\n", "S {", "at least one field")


@pytest.mark.parametrize("type_", ["string", "[int]", "T", "U"])
def test_struct_field_types(tmp_path, type_):
    text = f"table T {{}}\nunion U {{ T }}\nstruct S {{ a: {type_}; }}\n"
    assert_error_at(tmp_path, text, f"a: |{type_};", "struct fields may only be")


def test_struct_cannot_contain_itself(tmp_path):
    assert_error_at(tmp_path, "struct S { a: S; }\n", "a: |S", "cannot contain itself")


def test_struct_in_struct_must_be_declared_first(tmp_path):
    text = "struct S { a: R; }\nstruct R { x: int; }\n"
    assert_error_at(tmp_path, text, "a: |R", "must be declared before")


def test_struct_field_default_rejected(tmp_path):
    assert_error_at(tmp_path, "struct S { a: int = 1; }\n", "1;", "cannot have default")


def test_struct_field_deprecated_rejected(tmp_path):
    assert_error_at(
        tmp_path, "struct S { a: int (deprecated); }\n", "deprecated", "cannot be deprecated"
    )


def test_struct_enum_field_needs_zero_value(tmp_path):
    text = "enum E : byte { A = 1 }\nstruct S { e: E; }\n"
    assert_error_at(tmp_path, text, "e: E", "has no value 0")


def test_array_in_table_rejected(tmp_path):
    assert_error_at(tmp_path, "table T { a: [int:3]; }\n", "[int:3]", "only allowed in structs")


@pytest.mark.parametrize("length", ["0", "65536", "-1"])
def test_array_length_range(tmp_path, length):
    text = f"struct S {{ a: [ubyte:{length}]; }}\n"
    assert_error_at(tmp_path, text, length + "]", "fixed-length array length")


def test_nested_arrays_and_vectors_rejected(tmp_path):
    assert_error_at(tmp_path, "struct S { a: [[int:2]:3]; }\n", "[[", "nested vector")
    assert_error_at(tmp_path, "table T { a: [[int]]; }\n", "[[", "nested vector")


# ---------------------------------------------------------------- tables


def table(tmp_path, text: str, name: str = "T") -> Table:
    return load(tmp_path, text).lookup(name)


def test_sequential_slots_union_takes_two(tmp_path):
    text = "table A {}\nunion U { A }\ntable T { a: int; u: U; b: string (deprecated); c: [A]; }\n"
    t = table(tmp_path, text)
    assert [(f.name, f.slot) for f in t.fields] == [("a", 0), ("u", 2), ("b", 3), ("c", 4)]
    assert t.fields[1].union_type_slot == 1 and t.fields[1].vtable_offset == 8
    assert t.fields[2].deprecated and t.vtable_slots == 5


def test_slots_follow_ids(tmp_path):
    text = (
        "table A {}\nunion U { A }\n"
        'table T { c: int (id: 3); u: U (id: 2); a: int (id: 0); d: string (id: "4"); }\n'
    )
    assert [f.slot for f in table(tmp_path, text).fields] == [3, 2, 0, 4]


def test_ids_all_or_none(tmp_path):
    text = "table T { a: int (id: 0); b: int; }\n"
    assert_error_at(tmp_path, text, "b: int", "either all fields")


def test_ids_must_be_consecutive(tmp_path):
    text = "table T { a: int (id: 0); b: int (id: 2); }\n"
    assert_error_at(tmp_path, text, "id: |2", "id 1 is missing")


def test_union_id_counts_its_type_field(tmp_path):
    text = "table A {}\nunion U { A }\ntable T { a: int (id: 0); u: U (id: 1); }\n"
    assert_error_at(tmp_path, text, "id: |1", "id 0 of field 'u' is already used by 'a'")


def test_union_id_zero_rejected(tmp_path):
    text = "table A {}\nunion U { A }\ntable T { u: U (id: 0); }\n"
    assert_error_at(tmp_path, text, "id: |0", "at least 1")


def test_negative_id(tmp_path):
    assert_error_at(tmp_path, "table T { a: int (id: -1); }\n", "-1", "must be an integer")


def test_required_only_on_non_scalars(tmp_path):
    text = "table T { a: int (required); }\n"
    assert_error_at(tmp_path, text, "required", "only non-scalar")
    t = table(
        tmp_path, "struct S { x: int; }\ntable T { s: S (required); n: string (required); }\n"
    )
    assert all(f.required for f in t.fields)


def test_optional_scalar_cannot_be_required(tmp_path):
    assert_error_at(
        tmp_path, "table T { a: int = null (required); }\n", "required", "only non-scalar"
    )


def test_optional_only_on_scalars(tmp_path):
    assert_error_at(tmp_path, "table T { a: string = null; }\n", "null", "only scalar and enum")


def test_key_rules(tmp_path):
    assert_error_at(
        tmp_path, "table T { a: int (key); b: int (key); }\n", "b: int (|key", "only one field"
    )
    assert_error_at(tmp_path, "table T { a: [int] (key); }\n", "key", "must be a string")
    assert_error_at(tmp_path, "table T { a: int = null (key); }\n", "key", "optional")
    assert table(tmp_path, "table T { a: string (key); }\n").fields[0].key


def test_hash_rules(tmp_path):
    assert_error_at(tmp_path, 'table T { a: float (hash: "fnv1_32"); }\n', "hash", "can be hashed")
    assert_error_at(
        tmp_path,
        'table T { a: long (hash: "fnv1_32"); }\n',
        '"fnv1_32"',
        "unknown hash 'fnv1_32' for 64-bit",
    )
    assert_error_at(tmp_path, 'table T { a: int (cpp_type: "X"); }\n', "cpp_type", "needs a 'hash'")


def test_nested_flatbuffer_rules(tmp_path):
    assert_error_at(
        tmp_path,
        'table R {}\ntable T { a: int (nested_flatbuffer: "R"); }\n',
        "nested_flatbuffer",
        "[ubyte]",
    )
    assert_error_at(
        tmp_path,
        'table T { a: [ubyte] (nested_flatbuffer: "Nope"); }\n',
        '"Nope"',
        "unknown table 'Nope'",
    )
    load(tmp_path, 'table T { a: [ubyte] (nested_flatbuffer: "R"); }\ntable R {}\n')


def test_flexbuffer_only_on_ubyte_vectors(tmp_path):
    assert_error_at(tmp_path, "table T { a: [byte] (flexbuffer); }\n", "flexbuffer", "[ubyte]")


def test_64_bit_offsets_rejected_for_python(tmp_path):
    assert_error_at(tmp_path, "table T { a: [ubyte] (vector64); }\n", "vector64", "64-bit")


# ---------------------------------------------------------------- defaults


def defaults(tmp_path, fields: str, prelude: str = ""):
    return {f.name: f.default for f in table(tmp_path, f"{prelude}table T {{ {fields} }}\n").fields}


def test_implicit_defaults(tmp_path):
    d = defaults(tmp_path, "i: int; f: float; b: bool; s: string; e: E;", "enum E : byte { A }\n")
    assert {k: (v.kind, v.value) for k, v in d.items()} == {
        "i": (DefaultKind.NONE, 0),
        "f": (DefaultKind.NONE, 0.0),
        "b": (DefaultKind.NONE, False),
        "s": (DefaultKind.NONE, None),
        "e": (DefaultKind.NONE, 0),
    }


def test_integer_defaults(tmp_path):
    d = defaults(
        tmp_path,
        "a: int = -5; b: uint = 0x10; c: ulong = 18446744073709551615; "
        'd: short = +7; e: int = "12";',
    )
    assert [v.value for v in d.values()] == [-5, 16, 18446744073709551615, 7, 12]
    assert all(v.kind is DefaultKind.INT for v in d.values())


def test_float_defaults(tmp_path):
    d = defaults(
        tmp_path,
        "a: float = 1.5; b: double = -2e3; c: float = .5; d: float = 3; "
        "e: double = 0x1p3; f: float = nan; g: float = -inf; h: float = +inf; "
        "i: double = infinity;",
    )
    values = [v.value for v in d.values()]
    assert values[:5] == [1.5, -2000.0, 0.5, 3.0, 8.0]
    assert math.isnan(values[5]) and values[6:] == [-math.inf, math.inf, math.inf]
    assert all(v.kind is DefaultKind.FLOAT for v in d.values())


def test_bool_defaults(tmp_path):
    d = defaults(tmp_path, "a: bool = true; b: bool = false; c: bool = 1; d: bool = 2;")
    assert [(v.kind, v.value) for v in d.values()] == [(DefaultKind.BOOL, True)] * 1 + [
        (DefaultKind.BOOL, False),
        (DefaultKind.BOOL, True),
        (DefaultKind.BOOL, True),
    ]


def test_optional_scalar_defaults(tmp_path):
    t = table(tmp_path, "enum E : byte { A = 1 }\ntable T { a: int = null; e: E = null; }\n")
    assert all(f.optional and f.default.kind is DefaultKind.NULL for f in t.fields)


def test_enum_defaults(tmp_path):
    prelude = "enum E : byte { A, B = 4 }\nenum F : ubyte (bit_flags) { X, Y, Z }\n"
    d = defaults(
        tmp_path, 'e: E = B; n: E = 4; s: E = "B"; f: F = "X Z"; g: F = Y; h: F = 5;', prelude
    )
    assert (d["e"].kind, d["e"].value, d["e"].enum_names) == (DefaultKind.ENUM, 4, ("B",))
    assert (d["n"].kind, d["n"].value) == (DefaultKind.INT, 4)
    assert d["s"].value == 4
    assert (d["f"].value, d["f"].enum_names) == (5, ("X", "Z"))
    assert d["g"].value == 2 and d["h"].value == 5


@pytest.mark.parametrize(
    "field, needle, fragment",
    [
        ("a: int = 1.5;", "1.5", "not a valid int32"),
        ("a: int = foo;", "foo", "enum value needs an enum-typed field"),
        ("a: int = true;", "true", "not a valid int32"),
        ("a: byte = 128;", "128", "does not fit int8"),
        ("a: uint = -1;", "-1", "does not fit uint32"),
        ("a: long = 9223372036854775808;", "9223372036854775808", "does not fit int64"),
        ("a: bool = 1.0;", "1.0", "not a valid bool"),
        ("a: bool = -1;", "-1", "does not fit bool"),
        ("a: float = true;", "true", "not a valid float32"),
        ("a: double = 0x10;", "0x10", "not a valid float64"),
        ('a: string = "hi";', '"hi"', "strings and vectors"),
        ("a: [int] = [];", "[]", "strings and vectors"),
        ("a: E = 5;", "5", "not a value of enum 'E'"),
        ("a: E = Z;", "Z", "'Z' is not a value of enum 'E'"),
        ('a: E = "A Z";', '"A Z"', "'Z' is not a value"),
        ("a: E = 1.0;", "1.0", "not a valid enum default"),
        ("a: S = null;", "null", "only scalar and enum"),
        ("a: R = 1;", "1;", "table fields cannot have a default"),
        ("a: U = 1;", "1;", "union fields cannot have a default"),
        ("a: N;", "a: N", "has no value 0"),
        ("a: N = 0;", "0;", "not a value of enum 'N'"),
    ],
)
def test_bad_defaults(tmp_path, field, needle, fragment):
    prelude = (
        "enum E : byte { A, B }\nenum N : byte { One = 1 }\nstruct S { x: int; }\n"
        "table R {}\nunion U { R }\n"
    )
    text = f"{prelude}table T {{ {field} }}\n"
    assert_error_at(tmp_path, text, _needle(field, needle), fragment)


def _needle(field: str, token: str) -> str:
    """The token inside the field declaration, as a position() needle."""
    start = field.rindex(token)
    return field[:start] + "|" + field[start:]


def test_enum_without_zero_is_fine_for_optional_and_bit_flags(tmp_path):
    load(
        tmp_path,
        "enum N : byte { One = 1 }\nenum F : ubyte (bit_flags) { X }\n"
        "table T { n: N = null; f: F; v: [N]; }\n",
    )


# ---------------------------------------------------------------- attributes and file level


def test_user_attribute_must_be_declared(tmp_path):
    assert_error_at(tmp_path, "table T { a: int (foo); }\n", "foo", "attribute 'foo' is not")


def test_user_attribute_declared_after_use(tmp_path):
    text = 'table T (foo) {}\nattribute "foo";\n'
    assert_error_at(tmp_path, text, "(|foo)", "not declared")


def test_user_attributes_kept(tmp_path):
    text = 'attribute "priority";\nattribute bare;\ntable T (priority: 3, bare) { a: int (priority: "x"); }\n'
    schema = load(tmp_path, text)
    assert schema.attributes == ("priority", "bare")
    t = schema.lookup("T")
    assert [(a.name, a.value) for a in t.attributes] == [("priority", "3"), ("bare", None)]
    assert t.fields[0].attributes[0].value == "x"


def test_attribute_value_must_be_integer_or_string(tmp_path):
    text = 'attribute "w";\ntable T (w: 1.5) {}\n'
    assert_error_at(tmp_path, text, "1.5", "integer or a string")


def test_root_type_and_file_identifier(tmp_path):
    text = (
        'native_include "x.h";\nnamespace a;\ntable T {}\nroot_type T;\n'
        'file_identifier "ABCD";\nfile_extension "bin";\n'
    )
    schema = load(tmp_path, text)
    assert (schema.root_type, schema.file_identifier, schema.file_extension) == (
        "a.T",
        "ABCD",
        "bin",
    )
    assert schema.native_includes == ("x.h",)


def test_root_type_must_be_table(tmp_path):
    assert_error_at(tmp_path, "struct S { a: int; }\nroot_type S;\n", "type |S", "must be a table")


def test_root_type_unknown(tmp_path):
    assert_error_at(tmp_path, "root_type X;\n", "X", "unknown root type 'X'")


def test_root_type_before_its_table(tmp_path):
    assert_error_at(tmp_path, "root_type T;\ntable T {}\n", "type |T", "unknown root type")


@pytest.mark.parametrize("ident", ["ABC", "ABCDE"])
def test_file_identifier_length(tmp_path, ident):
    text = f'file_identifier "{ident}";\n'
    assert_error_at(tmp_path, text, f'"{ident}"', "exactly 4 bytes")


def test_file_identifier_counts_utf8_bytes(tmp_path):
    assert load(tmp_path, 'file_identifier "AB\u00e9";\n').file_identifier == "AB\u00e9"


def test_rpc_service(tmp_path):
    text = (
        "namespace s;\ntable Req {}\ntable Resp {}\n/// The service.\n"
        'rpc_service Api {\n  /// Get one.\n  Get(Req):Resp;\n  Watch(Req):Resp (streaming: "server");\n}\n'
    )
    api = load(tmp_path, text).lookup("s.Api")
    assert api.doc == ("The service.",)
    assert [(x.name, x.request, x.response) for x in api.methods] == [
        ("Get", "s.Req", "s.Resp"),
        ("Watch", "s.Req", "s.Resp"),
    ]
    assert api.methods[0].doc == ("Get one.",)


def test_rpc_types_must_be_tables(tmp_path):
    text = "struct Req { a: int; }\ntable Resp {}\nrpc_service S { Get(Req):Resp; }\n"
    assert_error_at(tmp_path, text, "(|Req)", "must be tables")


def test_rpc_duplicate_method(tmp_path):
    text = "table A {}\nrpc_service S { M(A):A; M(A):A; }\n"
    assert_error_at(tmp_path, text, "A; |M(", "'M' already exists")


def test_json_data_needs_root_type(tmp_path):
    assert_error_at(tmp_path, "table T { a: int; }\n{ a: 1 }\n", "{ a: 1", "root_type")
    load(tmp_path, 'table T { a: int; }\nroot_type T;\n{ a: 1, b: [1, 2], c: { d: "x" } }\n')


def test_several_diagnostics_sorted_by_position(tmp_path):
    found = errors(tmp_path, "table T { a: Nope; }\nenum E : byte { A = 300 }\n")
    assert [d.location.line for d in found] == [1, 2]


def test_nested_flatbuffer_root_must_be_findable_by_flatc_python(tmp_path):
    # flatc --python looks the name up absolutely or in the last namespace of the file.
    text = (
        "namespace a.b;\ntable R {}\nnamespace a.c;\n"
        'table T { a: [ubyte] (nested_flatbuffer: "b.R"); }\n'
    )
    assert_error_at(tmp_path, text, '"b.R"', "write it fully qualified ('a.b.R')")
    load(tmp_path, text.replace('"b.R"', '"a.b.R"'))


def test_non_ascii_file_identifier_only_without_tables(tmp_path):
    # flatc --python aborts writing such an identifier into table code.
    load(tmp_path, 'file_identifier "\\u00e9AB";\nstruct S { a: int; }\n')
    text = 'table T {}\nfile_identifier "\\u00e9AB";\n'
    assert_error_at(tmp_path, text, '"\\u00e9AB"', "non-ASCII")


def test_bit_flags_on_signed_type_cannot_use_sign_bit(tmp_path):
    assert_error_at(tmp_path, "enum F : byte (bit_flags) { A = 7 }\n", "7", "sign bit")


def test_struct_field_attribute_rules(tmp_path):
    assert_error_at(tmp_path, "struct S { a: int (required); }\n", "required", "always present")
    assert_error_at(
        tmp_path, "struct S { a: int (key); b: int (key); }\n", "b: int (|key", "only one field"
    )
    assert_error_at(tmp_path, 'struct S { a: float (hash: "fnv1_32"); }\n', "hash", "hashed")
    assert load(tmp_path, "struct S { a: [int:2] (key); }\n").lookup("S").fields[0].type.length == 2


def test_quoted_defaults_read_as_flatc_reads_them(tmp_path):
    d = defaults(
        tmp_path,
        'i: int = " 5 "; f: float = " nan"; b: bool = "false"; n: int = "null"; '
        'e: E = "B A"; x: E = " 1";',
        "enum E : ubyte (bit_flags) { A, B }\n",
    )
    assert d["i"].value == 5 and math.isnan(d["f"].value) and d["b"].value is False
    assert d["n"].kind is DefaultKind.NULL
    assert (d["e"].value, d["e"].enum_names) == (3, ("B", "A"))
    assert (d["x"].kind, d["x"].value) == (DefaultKind.INT, 1)


@pytest.mark.parametrize(
    "field, token, fragment",
    [
        ('a: bool = "true ";', '"true "', "not a valid bool"),
        ('a: E = "A ";', '"A "', "empty value name"),
        ('a: E = " A";', '" A"', "not a valid enum default"),
        ('a: int = "";', '""', "not a valid int32"),
        ('a: float = "1_0";', '"1_0"', "not a valid float32"),
    ],
)
def test_bad_quoted_defaults(tmp_path, field, token, fragment):
    text = f"enum E : byte {{ A, B }}\ntable T {{ {field} }}\n"
    assert_error_at(tmp_path, text, _needle(field, token), fragment)


# ---------------------------------------------------------------- more of flatc's rules


@pytest.mark.parametrize(
    "text, needle, fragment",
    [
        (
            "struct S { a: int; }\ntable T { s: int (native_inline); }\n",
            "native_inline",
            "native_inline",
        ),
        (
            "table T { s: S (native_inline); }\nstruct S { a: int; }\n",
            "native_inline",
            "declared before",
        ),
        (
            "struct S { a: int; }\nstruct U { s: [S:2] (native_inline); }\n",
            "native_inline",
            "native_inline",
        ),
        ("table T { s: S (key); }\nstruct S { a: int; }\n", "key", "declared before"),
        ("table Foo {}\ntable Bar { Foo: int; }\n", "Foo: int", "name of table or struct 'Foo'"),
        ("table Bar { x: Foo; Foo: int; }\ntable Foo {}\n", "Foo: int", "name of table or struct"),
        ("table T { v: [int]; vLength: int; }\n", "vLength", "vector field 'v'"),
        ("table T { s: string; s_byte_vector: int; }\n", "s_byte_vector", "string field 's'"),
        ("table A {}\nunion U { A }\ntable T { uType: int; u: U; }\n", "uType", "union field 'u'"),
        ("table T { a: int (shared); }\n", "shared", "string"),
        ('table T { a: int (native_custom_alloc: "x"); }\n', "native_custom_alloc", "not fields"),
        ("enum E : int (force_align: 4) { A }\n", "force_align", "not enums"),
        ('attribute "foo";\ntable T { a: int (foo: 2147483648); }\n', "2147483648", "int32"),
        ("namespace a;\ntable T {}\nnamespace a.b;\nroot_type T;\n", "T;", "unknown root type"),
        ("struct S { a: int; }\ntable A {}\nrpc_service R { M(A): S; }\n", "S;", "must be tables"),
        ("struct S { a: int = 1; }\n", "1;", "other than 0"),
        ("struct S { a: float = 0.0; }\n", "0.0", "other than 0"),
        ("table T { a: int = cos(0); }\n", "cos(", "float and double"),
        ("table T { a: float = exp(1); }\n", "exp(", "unknown conversion function"),
        ("table T { a: int = '\\x35'; }\n", "'\\x35'", "plain"),
        ("enum E : int { null, A }\ntable T { e: E = null; }\n", "null;", "named null"),
        ('enum E : int { A = 1, B = 2 }\ntable T { e: E = "A B"; }\n', '"A B"', "not a value"),
        ("enum C : byte { Red }\ntable T { a: int = 'Red'; }\n", "'Red'", "Enum.Value"),
        ("enum E : int { B = 1000 }\ntable T { a: byte = 'E.B'; }\n", "'E.B'", "does not fit"),
        ("table T { a: int; }\n{ a: 1 }\ntable U {}\n", "table U", "expected end of file"),
        ('table T { a: int; }\nfile_extension "\\ud800x";\n', '"\\ud800', "surrogate"),
        ('table T { a: int; }\nfile_extension "\\xff";\n', '"\\xff', "UTF-8"),
        ("table T { a: int; }\f\n", "\f", "code 12"),
    ],
)
def test_flatc_rules(tmp_path, text, needle, fragment):
    assert_error_at(tmp_path, text, needle, fragment)


def test_root_file_with_nul_byte_refused_included_file_ends_there(tmp_path):
    (tmp_path / "inc.fbs").write_text("table A { a: int; }\n\0 not read !!!\n")
    assert_error_at(tmp_path, "table T {}\n\0\n", "\0", "NUL byte")
    schema = load(tmp_path, 'include "inc.fbs";\ntable T { a: A; }\n')
    assert [d.name for d in schema.declarations] == ["A", "T"]


def test_what_flatc_takes_that_looks_odd(tmp_path):
    schema = load(
        tmp_path,
        "enum A : ushort { X }\nenum B : A { Z, Y = 65535 }\n"
        "enum Color : byte { Red = 1, Blue = 4 }\n"
        "struct S { a: int = 0; f: float = 0; b: bool = false; }\n"
        "table T {\n  c: double = deg(1.5);\n  n: long = 'Color.Red Color.Blue';\n"
        "  s: string = '0';\n  h: B (hash: 'fnv1_16');\n}\n"
        "table int {}\nrpc_service int { Get(int): int; }\n",
    )
    assert schema.lookup("B").underlying is Scalar.UINT16
    fields = {f.name: f.default for f in schema.lookup("T").fields}
    assert fields["c"].value == pytest.approx(math.degrees(1.5))
    assert fields["n"].value == 5 and fields["s"].kind is DefaultKind.NONE
    assert isinstance(schema.lookup("int"), Table)


def test_service_may_share_a_tables_name(tmp_path):
    schema = load(tmp_path, "table A {}\nrpc_service A { Get(A): A; }\n")
    assert isinstance(schema.lookup("A"), Table)
