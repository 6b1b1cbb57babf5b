"""Differential fuzzing of the schema front end against flatc.

Every case is a schema (a root file, perhaps with files it includes) that goes
through both `flatc --python` and our command line (`generate --skip-flatc`,
run in-process); the two must take the same decision, and when ours refuses it
must do so with one located `file:line:col: error:` diagnostic (the source line
and a caret under it, exit status 2), never with a Python traceback.

Cases come from two sources, each seeded so that a case can be replayed from
its id (`generated:SEED:N`, `mutated:SEED:N`):

- a grammar-aware generator of whole schemas (includes, namespaces, attributes,
  enums, unions, structs with arrays, tables with defaults of every kind, rpc
  services, file-level statements, keywords used as names), written to be
  mostly valid with a few risky choices per schema, so that both decisions
  occur and a refusal has few causes;
- small token and line mutations of the schemas in tests/codegen/corpus.

    python -m codegen.fuzz --seconds 600            # both sources, prints disagreements
    python -m codegen.fuzz --replay generated:13:42 # one case, with both verdicts

A disagreement found here is minimized (`--minimize`) and becomes a corpus case.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

from .flatc import Flatc, find_flatc

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "codegen" / "corpus"
ROOT_FILE = "schema.fbs"
DIAGNOSTIC_HEAD = re.compile(r"^\S[^:\n]*:\d+:\d+: error: \S")
# Corpus files whose subject is out of scope (see codegen/README.md): JSON data
# after the schema is read by flatc as a buffer, by us only as syntax.
MUTATION_EXCLUDED = frozenset({"json_obj.fbs", "json_no_root.fbs"})


# ---------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    """A schema to decide: `files[ROOT_FILE]` is the root, other paths are
    files it may include (relative to the root's folder)."""

    id: str
    files: dict[str, str]
    note: str = ""  # how it was made (the mutations applied, for mutated cases)

    @property
    def root(self) -> str:
        return self.files[ROOT_FILE]


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    output: str  # what the tool printed (stderr), for the report


@dataclass(frozen=True)
class Finding:
    """kind: `disagreement` (flatc and we decide differently), `crash` (our
    command raised instead of reporting), `unlocated` (our refusal is not one
    located diagnostic with its source line and caret)."""

    kind: str
    case: Case
    flatc: Verdict
    ours: Verdict

    def report(self) -> str:
        lines = [
            f"== {self.kind}: {self.case.id}" + (f" ({self.case.note})" if self.case.note else ""),
            f"flatc: {'accepts' if self.flatc.accepted else 'refuses'}"
            + _indented(self.flatc.output),
            f"ours:  {'accepts' if self.ours.accepted else 'refuses'}"
            + _indented(self.ours.output, tail=self.kind == "crash"),
        ]
        for path, text in sorted(self.case.files.items(), key=lambda kv: kv[0] != ROOT_FILE):
            lines.append(f"--- {path}")
            lines.append(text.rstrip("\n"))
        return "\n".join(lines)


def _indented(text: str, limit: int = 12, tail: bool = False) -> str:
    """The first lines of a tool's output (the last ones of a traceback)."""
    lines = text.strip().splitlines()
    shown = lines[-limit:] if tail else lines[:limit]
    return "".join(f"\n    {line}" for line in shown)


# ---------------------------------------------------------------- oracles


class Oracles:
    """Runs flatc and our command line on cases, in a private scratch folder
    (our format cache included, so fuzzing leaves the repository's cache alone)."""

    def __init__(self, flatc: Optional[Flatc] = None):
        self.flatc = flatc or find_flatc()
        self.scratch = Path(tempfile.mkdtemp(prefix="codegen-fuzz-"))
        self.count = 0

    def close(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)

    def __enter__(self) -> "Oracles":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextlib.contextmanager
    def _case_folder(self, case: Case) -> Iterator[Path]:
        self.count += 1
        folder = self.scratch / f"c{self.count}"
        for path, text in case.files.items():
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8", "surrogateescape"))
        try:
            yield folder
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def decide(self, case: Case) -> tuple[Verdict, Verdict, Optional[str]]:
        """(flatc's verdict, ours, why ours is malformed or None)."""
        with self._case_folder(case) as folder:
            root = folder / ROOT_FILE
            result = self.flatc.run("--python", "-o", str(folder / "flatc_out"), str(root))
            flatc = Verdict(result.returncode == 0, (result.stderr + result.stdout).strip())
            ours, problem = run_ours(root, folder / "ours_out", self.scratch / "cache")
        return flatc, ours, problem


def run_ours(schema: Path, out: Path, cache: Path) -> tuple[Verdict, Optional[str]]:
    """Our command line, in-process: `generate --skip-flatc -q`. Returns the
    verdict and, when the run did not end as the command line must end (exit 0,
    or exit 2 with a located diagnostic), what went wrong instead."""
    from . import cli

    stderr = io.StringIO()
    previous = os.environ.get("MLXD_CODEGEN_CACHE")
    os.environ["MLXD_CODEGEN_CACHE"] = str(cache)
    try:
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            status = cli.main(
                ["generate", "--skip-flatc", "-q", "--schema", str(schema), "--out", str(out)]
            )
    except BaseException as error:  # what would reach the user as a traceback
        import traceback

        text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        return Verdict(False, text), "crash"
    finally:
        if previous is None:
            os.environ.pop("MLXD_CODEGEN_CACHE", None)
        else:
            os.environ["MLXD_CODEGEN_CACHE"] = previous
    text = stderr.getvalue()
    if status == 0:
        return Verdict(True, text), None
    return Verdict(False, text), _malformed_refusal(status, text)


def _malformed_refusal(status: int, text: str) -> Optional[str]:
    if status != 2:
        return "crash" if status not in (1, 2) else "unlocated"
    lines = text.rstrip("\n").split("\n")
    if not DIAGNOSTIC_HEAD.match(lines[0]) or len(lines) < 3:
        return "unlocated"
    # `file:line:col: error: message`, then the source line, then the caret.
    column = int(lines[0].split(":")[2])
    caret = lines[2]
    if caret.strip() != "^" or len(caret) != column:
        return "unlocated"
    return None


def compare(case: Case, oracles: Oracles) -> tuple[Optional[Finding], Verdict, Verdict]:
    """(the finding if any, flatc's verdict, ours)."""
    flatc, ours, problem = oracles.decide(case)
    finding = None
    if problem == "crash":
        finding = Finding("crash", case, flatc, ours)
    elif flatc.accepted != ours.accepted:
        finding = Finding("disagreement", case, flatc, ours)
    elif problem is not None:
        finding = Finding(problem, case, flatc, ours)
    return finding, flatc, ours


def check(case: Case, oracles: Oracles) -> Optional[Finding]:
    return compare(case, oracles)[0]


# ---------------------------------------------------------------- the generator

SCALARS = (
    "bool byte ubyte short ushort int uint long ulong float double "
    "int8 uint8 int16 uint16 int32 uint32 int64 uint64 float32 float64"
).split()
INTEGERS = [t for t in SCALARS if t not in ("bool", "float", "double", "float32", "float64")]
FLOATS = ("float", "double", "float32", "float64")
SIZE = {
    "bool": 1, "byte": 1, "ubyte": 1, "int8": 1, "uint8": 1, "short": 2, "ushort": 2,
    "int16": 2, "uint16": 2, "int": 4, "uint": 4, "int32": 4, "uint32": 4, "float": 4,
    "float32": 4, "long": 8, "ulong": 8, "int64": 8, "uint64": 8, "double": 8, "float64": 8,
}  # fmt: skip
KEYWORDS = (
    "table struct enum union namespace root_type include attribute rpc_service "
    "file_identifier file_extension native_include"
).split()
# Names that are keywords somewhere (flatc, Python, C++) or look like values.
TRICKY_NAMES = (
    KEYWORDS
    + (
        "int float string bool byte true false null nan inf NONE None class def import self "
        "private public type vector required id key deprecated _x x_ T0 lambda async"
    ).split()
)
TYPE_NAMES = "Foo Bar Baz Node Item Vec Color Monster Weapon Pos Stat Req Resp Any Kind".split()
FIELD_NAMES = "a b c x y z name value pos hp count items flags kind data extra".split()
NAMESPACES = ("a", "b", "game", "x.y", "a.b", "a.b.c", "my_ns", "table", "T")
HASHES = {2: ("fnv1_16", "fnv1a_16"), 4: ("fnv1_32", "fnv1a_32"), 8: ("fnv1_64", "fnv1a_64")}


def _int_range(scalar: str) -> tuple[int, int]:
    if scalar == "bool":
        return 0, 1
    bits = SIZE[scalar] * 8
    if scalar.startswith("u"):
        return 0, (1 << bits) - 1
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


@dataclass
class _Decl:
    kind: str  # table struct enum union rpc
    name: str
    namespace: tuple[str, ...]
    index: int
    values: list[tuple[str, int]] = field(default_factory=list)  # enums
    underlying: str = "int"
    bit_flags: bool = False

    @property
    def qualified(self) -> str:
        return ".".join(self.namespace + (self.name,))


class SchemaGenerator:
    """One random schema per call; `risk` is the chance that a choice point
    takes a variant flatc may refuse (a rule's edge or a plain mistake)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.risk = rng.choice((0.0, 0.01, 0.03, 0.06, 0.1))
        self.decls: list[_Decl] = []
        self.user_attributes: list[str] = []
        self.files: dict[str, str] = {}

    # -- small helpers

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def risky(self, weight: float = 1.0) -> bool:
        return self.rng.random() < self.risk * weight

    def pick(self, seq):
        return self.rng.choice(list(seq))

    def quote(self, text: str) -> str:
        """A string constant of text (written as schema source: escapes kept)."""
        if self.chance(0.25):
            return "'" + text.replace("'", "\\'") + "'"
        return '"' + text.replace('"', '\\"') + '"'

    def name(self, pool: Sequence[str], taken: set[str]) -> str:
        for _ in range(20):
            if self.chance(0.12):
                candidate = self.pick(TRICKY_NAMES)
            else:
                candidate = self.pick(pool)
                if self.chance(0.4):
                    candidate += str(self.rng.randrange(10))
            if candidate not in taken or self.risky(0.5):
                taken.add(candidate)
                return candidate
        candidate = f"n{len(taken)}_{self.rng.randrange(1000)}"
        taken.add(candidate)
        return candidate

    def doc(self, indent: str = "") -> str:
        if not self.chance(0.15):
            return ""
        if self.risky(0.3):
            return f"{indent}/* note */ /// odd doc\n"
        return f"{indent}/// {self.pick(['doc', 'the thing', 'x < y & z', 'é'])}\n"

    def comment(self) -> str:
        roll = self.rng.random()
        if roll < 0.05:
            return " // comment\n"
        if roll < 0.08:
            return " /* block\n comment */ "
        return ""

    # -- references

    def spell(self, target: _Decl, namespace: tuple[str, ...]) -> str:
        """A way to write target's name from inside namespace."""
        options = [target.qualified]
        ns = target.namespace
        if ns[: len(namespace)] == namespace:
            options.append(".".join(ns[len(namespace) :] + (target.name,)))
        for depth in range(len(namespace), -1, -1):
            if namespace[:depth] == ns:
                options.append(target.name)
        if self.risky(0.3):
            options = [target.name, "." + target.qualified, target.qualified + ".x"]
        return self.pick(options)

    def reference(self, kinds: Sequence[str], namespace, index: int, forward: bool = True):
        """(spelling, decl) of a declaration of one of kinds: mostly an earlier
        one, sometimes (if forward) a later one; (None, None) if there is none."""
        earlier = [d for d in self.decls if d.kind in kinds and d.index < index]
        later = [d for d in self.decls if d.kind in kinds and d.index > index]
        pool = earlier
        if later and ((forward and (not earlier or self.chance(0.25))) or self.risky(0.3)):
            pool = later
        if self.risky(0.1):
            return self.pick(["Missing", "a.Missing", "int8x"]), None
        if not pool:
            return None, None
        target = self.pick(pool)
        return self.spell(target, namespace), target

    # -- literals

    def integer(self, low: int, high: int) -> str:
        if self.risky(0.5):
            value = self.pick([high + 1, low - 1, 1 << 64, -(1 << 63) - 1])
        else:
            value = self.pick([0, 1, low, high, self.rng.randint(low, high)])
        form = self.rng.random()
        if form < 0.15 and value >= 0:
            return hex(value) if self.chance(0.5) else hex(value).upper().replace("0X", "0x")
        if form < 0.2 and value >= 0:
            return f"+{value}"
        return str(value)

    def float_literal(self) -> str:
        return self.pick(
            [
                "0", "1.5", "-2.25", ".5", "1.", "1e3", "-1E-3", "3.4e38", "1e39", "0x1p3",
                "0x1.8p1", "-0x.8p-1", "nan", "-nan", "+nan", "inf", "-inf", "+inf",
                "infinity", "-infinity", "NaN", "INF", "cos(0)", "deg(1.5)", "sin(-1)",
                "rad(90)", "atan(tan(1))", "007", "-0",
            ]
        )  # fmt: skip

    def risky_literal(self) -> str:
        return self.pick(
            [
                "0x10", "0x1.8", "1e", "pi", "-pi", "nan(1)", "cos (0)", "foo(1)", "- 5",
                "1.2.3", "true", "null", "[]", '"x"', "'5 '", '" 5"', '"\\x35"', '"5\\t"',
                "NONE", "E.A", '"A.X"', "A", "1_000", "0b101", "--1", "+-1", "$",
            ]
        )  # fmt: skip

    # -- declarations

    def plan(self) -> None:
        """Names, kinds and namespaces of the root file's declarations."""
        taken: set[str] = {d.name for d in self.decls}
        namespace: tuple[str, ...] = ()
        count = self.rng.randint(2, 9)
        for i in range(count):
            if self.chance(0.3):
                namespace = tuple(self.pick(NAMESPACES).split(".")) if self.chance(0.85) else ()
            kind = self.pick(["table"] * 4 + ["struct"] * 2 + ["enum"] * 2 + ["union", "rpc"])
            self.decls.append(_Decl(kind, self.name(TYPE_NAMES, taken), namespace, i))

    def enum_body(self, decl: _Decl) -> str:
        if decl.kind == "union":
            return self.union_body(decl)
        underlying = self.pick(INTEGERS)
        if self.risky(0.5):
            underlying = self.pick(
                ["float", "bool", "string", "[int]", "Foo"]
                + [d.qualified for d in self.decls if d.kind == "enum" and d.index < decl.index]
            )
        decl.underlying = underlying
        decl.bit_flags = self.chance(0.15)
        attributes = ["bit_flags"] if decl.bit_flags else []
        if self.risky(0.2):
            attributes.append(self.pick(["force_align: 4", "original_order", "id: 1"]))
        header = f"enum {decl.name}"
        if not self.risky(0.2):
            header += f" : {underlying}"
        header += self.metadata(attributes)
        count = self.rng.choice([0, 1, 2, 3, 4, 5]) if not self.chance(0.1) else 0
        low, high = _int_range(underlying) if underlying in SIZE else (-128, 127)
        if decl.bit_flags:
            low, high = 0, SIZE.get(underlying, 1) * 8 - 1
        names: set[str] = set()
        items, value = [], 0
        for _ in range(count):
            name = self.name(["A", "B", "C", "Red", "Green", "Blue", "X", "Y"], names)
            text = name
            if self.chance(0.3) or self.risky():
                value = self.rng.randint(value, min(high, value + 5)) if value <= high else value
                if self.risky(0.5):
                    value = self.rng.choice([low - 1, high + 1, -1, value - 1])
                text += f" = {self.integer_text(value)}"
            if self.chance(0.05):
                text += self.metadata([self.pick(["deprecated", "id: 2"])])
            items.append(self.doc("  ") + "  " + text)
            decl.values.append(
                (name, (1 << value) if decl.bit_flags and 0 <= value < 64 else value)
            )
            value += 1
        trailing = "," if items and self.chance(0.2) else ""
        return f"{header} {{\n" + ",\n".join(items) + trailing + "\n}\n"

    def integer_text(self, value: int) -> str:
        if value >= 0 and self.chance(0.15):
            return hex(value)
        return str(value)

    def union_body(self, decl: _Decl) -> str:
        header = f"union {decl.name}"
        if self.risky(0.2):
            header += " : ubyte"
        header += self.metadata([])
        items = []
        names: set[str] = set()
        for _ in range(self.rng.randint(0, 4)):
            kinds = ["table"] if not self.risky(0.5) else ["struct", "enum", "union", "table"]
            spelled, target = self.reference(kinds, decl.namespace, decl.index)
            if spelled is None:
                continue
            if self.risky(0.2):
                spelled = self.pick(["string", "NONE", "int"])
            text = spelled
            if self.chance(0.25) or spelled in names:
                text = f"{self.name(['a', 'b', 'c', 'm'], names)}: {spelled}"
            names.add(spelled)
            if self.chance(0.15):
                text += f" = {self.integer(0, 255)}"
            items.append("  " + text)
        trailing = "," if items and self.chance(0.2) else ""
        return f"{header} {{\n" + ",\n".join(items) + trailing + "\n}\n"

    def metadata(self, attributes: list[str]) -> str:
        if (self.user_attributes and self.chance(0.1)) or self.risky(0.1):
            attributes = attributes + [self.user_attribute()]
        if not attributes:
            return " ()" if self.risky(0.1) else ""
        return " (" + ", ".join(attributes) + ")"

    def user_attribute(self) -> str:
        if self.user_attributes and not self.risky(0.5):
            name = self.pick(self.user_attributes)
        else:
            name = "undeclared_attr"
        if self.chance(0.5):
            return name
        value = self.pick(['"text"', "'v'", "7", "-1", "0x10", "+2", "-2147483648"])
        if self.risky():
            value = self.pick(["2147483648", "1.5", "true", "x", "-x", "cos(0)", "[]"])
        return f"{name}: {value}"

    def struct_body(self, decl: _Decl) -> str:
        attributes = []
        if self.chance(0.2):
            align = self.pick([8, 16, 32, '"16"', "' 8'"])
            if self.risky():
                align = self.pick([1, 2, 3, 4, 64, "0x10", '"x"', "-8"])
            attributes.append(f"force_align: {align}")
        lines, names = [], set()
        count = self.rng.randint(1, 5) if not self.risky(0.3) else 0
        key_used = False
        for _ in range(count):
            name = self.name(FIELD_NAMES, names)
            type_, target = self.struct_field_type(decl)
            field_attrs = []
            if not key_used and self.chance(0.08):
                field_attrs.append("key")
                key_used = not self.risky()
            if self.risky(0.3):
                field_attrs.append(self.pick(["deprecated", "required", "id: 0", "native_inline"]))
            if self.chance(0.05) and target is not None and target.kind == "struct":
                field_attrs.append("native_inline")
            default = ""
            if self.risky(0.3) or self.chance(0.03):
                default = " = " + self.pick(["0", "1", "false", '"0"', "0.0", "null", "A"])
            lines.append(f"{self.doc('  ')}  {name}: {type_}{default}{self.metadata(field_attrs)};")
        return f"struct {decl.name}{self.metadata(attributes)} {{\n" + "\n".join(lines) + "\n}\n"

    def struct_field_type(self, decl: _Decl) -> tuple[str, Optional[_Decl]]:
        roll = self.rng.random()
        target = None
        if roll < 0.5:
            type_ = self.pick(SCALARS)
        elif roll < 0.8:
            kinds = ["enum"] if roll < 0.65 else ["struct"]
            type_, target = self.reference(kinds, decl.namespace, decl.index, forward=False)
            type_ = type_ or self.pick(SCALARS)
        else:
            element, target = (self.pick(SCALARS), None)
            if self.chance(0.3):
                element, target = self.reference(
                    ["enum", "struct"], decl.namespace, decl.index, forward=False
                )
                element = element or self.pick(SCALARS)
            length = (
                self.pick(["1", "2", "3", "16", "0x4", "+2"])
                if not self.risky()
                else self.pick(["0", "65535", "65536", "-1", "1.5", "x"])
            )
            type_ = f"[{element}:{length}]"
        if self.risky(0.3):
            # Not itself in an included file: see "struct containing itself" in README.md.
            itself = [decl.name] if decl.index >= 0 else []
            type_ = self.pick(["string", "[int]", "[[int:2]:2]"] + itself)
            target = None
        return type_, target

    def table_body(self, decl: _Decl) -> str:
        attributes = []
        if self.chance(0.08):
            attributes.append(
                self.pick(["original_order", 'native_custom_alloc: "a"', "csharp_partial"])
            )
        names: set[str] = set()
        fields = []
        use_ids = self.chance(0.2)
        next_id = 0
        key_used = False
        for _ in range(self.rng.randint(0, 7)):
            name = self.name(FIELD_NAMES, names)
            kind, type_, target = self.table_field_type(decl)
            field_attrs = []
            default = ""
            if use_ids and not self.risky(0.5):
                if kind == "union":
                    next_id += 1
                value = next_id if not self.risky(0.3) else self.pick([next_id + 1, 0, -1, 70000])
                field_attrs.append(f"id: {value}" if not self.chance(0.1) else f'id: "{value}"')
                next_id += 1
            if self.chance(0.3) or self.risky(0.3):
                default = self.default(kind, type_, target)
            field_attrs += self.field_attributes(kind, type_, target, key_used)
            key_used = key_used or "key" in field_attrs
            if self.chance(0.08):
                field_attrs.append("deprecated")
            if kind == "vector" and self.chance(0.1):
                suffix = self.pick(["_length", "Length"])
                fields.append(f"  {name}: {type_};")
                name, type_, kind = name + suffix, "int", "scalar"
            fields.append(
                f"{self.doc('  ')}  {name}: {type_}{default}{self.metadata(field_attrs)};"
                + self.comment()
            )
        return f"table {decl.name}{self.metadata(attributes)} {{\n" + "\n".join(fields) + "\n}\n"

    def table_field_type(self, decl: _Decl) -> tuple[str, str, Optional[_Decl]]:
        roll = self.rng.random()
        if roll < 0.35:
            return "scalar", self.pick(SCALARS), None
        if roll < 0.45:
            return "string", "string", None
        if roll < 0.75:
            if roll < 0.58:
                kinds, forward = ["enum"], False
            elif roll < 0.71:
                kinds, forward = ["struct", "table"], True
            else:
                kinds, forward = ["union"], False
            type_, target = self.reference(kinds, decl.namespace, decl.index, forward)
            if type_ is None:
                return "scalar", self.pick(SCALARS), None
            return (target.kind if target else "table"), type_, target
        element_kind, element, target = self.table_field_type(decl)
        if element_kind in ("vector", "union") and not self.risky():
            element_kind, element, target = "scalar", self.pick(SCALARS), None
        if self.risky(0.2):
            return "array", f"[{element}:2]", target
        return "vector", f"[{element}]", target

    def default(self, kind: str, type_: str, target: Optional[_Decl]) -> str:
        if self.risky(0.5):
            return " = " + self.risky_literal()
        if kind in ("vector", "table", "struct", "union") or (
            kind == "string" and self.chance(0.5)
        ):
            return (
                "" if not self.risky(3) else " = " + self.pick(["[]", "[ ]", "0", "NONE", "null"])
            )
        if kind == "scalar":
            if type_ == "bool":
                return " = " + self.pick(["true", "false", "0", "1", "2", '"true"', "null"])
            if type_ in FLOATS:
                return " = " + self.pick([self.float_literal(), '"1.5"', "null"])
            low, high = _int_range(type_)
            literal = self.integer(low, high)
            return " = " + self.pick([literal, literal, f'"{literal}"', "null"])
        if kind == "enum" and target is not None:
            names = [n for n, _ in target.values]
            options = ["null", "0"]
            if names:
                options += [self.pick(names), f'"{self.pick(names)}"', str(target.values[0][1])]
                if target.bit_flags:
                    options.append('"' + " ".join(self.rng.sample(names, min(2, len(names)))) + '"')
            return " = " + self.pick(options)
        if kind == "string":
            return " = " + (
                self.pick(['"0"', "'0'"]) if not self.risky(3) else self.pick(['"x"', '""'])
            )
        return ""

    def field_attributes(self, kind: str, type_: str, target, key_used: bool) -> list[str]:
        attributes = []
        roll = self.rng.random()
        if roll < 0.05 and not key_used and kind in ("scalar", "string", "enum", "struct"):
            attributes.append("key")
        elif roll < 0.12 and kind not in ("scalar", "enum"):
            attributes.append("required")
        elif roll < 0.16 and type_ in ("[ubyte]", "[uint8]"):
            nested = (
                self.reference(["table"], target.namespace if target else (), 1 << 20)[0]
                or "Missing"
            )
            attributes.append(self.pick([f"nested_flatbuffer: {self.quote(nested)}", "flexbuffer"]))
        elif roll < 0.2 and kind in ("scalar", "vector") and type_.strip("[]") in INTEGERS:
            size = SIZE[type_.strip("[]")]
            if size in HASHES:
                attributes.append(f"hash: {self.quote(self.pick(HASHES[size]))}")
                if self.chance(0.3):
                    attributes.append('cpp_type: "T"')
        elif roll < 0.23 and kind in ("struct", "string", "vector"):
            if kind == "string":
                attributes.append("shared")
            elif kind == "struct" or (kind == "vector" and target is not None):
                attributes.append("native_inline")
            else:
                attributes.append("force_align: 8")
        if self.risky(0.5):
            attributes.append(
                self.pick(
                    ["key", "required", "nested_flatbuffer: \"Foo\"", "flexbuffer", "hash: \"fnv1_32\"",
                     "cpp_type: \"T\"", "native_inline", "shared", "native_custom_alloc: \"x\"",
                     "offset64", "vector64", "id", "id: 99999999999", "bit_flags", "deprecated: 1"]
                )
            )  # fmt: skip
        return attributes

    def rpc_body(self, decl: _Decl) -> str:
        methods, names = [], set()
        for _ in range(self.rng.randint(1, 3) if not self.risky(0.3) else 0):
            request = self.reference(["table"], decl.namespace, decl.index)[0]
            response = self.reference(
                ["table"] if not self.risky() else ["struct"], decl.namespace, decl.index
            )[0]
            if request is None or response is None:
                request = response = self.pick(["Missing", decl.name])
            attributes = (
                [f'streaming: {self.quote(self.pick(["none", "server", "bidi"]))}']
                if self.chance(0.3)
                else []
            )
            methods.append(
                f"  {self.name(['Get', 'Put', 'Watch', 'get'], names)}({request}): {response}"
                f"{self.metadata(attributes)};"
            )
        return f"rpc_service {decl.name} {{\n" + "\n".join(methods) + "\n}\n"

    # -- files

    def file_level(self, namespace: tuple[str, ...]) -> str:
        out = []
        tables = [d for d in self.decls if d.kind == "table"]
        if tables and self.chance(0.6):
            if self.risky(0.3):
                target = self.pick(self.decls)
            else:
                target = self.pick(tables)
            out.append(f"root_type {self.spell(target, namespace)};")
        if self.chance(0.3):
            ident = (
                self.pick(["MONS", "ABCD", "x\\x41yz", "é\\u00e9"])
                if not self.risky()
                else self.pick(["ABC", "ABCDE", "", "\\xff\\xfeab"])
            )
            out.append(f"file_identifier {self.quote(ident)};")
        if self.chance(0.2):
            out.append(f"file_extension {self.quote(self.pick(['bin', 'mon', '']))};")
        return "\n".join(out) + ("\n" if out else "")

    def included_file(self, name: str) -> str:
        """A small library file: its own namespace, a few declarations."""
        namespace = tuple(self.pick(NAMESPACES).split(".")) if self.chance(0.6) else ()
        text = f"namespace {'.'.join(namespace)};\n" if namespace else ""
        taken = {d.name for d in self.decls}
        if self.chance(0.3):
            attribute = self.pick(["lib_attr", "priority"])
            self.user_attributes.append(attribute)
            text += f"attribute {self.quote(attribute)};\n"
        for _ in range(self.rng.randint(1, 3)):
            kind = self.pick(["table", "table", "struct", "enum"])
            decl = _Decl(kind, self.name(TYPE_NAMES, taken), namespace, len(self.decls) - 1000)
            self.decls.append(decl)
            text += self.body(decl)
        return text

    def body(self, decl: _Decl) -> str:
        make = {
            "table": self.table_body,
            "struct": self.struct_body,
            "enum": self.enum_body,
            "union": self.union_body,
            "rpc": self.rpc_body,
        }[decl.kind]
        return self.doc() + make(decl)

    def generate(self) -> dict[str, str]:
        head = []
        for i in range(self.rng.choice([0, 0, 0, 1, 2])):
            path = f"inc/lib{i}.fbs"
            self.files[path] = self.included_file(path)
            spelled = self.quote(path) if not self.risky(0.3) else self.quote("inc/missing.fbs")
            head.append(f"include {spelled};")
            if self.chance(0.1):
                head.append(f"include {self.quote(path)};")
        if self.chance(0.05):
            head.append(f"native_include {self.quote('native.h')};")
        if self.chance(0.3):
            for attribute in self.rng.sample(["priority", "my_attr", "table", "x.y"], 2):
                self.user_attributes.append(attribute)
                spelled = (
                    attribute
                    if re.fullmatch(r"\w+", attribute) and self.chance(0.3)
                    else self.quote(attribute)
                )
                head.append(f"attribute {spelled};")
        self.plan()
        body, namespace = [], ()
        for decl in [d for d in self.decls if d.index >= 0]:
            if decl.namespace != namespace or self.chance(0.05):
                namespace = decl.namespace
                body.append(f"namespace {'.'.join(namespace)};")
            body.append(self.body(decl))
        if self.risky(0.2):
            body.insert(self.rng.randrange(len(body) + 1), self.pick(head or ['include "x.fbs";']))
        text = (
            "\n".join(head)
            + ("\n\n" if head else "")
            + "\n".join(body)
            + self.file_level(namespace)
        )
        self.files[ROOT_FILE] = text
        return dict(self.files)


def generated_case(seed: int, index: int) -> Case:
    rng = random.Random(f"generated:{seed}:{index}")
    return Case(f"generated:{seed}:{index}", SchemaGenerator(rng).generate())


# ---------------------------------------------------------------- mutations

TOKEN = re.compile(
    r"""(?P<comment>//[^\n]*|/\*.*?\*/)
      | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
      | (?P<number>[+-]?(?:0[xX][0-9a-fA-F.]+(?:[pP][+-]?\d+)?|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+))
      | (?P<name>[A-Za-z_]\w*)
      | (?P<space>\s+)
      | (?P<other>.)""",
    re.S | re.X,
)
INSERTIONS = KEYWORDS + [
    "{", "}", "(", ")", "[", "]", ":", ";", ",", "=", ".", "<", ">", "-", "+", "0", "1", "-1",
    "0x10", "1.5", "nan", "true", "null", "NONE", '"s"', "'s'", '""', "int", "string", "[int]",
    "ubyte", "T", "id: 1", "key", "required", "deprecated", "(id: 0)", "///", "/*", "*/", "//",
    "\f", "\v", "\0", "\ufeff", "é", "\t", "\r", "\\", "@", "#", "'", '"',
]  # fmt: skip


def tokens(text: str) -> list[str]:
    return [m.group(0) for m in TOKEN.finditer(text)]


def _significant(parts: list[str]) -> list[int]:
    return [i for i, t in enumerate(parts) if not t.isspace() and not t.startswith(("//", "/*"))]


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One random mutation: (new text, what was done)."""
    parts = tokens(text)
    spots = _significant(parts) or [0]
    i = rng.choice(spots)
    kind = rng.choice(
        "delete duplicate swap replace insert line_delete line_duplicate line_swap quotes "
        "number char truncate".split()
    )
    if not parts:
        kind = "insert"
    if kind == "delete":
        parts[i] = ""
    elif kind == "duplicate":
        parts[i] = parts[i] + " " + parts[i]
    elif kind == "swap":
        j = spots[(spots.index(i) + 1) % len(spots)]
        parts[i], parts[j] = parts[j], parts[i]
    elif kind == "replace":
        pool = [parts[k] for k in spots] if rng.random() < 0.5 else INSERTIONS
        parts[i] = rng.choice(pool)
    elif kind == "insert":
        parts.insert(i, " " + rng.choice(INSERTIONS) + " ")
    elif kind.startswith("line_"):
        lines = text.split("\n")
        a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
        if kind == "line_delete":
            del lines[a]
        elif kind == "line_duplicate":
            lines.insert(a, lines[a])
        else:
            lines[a], lines[b] = lines[b], lines[a]
        return "\n".join(lines), f"{kind} {a + 1}"
    elif kind == "quotes":
        strings = [k for k, t in enumerate(parts) if t[:1] in "\"'" and len(t) > 1]
        if strings:
            i = rng.choice(strings)
            body = parts[i][1:-1]
            parts[i] = ("'" + body + "'") if parts[i][0] == '"' else ('"' + body + '"')
    elif kind == "number":
        numbers = [
            k
            for k, t in enumerate(parts)
            if TOKEN.fullmatch(t) and TOKEN.fullmatch(t).lastgroup == "number"
        ]
        if numbers:
            i = rng.choice(numbers)
            parts[i] = rng.choice(
                ["0", "-1", "1", "255", "256", "65535", "65536", "2147483648", "-129", "0x7f", "1.5",
                 "1e3", "18446744073709551615", "18446744073709551616", "+3", ".5", "0x1p4"]
            )  # fmt: skip
    elif kind == "char":
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(INSERTIONS[-12:]) + text[at:], f"char at {at}"
    elif kind == "truncate":
        at = rng.randrange(len(text) + 1)
        return text[:at], f"truncate at {at}"
    return "".join(parts), f"{kind} token {i}"


def mutation_bases() -> list[tuple[str, dict[str, str]]]:
    """(name, files) for every top-level corpus schema, with the helper files
    of its folder (subfolders) that it may include."""
    bases = []
    for folder in ("valid", "invalid", "roundtrip"):
        directory = CORPUS / folder
        helpers = {
            path.relative_to(directory).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(directory.rglob("*.fbs"))
            if path.parent != directory
        }
        for path in sorted(directory.glob("*.fbs")):
            if path.name in MUTATION_EXCLUDED:
                continue
            files = dict(helpers)
            files[ROOT_FILE] = path.read_text(encoding="utf-8")
            bases.append((f"{folder}/{path.name}", files))
    return bases


def mutated_case(seed: int, index: int, bases: Optional[list] = None) -> Case:
    rng = random.Random(f"mutated:{seed}:{index}")
    bases = bases if bases is not None else mutation_bases()
    name, files = rng.choice(bases)
    text, notes = files[ROOT_FILE], []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        text, note = mutate(text, rng)
        notes.append(note)
    files = {**files, ROOT_FILE: text}
    return Case(f"mutated:{seed}:{index}", files, f"{name}: " + ", ".join(notes))


def make_case(case_id: str, bases: Optional[list] = None) -> Case:
    source, seed, index = case_id.split(":")
    if source == "generated":
        return generated_case(int(seed), int(index))
    if source == "mutated":
        return mutated_case(int(seed), int(index), bases)
    raise ValueError(f"unknown case source {source!r} (generated or mutated)")


# ---------------------------------------------------------------- minimizing


def minimize(finding: Finding, oracles: Oracles, budget: float = 60.0) -> Finding:
    """A smaller root file with the same finding (same kind, same verdicts):
    whole lines first, then single tokens, removed while the finding stays."""
    deadline = time.monotonic() + budget

    def same(text: str) -> Optional[Finding]:
        case = replace(finding.case, files={**finding.case.files, ROOT_FILE: text})
        found = check(case, oracles)
        if found and found.kind == finding.kind and found.flatc.accepted == finding.flatc.accepted:
            return found
        return None

    best = finding
    for split in (lambda t: t.split("\n"), tokens):
        joiner = "\n" if split is not tokens else ""
        pieces = split(best.case.root)
        i = 0
        while i < len(pieces) and time.monotonic() < deadline:
            candidate = pieces[:i] + pieces[i + 1 :]
            found = same(joiner.join(candidate)) if pieces[i].strip() else None
            if found:
                best, pieces = found, candidate
            else:
                i += 1
    return best


# ---------------------------------------------------------------- running


@dataclass
class Summary:
    compared: int = 0
    both_accept: int = 0
    both_refuse: int = 0
    findings: list[Finding] = field(default_factory=list)

    def line(self) -> str:
        kinds = {}
        for finding in self.findings:
            kinds[finding.kind] = kinds.get(finding.kind, 0) + 1
        found = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "no findings"
        return (
            f"{self.compared} schemas compared ({self.both_accept} accepted and "
            f"{self.both_refuse} refused by both): {found}"
        )


def fuzz(
    sources: Sequence[str],
    seed: int,
    seconds: float,
    oracles: Oracles,
    on_finding: Callable[[Finding], None] = lambda f: None,
    max_cases: Optional[int] = None,
) -> Summary:
    """Cases from the sources in turn (index 0, 1, 2...) until the time is up."""
    summary = Summary()
    bases = mutation_bases() if "mutated" in sources else None
    deadline = time.monotonic() + seconds
    index = 0
    while time.monotonic() < deadline and (max_cases is None or summary.compared < max_cases):
        for source in sources:
            case = make_case(f"{source}:{seed}:{index}", bases)
            found, flatc, _ = compare(case, oracles)
            summary.compared += 1
            if found is not None:
                summary.findings.append(found)
                on_finding(found)
            elif flatc.accepted:
                summary.both_accept += 1
            else:
                summary.both_refuse += 1
        index += 1
    return summary


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m codegen.fuzz", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000)
    parser.add_argument("--source", choices=("generated", "mutated", "both"), default="both")
    parser.add_argument("--minimize", action="store_true", help="shrink each finding's root file")
    parser.add_argument("--save", metavar="DIR", help="write each finding's files under DIR")
    parser.add_argument("--replay", metavar="CASE_ID", help="decide one case and print it")
    args = parser.parse_args(argv)
    with Oracles() as oracles:
        if args.replay:
            case = make_case(args.replay)
            found, flatc, ours = compare(case, oracles)
            print((found or Finding("agreement", case, flatc, ours)).report())
            return 1 if found else 0
        sources = ("generated", "mutated") if args.source == "both" else (args.source,)
        print(
            f"fuzzing {'+'.join(sources)} with seed {args.seed} for {args.seconds:g} s", flush=True
        )

        def report(finding: Finding) -> None:
            if args.minimize:
                finding = minimize(finding, oracles)
            print(finding.report() + "\n", flush=True)
            if args.save:
                save(finding, Path(args.save))

        summary = fuzz(sources, args.seed, args.seconds, oracles, report)
        print(summary.line())
        return 1 if summary.findings else 0


def save(finding: Finding, folder: Path) -> None:
    target = folder / finding.case.id.replace(":", "_")
    for path, text in finding.case.files.items():
        (target / path).parent.mkdir(parents=True, exist_ok=True)
        (target / path).write_text(text, encoding="utf-8", errors="surrogateescape")
    (target / "finding.txt").write_text(
        finding.report(), encoding="utf-8", errors="surrogateescape"
    )


if __name__ == "__main__":
    sys.exit(main())
