"""The rules only flatc --python has (codegen/targets/flatc_python_rules.py).

Each schema here breaks one: we refuse it at its token, flatc --python refuses
it, and another of flatc's languages takes it; so the rule belongs with the
Python target. The rules next to them in codegen.resolve that every language
has are checked the other way: flatc refuses those for C++ too."""

from __future__ import annotations

import pytest

from codegen.flatc import find_flatc
from schema_helpers import assert_error_at, write

ONLY_PYTHON = [
    pytest.param(
        "table A {}\nunion U { A }\ntable T { u: [U]; }\n", "[U]", "vectors of unions", "--cpp",
        id="vector_of_unions",
    ),
    pytest.param(
        "struct S { x: int; }\nunion U { S }\n", "{ |S }", "must be tables", "--cpp",
        id="struct_member",
    ),
    pytest.param(
        "struct S { x: int; }\nunion U { X: S }\n", "X: |S", "must be tables", "--cpp",
        id="aliased_struct_member",
    ),
    pytest.param(
        "table A {}\nunion U { A, S: string }\n", "S: |string", "no string union members",
        "--cpp", id="string_member",
    ),
    pytest.param(
        "table T { v: [ubyte] (offset64); }\n", "offset64", "64-bit offsets (offset64)", "--cpp",
        id="offset64",
    ),
    pytest.param(
        "table T { v: [ubyte] (vector64); }\n", "vector64", "64-bit offsets (vector64)", "--cpp",
        id="vector64",
    ),
    pytest.param(
        'table T { s: string = "hi"; }\n', '"hi"', "default values for strings", "--cpp",
        id="string_default",
    ),
    pytest.param(
        "table T { v: [int] = []; }\n", "[];", "default values for strings and vectors", "--cpp",
        id="vector_default",
    ),
    pytest.param(
        'namespace a;\ntable R {}\ntable T { n: [ubyte] (nested_flatbuffer: "R"); }\n'
        "namespace b;\n",
        '"R"', "cannot find nested_flatbuffer root 'R'", "--ts", id="nested_root",
    ),
    pytest.param(
        'table T {}\nroot_type T;\nfile_identifier "ab\u00e9";\n', '"ab',
        "non-ASCII", "--cpp", id="non_ascii_identifier",
    ),
]  # fmt: skip

EVERY_LANGUAGE = [
    pytest.param(
        "table T { v: [int]; v_length: int; }\n", "v_length", "clashes with what flatc generates",
        id="generated_name",
    ),
    pytest.param(
        "table T { x: int (offset64); }\n", "offset64", "on this field type", id="offset64_int",
    ),
    pytest.param("union U { int }\n", "int", "must be tables", id="bare_scalar_member"),
]  # fmt: skip


@pytest.fixture(scope="module")
def flatc():
    return find_flatc()


def flatc_accepts(flatc, tmp_path, language: str) -> bool:
    out = tmp_path / language.strip("-")
    return flatc.run(language, "-o", str(out), str(tmp_path / "schema.fbs")).returncode == 0


@pytest.mark.parametrize("text, needle, fragment, other_language", ONLY_PYTHON)
def test_only_python_refuses(text, needle, fragment, other_language, flatc, tmp_path):
    assert_error_at(tmp_path, text, needle, fragment)
    write(tmp_path, text)
    assert not flatc_accepts(flatc, tmp_path, "--python")
    assert flatc_accepts(flatc, tmp_path, other_language), f"{other_language} refuses it too"


@pytest.mark.parametrize("text, needle, fragment", EVERY_LANGUAGE)
def test_every_language_refuses(text, needle, fragment, flatc, tmp_path):
    assert_error_at(tmp_path, text, needle, fragment)
    write(tmp_path, text)
    assert not flatc_accepts(flatc, tmp_path, "--python")
    assert not flatc_accepts(flatc, tmp_path, "--cpp")
