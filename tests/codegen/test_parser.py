"""The parser: one test per grammar feature, syntax errors with their exact
location, doc comments, and include resolution (folders, -I, cycles, once)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from codegen import syntax as s
from codegen.diagnostics import SchemaError
from codegen.frontend import load_schema
from codegen.model import Location, Scalar, TypeKind
from codegen.parser import parse_schema, parse_text
from schema_helpers import assert_error_at, load, position, write


def parse(text: str) -> tuple:
    return parse_text(text, "t.fbs").statements


def only(text: str):
    (statement,) = parse(text)
    return statement


# ---------------------------------------------------------------- statements


def test_table_with_fields_and_locations():
    table = only("table Monster {\n  hp: short = 100;\n  name: string;\n}\n")
    assert isinstance(table, s.TableSyntax)
    assert table.name == s.Name("Monster", Location("t.fbs", 1, 7))
    hp, name = table.fields
    assert hp.name.location == Location("t.fbs", 2, 3)
    assert hp.default == s.Literal("number", "100", Location("t.fbs", 2, 15))
    assert isinstance(name.type, s.NamedType) and name.type.name.text == "string"


def test_struct_enum_union_rpc_statements():
    kinds = [
        type(x)
        for x in parse(
            "struct S { a: int; }\nenum E : byte { A }\nunion U { T }\ntable T {}\n"
            "rpc_service R { M(T):T; }\n"
        )
    ]
    assert kinds == [s.StructSyntax, s.EnumSyntax, s.UnionSyntax, s.TableSyntax, s.RpcServiceSyntax]


def test_file_level_statements():
    statements = parse(
        'include "a.fbs";\nnative_include "n.h";\nnamespace x.y;\n'
        'attribute "priority";\nattribute bare;\nroot_type T;\n'
        'file_identifier "ABCD";\nfile_extension "bin";\n'
    )
    assert [type(x) for x in statements] == [
        s.Include,
        s.NativeInclude,
        s.NamespaceDecl,
        s.AttributeDecl,
        s.AttributeDecl,
        s.RootType,
        s.FileIdentifier,
        s.FileExtension,
    ]
    assert statements[0].path == "a.fbs" and statements[2].parts == ("x", "y")
    assert [statements[3].name, statements[4].name] == ["priority", "bare"]
    assert statements[5].namespace == ("x", "y")
    assert statements[6].location == Location("t.fbs", 7, 17)


def test_namespaces_apply_to_what_follows():
    statements = parse(
        "table A {}\nnamespace a.b;\ntable B {}\nnamespace c;\ntable C {}\n"
        "namespace;\ntable D {}\n"
    )
    assert [x.namespace for x in statements if isinstance(x, s.TableSyntax)] == [
        (),
        ("a", "b"),
        ("c",),
        (),
    ]


def test_types():
    table = only(
        "table T { a: [int]; b: a.b.C; c: [[ubyte]]; }\nstruct S { d: [float:4]; }\n".split("\n")[0]
    )
    a, b, c = table.fields
    assert isinstance(a.type, s.VectorType) and a.type.element.name.text == "int"
    assert b.type.name.text == "a.b.C" and b.type.location == Location("t.fbs", 1, 24)
    assert isinstance(c.type.element, s.VectorType)
    struct = only("struct S { d: [float:4]; }")
    assert isinstance(struct.fields[0].type, s.ArrayType)
    assert struct.fields[0].type.length.text == "4"


@pytest.mark.parametrize(
    "default, kind, text",
    [
        ("5", "number", "5"),
        ("-0x1F", "number", "-0x1F"),
        ("+3", "number", "+3"),
        ("1.5e-3", "number", "1.5e-3"),
        (".5", "number", ".5"),
        ("0x1.8p3", "number", "0x1.8p3"),
        ("nan", "ident", "nan"),
        ("-inf", "ident", "-inf"),
        ("+inf", "ident", "+inf"),
        ("true", "ident", "true"),
        ("null", "ident", "null"),
        ("Red", "ident", "Red"),
        ('"A B"', "string", "A B"),
        ("[]", "empty_vector", "[]"),
    ],
)
def test_default_literals(default, kind, text):
    field = only(f"table T {{ a: int = {default}; }}").fields[0]
    assert (field.default.kind, field.default.text) == (kind, text)
    assert field.default.location == Location("t.fbs", 1, 20)


def test_metadata():
    table = only('table T (a, b: 1, "c": "x") { f: int (id: -2, deprecated); }')
    assert [(x.name, x.value and x.value.text) for x in table.attributes] == [
        ("a", None),
        ("b", "1"),
        ("c", "x"),
    ]
    assert table.fields[0].attributes[0].location == Location("t.fbs", 1, 39)
    assert table.fields[0].attributes[0].value.text == "-2"


def test_enum_values_and_trailing_comma():
    enum = only("enum E : ubyte (bit_flags) { A = 1, B (x), C, }")
    assert enum.underlying.name.text == "ubyte"
    assert [(v.name.text, v.value and v.value.text) for v in enum.values] == [
        ("A", "1"),
        ("B", None),
        ("C", None),
    ]
    assert enum.values[1].attributes[0].name == "x"


def test_enum_without_underlying_type_parses():
    assert only("enum E { A }").underlying is None  # the resolver reports it


def test_union_members_with_alias_and_value():
    union = only("union U { A, Alias: n.B = 4 }")
    first, second = union.members
    assert first.alias is None and first.type.name.text == "A"
    assert second.alias.text == "Alias" and second.type.name.text == "n.B"
    assert second.value.text == "4" and second.location == Location("t.fbs", 1, 14)


def test_rpc_methods():
    service = only('rpc_service S { Get(a.Req):Resp (streaming: "server"); Put(X):Y; }')
    get, put = service.methods
    assert (get.name.text, get.request.text, get.response.text) == ("Get", "a.Req", "Resp")
    assert get.attributes[0].value.text == "server" and put.name.text == "Put"


def test_keywords_are_identifiers_where_names_are_expected():
    statements = parse(
        "table table { namespace: int; table: int; include: string; }\n"
        "enum enum : byte { struct, union }\nunion union { table }\n"
    )
    assert [x.name.text for x in statements] == ["table", "enum", "union"]
    assert [f.name.text for f in statements[0].fields] == ["namespace", "table", "include"]


def test_json_object_after_schema_is_skipped():
    statements = parse('table T { a: int; }\nroot_type T;\n{ a: 1, "b": [1, "x", {c: -inf}], }\n')
    assert isinstance(statements[-1], s.JsonObject)


def test_string_escapes():
    assert only(r'file_identifier "\x41\u0042\"\\";').value == 'AB"\\'


def test_comments_are_skipped():
    table = only("/* a\n b */ table /* c */ T { // d\n a: int; // e\n}\n")
    assert table.fields[0].name.text == "a"


def test_crlf_and_tabs():
    table = only("table T {\r\n\ta: int;\r\n}\r\n")
    assert table.fields[0].name.location == Location("t.fbs", 2, 2)


def test_spans_cover_doc_comments_and_end_after_the_last_token():
    text = "table A {}\n// plain\n/// Doc.\n/// More.\nunion U { A, /* x */ B = 3 , }\ntable B {}\n"
    _, union, last = parse(text)
    assert text[union.span.start : union.span.end] == (
        "/// Doc.\n/// More.\nunion U { A, /* x */ B = 3 , }"
    )
    assert [text[m.span.start : m.span.end] for m in union.members] == ["A", "B = 3"]
    assert text[last.span.start : last.span.end] == "table B {}"


def test_root_text_is_read_instead_of_the_root_file(tmp_path):
    write(tmp_path, "table I {}\n", "inc.fbs")
    root = write(tmp_path, "table Old {}\n")
    schema = load_schema(root, root_text='include "inc.fbs";\ntable New { i: I; }\n')
    assert [d.name for d in schema.declarations] == ["I", "New"]
    assert root.read_text() == "table Old {}\n"


# ---------------------------------------------------------------- doc comments


def test_doc_comments_kept_on_declarations_fields_and_values():
    text = (
        "/// A table.\n///  Indented.\ntable T {\n  /// The field.\n  a: int;\n  b: int;\n}\n"
        "/// An enum.\nenum E : byte {\n  /// First.\n  A,\n  B\n}\n"
        "union U {\n  /// Member.\n  T\n}\n"
    )
    table, enum, union = parse(text)
    assert table.doc == ("A table.", " Indented.")
    assert [f.doc for f in table.fields] == [("The field.",), ()]
    assert enum.doc == ("An enum.",) and [v.doc for v in enum.values] == [("First.",), ()]
    assert union.members[0].doc == ("Member.",)


def test_doc_comments_reach_the_model(tmp_path):
    schema = load(
        tmp_path,
        "/// Doc.\ntable T {\n  /// Field.\n  a: int;\n}\n"
        "/// S.\nstruct S {\n  /// X.\n  x: int;\n}\n"
        "enum E : byte {\n  /// A.\n  A\n}\n",
    )
    assert schema.lookup("T").doc == ("Doc.",) and schema.lookup("T").fields[0].doc == ("Field.",)
    assert schema.lookup("S").fields[0].doc == ("X.",)
    assert schema.lookup("E").values[0].doc == ("A.",)


def test_plain_and_block_comments_are_not_documentation():
    table = only("// plain\n/* block */\n/** block too */\ntable T {}\n")
    assert table.doc == ()


def test_doc_comment_before_non_declaration_is_dropped():
    statements = parse("/// dropped\nroot_type T;\n/// kept\ntable T {}\n")
    assert statements[1].doc == ("kept",)


def test_doc_comment_must_be_on_its_own_line(tmp_path):
    text = "table T { a: int; /// trailing\n}\n"
    assert_error_at(tmp_path, text, "/// trailing", "on a line of its own")


# ---------------------------------------------------------------- syntax errors


@pytest.mark.parametrize(
    "text, needle, fragment",
    [
        ("table T { a: int }\n", "}", "unexpected '}', expected"),
        ("tabel T {}\n", "tabel", "unexpected 'tabel'"),
        ("table T {};\n", ";", "unexpected ';'"),
        ("table T { 1a: int; }\n", "1a", "unexpected '1'"),
        ("table T { a: int;; }\n", ";|; }", "unexpected ';'"),
        ("table T { a: int; }\n/* open\n", "/* open", "unterminated block comment"),
        ('file_identifier "ABCD;\n', '"ABCD', "unterminated string"),
        ("table T\u00e9 {}\n", "\u00e9", "unexpected character"),
        ("table T () { a: int; }\n", ")", "unexpected ')'"),
        ("table T { a: int (id: 0,); }\n", ",|)", "unexpected ')'"),
        ("enum E : byte { A = B }\n", "B }", "unexpected 'B'"),
        (
            "enum E : ubyte (bit_flags) { A, B }\ntable T { e: E = A B; }\n",
            "A |B;",
            "unexpected 'B'",
        ),
        ("table T { a: [int] = [1]; }\n", "1]", "expected ']'"),
        ("namespace a..b;\n", ".|.b", "unexpected '.'"),
        ("rpc_service S {}\n", "}", "unexpected '}'"),
        ('attribute "a";\ntable T (a: foo) {}\n', "foo", "expected number, string"),
        ('attribute "a";\ntable T (a: true) {}\n', "true", "expected number, string"),
        ("enum E : byte { A }\ntable T { e: E = E.A; }\n", ".A;", "unexpected '.'"),
    ],
)
def test_syntax_errors(tmp_path, text, needle, fragment):
    assert_error_at(tmp_path, text, needle, fragment)


def test_unexpected_end_of_file(tmp_path):
    path = write(tmp_path, "table T {\n  a: int;\n")
    with pytest.raises(SchemaError) as raised:
        load_schema(path)
    (diagnostic,) = raised.value.diagnostics
    # Just after the last character, so that the diagnostic shows a source line.
    assert diagnostic.location == Location(str(path), 2, 10)
    assert "end of file" in diagnostic.message
    assert raised.value.render().splitlines()[1:] == ["  a: int;", " " * 9 + "^"]


@pytest.mark.parametrize("text", ["", "// only a comment\n/// and a doc\n"])
def test_empty_schema_rejected(tmp_path, text):
    assert_error_at(tmp_path, text + "\n", "\n", "empty") if text == "" else None
    path = write(tmp_path, text)
    with pytest.raises(SchemaError, match="empty"):
        load_schema(path)


def test_include_after_declaration(tmp_path):
    write(tmp_path, "table A {}\n", "a.fbs")
    assert_error_at(tmp_path, 'namespace x;\ninclude "a.fbs";\n', "include", "must come before")


def test_native_include_may_precede_include(tmp_path):
    write(tmp_path, "table A {}\n", "a.fbs")
    load(tmp_path, 'native_include "x.h";\ninclude "a.fbs";\ntable B { a: A; }\n')


# ---------------------------------------------------------------- includes


def test_included_declarations_come_first(tmp_path):
    write(tmp_path, "namespace lib;\ntable L {}\n", "lib/l.fbs")
    root = write(tmp_path, 'include "lib/l.fbs";\ntable R { l: lib.L; }\n', "root.fbs")
    schema = load_schema(root)
    assert [d.qualified_name for d in schema.declarations] == ["lib.L", "R"]
    assert schema.files == (str(root), str(tmp_path / "lib" / "l.fbs"))
    assert schema.lookup("lib.L").file == str(tmp_path / "lib" / "l.fbs")


def test_include_resolved_next_to_including_file_then_root_folder(tmp_path):
    write(tmp_path, "table Top {}\n", "top.fbs")
    write(tmp_path, "table Leaf {}\n", "sub/leaf.fbs")
    write(
        tmp_path,
        'include "leaf.fbs";\ninclude "top.fbs";\ntable Mid { l: Leaf; t: Top; }\n',
        "sub/mid.fbs",
    )
    root = write(tmp_path, 'include "sub/mid.fbs";\ntable R { m: Mid; }\n', "root.fbs")
    assert [d.name for d in load_schema(root).declarations] == ["Leaf", "Top", "Mid", "R"]


def test_include_dirs(tmp_path):
    write(tmp_path, "table Far {}\n", "elsewhere/far.fbs")
    root = write(tmp_path, 'include "far.fbs";\ntable R { f: Far; }\n', "src/root.fbs")
    with pytest.raises(SchemaError, match="cannot find included file 'far.fbs'"):
        load_schema(root)
    schema = load_schema(root, include_dirs=[tmp_path / "elsewhere"])
    assert schema.lookup("R").fields[0].type.decl == "Far"


def test_each_file_parsed_once(tmp_path):
    write(tmp_path, "table Shared {}\n", "shared.fbs")
    write(tmp_path, 'include "shared.fbs";\ntable A {}\n', "a.fbs")
    write(tmp_path, 'include "shared.fbs";\ntable B {}\n', "b.fbs")
    root = write(
        tmp_path,
        'include "a.fbs";\ninclude "./b.fbs";\ninclude "shared.fbs";\n' "table R {}\n",
        "root.fbs",
    )
    syntax = parse_schema(root)
    assert len(syntax.files) == 4
    assert [d.name for d in load_schema(root).declarations] == ["Shared", "A", "B", "R"]


def test_include_cycle_is_cut_and_each_file_parsed_once(tmp_path):
    # flatc accepts include cycles (its include guard cuts them); so do we.
    write(tmp_path, 'include "b.fbs";\ntable A { b: B; }\n', "a.fbs")
    write(tmp_path, 'include "a.fbs";\ntable B { a: A; }\n', "b.fbs")
    root = write(tmp_path, 'include "a.fbs";\ntable R { a: A; }\nroot_type R;\n', "root.fbs")
    syntax = parse_schema(root)
    assert [os.path.basename(f.path) for f in syntax.files] == ["b.fbs", "a.fbs", "root.fbs"]
    assert [d.name for d in load_schema(root).declarations] == ["B", "A", "R"]
    assert flatc_accepts(root)


def test_self_include_is_cut(tmp_path):
    root = write(tmp_path, 'include "root.fbs";\ntable R {}\n', "root.fbs")
    assert [d.name for d in load_schema(root).declarations] == ["R"]
    assert flatc_accepts(root)


def flatc_accepts(schema) -> bool:
    from codegen.flatc import find_flatc

    out = tempfile.mkdtemp()
    return find_flatc().run("--python", "-o", out, str(schema)).returncode == 0


def test_missing_include_located_at_include(tmp_path):
    text = 'include "nope.fbs";\ntable R {}\n'
    assert_error_at(tmp_path, text, "include", "cannot find included file 'nope.fbs'")


def test_error_in_included_file_points_into_it(tmp_path):
    write(tmp_path, "table Broken {\n  a: Missing;\n}\n", "inc/broken.fbs")
    root = write(tmp_path, 'include "inc/broken.fbs";\ntable R {}\n', "root.fbs")
    with pytest.raises(SchemaError) as raised:
        load_schema(root)
    assert raised.value.diagnostics[0].location == Location(
        str(tmp_path / "inc" / "broken.fbs"), 2, 6
    )


def test_duplicate_across_files(tmp_path):
    write(tmp_path, "table Dup {}\n", "dup.fbs")
    text = 'include "dup.fbs";\ntable Dup {}\n'
    assert_error_at(tmp_path, text, "table |Dup", "'Dup' is already declared")


def test_attribute_declared_in_included_file(tmp_path):
    write(tmp_path, 'attribute "mark";\n', "attrs.fbs")
    table = load(tmp_path, 'include "attrs.fbs";\ntable T (mark) {}\n').lookup("T")
    assert table.attributes[0].name == "mark"


def test_whole_schema_end_to_end(tmp_path):
    text = (
        "namespace game;\n/// Colour.\nenum Color : ubyte { Red, Green = 2 }\n"
        "struct Vec { x: float; y: float; }\n"
        "table Monster { pos: Vec; color: Color = Green; name: string (key); "
        "inventory: [ubyte]; }\nroot_type Monster;\n"
    )
    schema = load(tmp_path, text)
    monster = schema.lookup("game.Monster")
    pos, color, name, inventory = monster.fields
    assert pos.type.kind is TypeKind.STRUCT and pos.type.decl == "game.Vec"
    assert color.type.kind is TypeKind.ENUM and color.type.scalar is Scalar.UINT8
    assert color.default.value == 2 and name.key
    assert inventory.type.element.scalar is Scalar.UINT8
    assert schema.root_type == "game.Monster"
    assert position(text, "Monster {") == (monster.location.line, monster.location.column)


def test_native_include_after_declaration(tmp_path):
    text = 'table T {}\nnative_include "x.h";\n'
    assert_error_at(tmp_path, text, "native_include", "must come before")


@pytest.mark.parametrize(
    "literal, fragment",
    [(r'"\q234"', "unknown escape sequence"), (r'"\x4"', "invalid escape sequence")],
)
def test_bad_string_escapes(tmp_path, literal, fragment):
    text = f"file_identifier {literal};\n"
    assert_error_at(tmp_path, text, literal, fragment)


def test_control_character_in_string(tmp_path):
    text = 'file_identifier "AB\tC";\n'
    assert_error_at(tmp_path, text, '"AB', "illegal character")
