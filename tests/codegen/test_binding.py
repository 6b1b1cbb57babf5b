"""Name binding as flatc does it (codegen/binding.py): which declaration each
written name ends up naming, and what was known about it where it is written.
Each rule was checked against flatc 25.12.19 (see also corpus/valid and
corpus/invalid, where the same schemas are decided by flatc itself)."""

from __future__ import annotations

from codegen.binding import bind
from codegen.parser import parse_text

from schema_helpers import position


def bindings(text: str):
    return bind(parse_text(text, "t.fbs").statements)


def at(text: str, needle: str):
    """The binding of the name the needle points at (see schema_helpers.position)."""
    line, column = position(text, needle)
    found = bindings(text)
    return next(b for loc, b in found.types.items() if (loc.line, loc.column) == (line, column))


def test_enum_found_from_the_innermost_namespace_outwards():
    text = "enum Foo : int { A }\nnamespace a;\nenum Foo : int { B }\ntable T { f: Foo; }\n"
    binding = at(text, "f: |Foo")
    assert (binding.kind, binding.target) == ("enum", "a.Foo")


def test_enum_before_table_whatever_the_namespaces():
    text = "enum Foo : int { A }\nnamespace a;\ntable Foo {}\ntable T { f: Foo; }\n"
    assert at(text, "f: |Foo").target == "Foo"


def test_table_in_current_namespace_before_global_one():
    text = "namespace a;\nstruct Foo { y: int; }\nnamespace;\ntable Foo {}\nnamespace a;\ntable T { f: Foo; }\n"
    binding = at(text, "f: |Foo")
    assert (binding.target, binding.known_struct, binding.pending) == ("a.Foo", True, False)


def test_plain_pending_name_binds_the_next_declaration_of_that_name_anywhere():
    text = "namespace a;\ntable T { x: X; }\nnamespace b;\ntable X {}\n"
    binding = at(text, "x: |X")
    assert (binding.target, binding.pending, binding.known_struct) == ("b.X", True, False)


def test_dotted_pending_name_binds_only_that_qualified_name():
    text = "namespace a;\ntable T { x: b.X; }\nnamespace a.b;\ntable X {}\n"
    assert at(text, "x: |b.X").target is None
    text = "namespace a;\ntable T { x: b.X; }\nnamespace b;\ntable X {}\n"
    assert at(text, "x: |b.X").target == "b.X"


def test_struct_declared_later_is_not_known_as_a_struct_where_used():
    text = "table T { s: S; }\nstruct S { a: int; }\n"
    binding = at(text, "s: |S")
    assert (binding.target, binding.known_struct, binding.pending) == ("S", False, True)


def test_vector_and_array_elements_are_bound():
    text = "struct S { a: int; }\nstruct U { s: [S:2]; }\ntable T { v: [S]; }\n"
    assert at(text, "[|S:2]").known_struct and at(text, "v: [|S]").known_struct


def test_scalars_and_string_are_not_names():
    assert bindings("table T { a: int; s: string; v: [ubyte]; }\n").types == {}


def test_union_member_and_rpc_types_are_table_names_even_int():
    text = "table int {}\nunion U { int }\nrpc_service R { Get(int): int; }\n"
    assert {b.target for b in bindings(text).types.values()} == {"int"}


def test_nested_flatbuffer_root_is_bound():
    text = 'table T { v: [ubyte] (nested_flatbuffer: "R"); }\nnamespace n;\ntable R {}\n'
    assert at(text, '"R"').target == "n.R"


def test_field_named_like_a_known_table_or_struct():
    text = "table Foo {}\ntable Bar { Foo: int; x: Baz; Baz: int; Later: int; }\ntable Later {}\n"
    clashes = {loc.column: name for loc, name in bindings(text).field_clashes.items()}
    assert clashes == {position(text, "Foo: int")[1]: "Foo", position(text, "Baz: int")[1]: "Baz"}


def test_field_named_like_its_own_table():
    assert list(bindings("table Foo { Foo: int; }\n").field_clashes.values()) == ["Foo"]


def test_root_type_in_current_namespace_only():
    found = bindings("namespace a;\ntable T {}\nnamespace a.b;\nroot_type T;\n").roots
    assert [r.found for r in found.values()] == [False]
    found = bindings("namespace a;\ntable T {}\nroot_type T;\n").roots
    assert [(r.found, r.target) for r in found.values()] == [(True, "a.T")]


def test_root_type_may_name_a_pending_table_and_not_a_known_struct():
    text = "table X { t: T; s: S; }\nroot_type T;\nroot_type S;\ntable T {}\nstruct S { a: int; }\n"
    roots = list(bindings(text).roots.values())
    assert [(r.found, r.struct_then, r.target) for r in roots] == [
        (True, False, "T"),
        (True, False, "S"),
    ]
    roots = list(bindings("struct S { a: int; }\nroot_type S;\n").roots.values())
    assert roots[0].struct_then
