"""mlx_delegate/host/c_api.py against the C headers it was written from: every function of a table
has the header's return and argument types, every function a header exports is in the table
(or listed as not bound), every callback typedef matches its ctypes type. The headers are
parsed here, strictly: a declaration this parser does not understand fails the test rather
than being skipped."""

from __future__ import annotations

import ctypes
import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from mlx_delegate.host import c_api

INCLUDE_DIR = Path(__file__).resolve().parents[3] / "runtime_cpp" / "include"
LIBRARIES = {"host": c_api.HOST, "delegate": c_api.DELEGATE}

# The ctypes type of each C type passed by value (None: void).
SCALARS = {
    "void": None,
    "char": ctypes.c_char,
    "int": ctypes.c_int,
    "float": ctypes.c_float,
    "double": ctypes.c_double,
    "size_t": ctypes.c_size_t,
    "uint8_t": ctypes.c_uint8,
    "int32_t": ctypes.c_int32,
    "int64_t": ctypes.c_int64,
    "uint64_t": ctypes.c_uint64,
}


@dataclass(frozen=True)
class CType:
    base: str  # "char", "uint64_t", "mlxd_program" (const dropped: ctypes has none)
    pointers: int  # how many `*`

    def __str__(self) -> str:
        return self.base + "*" * self.pointers


@dataclass(frozen=True)
class CDeclaration:
    restype: CType
    argtypes: tuple[CType, ...]


@dataclass(frozen=True)
class Header:
    functions: dict[str, CDeclaration]  # the exported functions
    callbacks: dict[str, CDeclaration]  # typedef R (*name)(...)
    opaque: frozenset[str]  # typedef struct X X


# --- parsing ------------------------------------------------------------------------------

EXPORTED = re.compile(r"MLXD_EXPORT\s+([^;(]+)\(([^()]*)\)\s*;")
CALLBACK = re.compile(r"typedef\s+([^;(]+)\(\s*\*\s*(\w+)\s*\)\s*\(([^()]*)\)\s*;")
OPAQUE = re.compile(r"typedef\s+struct\s+(\w+)\s+(\w+)\s*;")
LINKAGE = re.compile(r'extern\s+"C"\s*\{|\}')


def parse_type(text: str, named: bool) -> tuple[CType, str]:
    """`const char* const* allowed` -> (char**, "allowed"); `named`: the last word is a name."""
    tokens = [t for t in re.findall(r"\w+|\*|\S", text) if t != "const"]
    name = tokens.pop() if named and len(tokens) > 1 and tokens[-1] != "*" else ""
    words = [t for t in tokens if t != "*"]
    if len(words) != 1 or not re.fullmatch(r"\w+", words[0]):
        raise ValueError(f"cannot read the C type in {text.strip()!r}")
    return CType(words[0], tokens.count("*")), name


def parse_params(text: str) -> tuple[CType, ...]:
    if text.strip() in ("", "void"):
        return ()
    return tuple(parse_type(param, named=True)[0] for param in text.split(","))


def parse_header(text: str) -> Header:
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    functions, callbacks = {}, {}
    for m in EXPORTED.finditer(text):
        restype, name = parse_type(m[1], named=True)
        functions[name] = CDeclaration(restype, parse_params(m[2]))
    for m in CALLBACK.finditer(text):
        callbacks[m[2]] = CDeclaration(parse_type(m[1], named=False)[0], parse_params(m[3]))
    opaque = frozenset(m[2] for m in OPAQUE.finditer(text))
    leftover = LINKAGE.sub(" ", OPAQUE.sub(" ", CALLBACK.sub(" ", EXPORTED.sub(" ", text))))
    if leftover.strip():
        raise ValueError(f"declarations this test cannot read: {' '.join(leftover.split())!r}")
    return Header(functions, callbacks, opaque)


# --- C types to ctypes --------------------------------------------------------------------


def accepted(ctype: CType, header: Header, library: c_api.CLibrary) -> set:
    """The ctypes types that pass `ctype` faithfully. A pointer may also be a c_void_p (an
    address ctypes does not look into); `char*` is always c_char_p (bytes in and out)."""
    if ctype.pointers == 0:
        if ctype.base in library.callbacks:
            return {library.callbacks[ctype.base]}
        if ctype.base in header.opaque:
            return set()  # only ever behind a pointer
        if ctype.base not in SCALARS:
            raise ValueError(f"no ctypes type for the C type {ctype}")
        return {SCALARS[ctype.base]}
    if ctype == CType("char", 1):
        return {ctypes.c_char_p}
    if ctype == CType("void", 1):
        return {ctypes.c_void_p}
    pointee = accepted(CType(ctype.base, ctype.pointers - 1), header, library)
    return {ctypes.POINTER(t) for t in pointee} | {ctypes.c_void_p}


def type_name(t) -> str:
    return "None" if t is None else t.__name__


def signature_problems(
    name: str, c: CDeclaration, restype, argtypes, header: Header, library: c_api.CLibrary
) -> list[str]:
    if len(argtypes) != len(c.argtypes):
        return [f"{name}: {len(argtypes)} arguments in c_api, {len(c.argtypes)} in the header"]
    found = []
    if restype not in accepted(c.restype, header, library):
        found.append(f"{name}: returns {c.restype} in the header, {type_name(restype)} in c_api")
    for i, (ours, theirs) in enumerate(zip(argtypes, c.argtypes)):
        if ours not in accepted(theirs, header, library):
            found.append(
                f"{name}: argument {i} is {theirs} in the header, {type_name(ours)} in c_api"
            )
    return found


def problems(library: c_api.CLibrary, header_text: str) -> list[str]:
    """Every disagreement between `library` and its header's text, as a sentence."""
    header = parse_header(header_text)
    found = []
    for name, fn in library.functions.items():
        if name not in header.functions:
            found.append(f"{name}: in c_api, not exported by {library.header}")
        else:
            c = header.functions[name]
            found += signature_problems(name, c, fn.restype, fn.argtypes, header, library)
    for name in header.functions:
        if name not in library.functions and name not in library.not_bound:
            found.append(f"{name}: exported by {library.header}, not in c_api (nor not_bound)")
    for name, cfunctype in library.callbacks.items():
        if name not in header.callbacks:
            found.append(f"{name}: a callback in c_api, no typedef in {library.header}")
        else:
            c = header.callbacks[name]
            args = cfunctype._argtypes_
            found += signature_problems(name, c, cfunctype._restype_, args, header, library)
    return found


def header_text(library: c_api.CLibrary) -> str:
    return (INCLUDE_DIR / library.header).read_text()


# --- the tests ----------------------------------------------------------------------------


@pytest.mark.parametrize("library", LIBRARIES.values(), ids=list(LIBRARIES))
def test_table_matches_header(library):
    assert problems(library, header_text(library)) == []


def test_not_bound_names_are_in_the_header():
    for library in LIBRARIES.values():
        exported = parse_header(header_text(library)).functions
        assert [name for name in library.not_bound if name not in exported] == []


# Each edit of host_c_api.h, and the problem it must raise.
DOCTORED = {
    "argument type": (
        "const char* device, uint64_t value,",
        "const char* device, double value,",
        "mlxd_memory: argument 2 is double in the header",
    ),
    "integer width": (
        "int64_t m, int64_t k",
        "int m, int64_t k",
        "mlxd_run_builtin_f32: argument 5",
    ),
    "pointer depth": (
        "const char* const* allowed, int n_allowed, const char* const* blocked,\n",
        "const char* allowed, int n_allowed, const char* const* blocked,\n",
        "mlxd_load_all: argument 0 is char*",
    ),
    "return type": (
        "int mlxd_load(const char* path);",
        "const char* mlxd_load(const char* path);",
        "mlxd_load: returns char* in the header, c_int in c_api",
    ),
    "argument added": (
        "mlxd_add_search_path(const char* dir);",
        "mlxd_add_search_path(const char* dir, int first);",
        "mlxd_add_search_path: 1 arguments in c_api, 2 in the header",
    ),
    "callback typedef": (
        "int score, void* user_data",
        "double score, void* user_data",
        "mlxd_filter_callback: argument 1 is double",
    ),
    "function removed": (
        "MLXD_EXPORT int mlxd_load_best(const char* name);",
        "",
        "mlxd_load_best: in c_api, not exported by",
    ),
    "function added": (
        "MLXD_EXPORT int mlxd_load_best(const char* name);",
        "MLXD_EXPORT int mlxd_load_best(const char* name);\nMLXD_EXPORT int mlxd_unload(int i);",
        "mlxd_unload: exported by mlx_delegate/host_c_api.h, not in c_api",
    ),
}


@pytest.mark.parametrize("old, new, expected", DOCTORED.values(), ids=list(DOCTORED))
def test_a_changed_header_is_caught(old, new, expected):
    text = header_text(c_api.HOST)
    assert old in text, "the header changed: update this case"
    found = problems(c_api.HOST, text.replace(old, new, 1))
    assert any(expected in problem for problem in found), found


def test_a_changed_table_is_caught():
    functions = dict(c_api.HOST.functions)
    functions["mlxd_memory"] = c_api.CFunction(
        ctypes.c_int, (ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64, ctypes.c_void_p)
    )
    doctored = dataclasses.replace(c_api.HOST, functions=functions)
    found = problems(doctored, header_text(c_api.HOST))
    assert len(found) == 1 and found[0].startswith("mlxd_memory: argument 2 is uint64_t"), found


def test_an_unreadable_declaration_fails():
    text = header_text(c_api.HOST) + "\nMLXD_EXPORT int mlxd_each(void (*f)(int));\n"
    with pytest.raises(ValueError, match="cannot read"):
        parse_header(text)
