"""The generic Python reader target: `decode` reads back what `encode` wrote and
what flatc itself writes, and refuses a malformed buffer with `DecodeError`.

Every roundtrip corpus schema (and the IR's) is rendered into a package of its
own, `<stem>.py` beside `<stem>_reader.py` (the reader imports its dataclasses
relatively); instances are built from the model as test_python_module.py builds
them (every field set, some, none).
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import random
import struct
import sys
from pathlib import Path

import pytest

from codegen.flatc import find_flatc
from codegen.formatting import FormatCache
from codegen.frontend import load_schema
from codegen.model import Scalar, Schema, Struct, Table, TypeKind, TypeRef
from codegen.render import make_environment
from codegen.targets import python_module, python_reader
from test_python_module import CORPUS, IDS, ROOTED, SCHEMAS, Values, schema_arg

MODES = ("full", "sparse", "defaults")


def render(path: Path) -> tuple[Schema, dict[str, str]]:
    schema = load_schema(schema_arg(path))
    env = make_environment()
    files = {**python_module.render(schema, env), **python_reader.render(schema, env)}
    assert sorted(files) == [f"python/{path.stem}.py", f"python/{path.stem}_reader.py"]
    # Formatted as the pipeline formats them: by chunks, through its cache (which
    # `make`'s codegen check has filled for the project's own schema).
    formatted = FormatCache()
    return schema, {Path(p).name: formatted.format(p, t) for p, t in files.items()}


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """path -> (schema, dataclass module, reader module), each pair in a package of its own."""
    root = tmp_path_factory.mktemp("readers")
    sys.path.insert(0, str(root))
    cache: dict[Path, tuple] = {}

    def get(path: Path):
        if path not in cache:
            schema, files = render(path)
            package = root / f"rd_{path.stem}"
            package.mkdir()
            (package / "__init__.py").write_text("")
            for name, text in files.items():
                (package / name).write_text(text)
            importlib.invalidate_caches()
            types = importlib.import_module(f"rd_{path.stem}.{path.stem}")
            reader = importlib.import_module(f"rd_{path.stem}.{path.stem}_reader")
            cache[path] = (schema, types, reader)
        return cache[path]

    yield get
    sys.path.remove(str(root))


# ---- comparing what was written with what was read ---------------------------------------


class Same:
    """Asserts a decoded value equals the one encoded, field by field, as the
    format keeps it: float32 rounded, [ubyte] as bytes, a union's discriminant
    filled in."""

    def __init__(self, schema: Schema):
        self.schema = schema
        self.names = python_module.Names(schema)

    def table(self, t: Table, wrote, read, where: str) -> None:
        assert type(read).__name__ == type(wrote).__name__, where
        attrs = self.names.fields[t.qualified_name]
        companions = self.names.union_type_fields[t.qualified_name]
        for f in t.fields:
            if f.deprecated:
                continue
            at = f"{where}.{f.name}"
            value, got = getattr(wrote, attrs[f.name]), getattr(read, attrs[f.name])
            if f.type.kind is TypeKind.UNION:
                kind = getattr(read, companions[f.name])
                explicit = getattr(wrote, companions[f.name])
                if value is None:
                    assert got is None and kind is None, at
                    continue
                assert explicit is None or kind == explicit, at
                member = next(m for m in self.schema.lookup(f.type.decl).members if m.value == kind)
                self.table(self.schema.lookup(member.type.decl), value, got, at)
            else:
                self.value(f.type, value, got, at)

    def struct(self, s: Struct, wrote, read, where: str) -> None:
        attrs = self.names.fields[s.qualified_name]
        for f in s.fields:
            at = f"{where}.{f.name}"
            self.value(f.type, getattr(wrote, attrs[f.name]), getattr(read, attrs[f.name]), at)

    def value(self, t: TypeRef, wrote, read, at: str) -> None:
        if wrote is None:
            assert read is None, f"{at}: wrote None, read {read!r}"
            return
        k = t.kind
        if k is TypeKind.SCALAR:
            self.scalar(t, wrote, read, at)
        elif k is TypeKind.ENUM:
            assert int(read) == int(wrote), at
            assert type(read).__name__ == self.names.decl[t.decl], at
        elif k is TypeKind.STRING:
            assert read == wrote, at
        elif k is TypeKind.STRUCT:
            self.struct(self.schema.lookup(t.decl), wrote, read, at)
        elif k is TypeKind.TABLE:
            self.table(self.schema.lookup(t.decl), wrote, read, at)
        else:  # vector or array
            if t.kind is TypeKind.VECTOR and t.element.scalar is Scalar.UINT8:
                assert isinstance(read, bytes), at
            assert len(read) == len(wrote), at
            for i, (w, r) in enumerate(zip(wrote, read)):
                self.value(t.element, w, r, f"{at}[{i}]")

    @staticmethod
    def scalar(t: TypeRef, wrote, read, at: str) -> None:
        s = t.scalar
        if s.is_float:
            if math.isnan(wrote):
                assert math.isnan(read), at
                return
            # A float32 written reads back rounded; one left out (equal to the
            # default) reads back as the default's literal.
            rounded = struct.unpack("<f", struct.pack("<f", wrote))[0] if s.size == 4 else wrote
            assert read in (wrote, rounded), f"{at}: wrote {wrote!r}, read {read!r}"
            assert isinstance(read, float), at
        elif s.is_bool:
            assert read is bool(wrote), at
        else:
            assert read == int(wrote) and type(read) is int, at


# ---- round trips ------------------------------------------------------------------------


@pytest.mark.parametrize("path", ROOTED, ids=[p.stem for p in ROOTED])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", range(4))
def test_roundtrip(path, mode, seed, generated):
    schema, types, reader = generated(path)
    root = schema.lookup(schema.root_type)
    obj = Values(schema, types, seed, mode).table(root)
    for force in (False, True):
        read = reader.decode(types.encode(obj, force_defaults=force))
        Same(schema).table(root, obj, read, root.name)
    sized = types.encode(obj, size_prefixed=True)
    Same(schema).table(root, obj, reader.decode(sized, size_prefixed=True), root.name)


def test_decoded_equals_encoded_where_nothing_is_rounded(generated):
    """The reader builds the very dataclasses of the module beside it."""
    schema, types, reader = generated(CORPUS / "tables.fbs")
    root = schema.lookup(schema.root_type)
    obj = Values(schema, types, 0, "defaults").table(root)
    assert reader.decode(types.encode(obj)) == obj


@pytest.mark.parametrize("path", ROOTED, ids=[p.stem for p in ROOTED])
def test_reads_what_flatc_writes(path, generated, tmp_path):
    """flatc turns what `encode` wrote into JSON and writes it again itself (its
    own field order, vtable sharing and padding); `decode` reads that back."""
    schema, types, reader = generated(path)
    root = schema.lookup(schema.root_type)
    flatc = find_flatc()
    source = Path(schema_arg(path)).resolve()
    for mode in MODES:
        for seed in range(3):
            obj = Values(schema, types, seed, mode).table(root)
            ours = tmp_path / f"{mode}_{seed}.bin"
            ours.write_bytes(types.encode(obj))
            args = ("-I", str(CORPUS), "-o", str(tmp_path))
            done = flatc.run("--json", "--raw-binary", *args, str(source), "--", str(ours))
            assert done.returncode == 0, done.stderr
            text = ours.with_suffix(".json")
            assert text.read_text().startswith("{"), text
            done = flatc.run("--binary", *args, str(source), str(text))
            assert done.returncode == 0, done.stderr
            theirs = ours.with_suffix(".bin").read_bytes()
            Same(schema).table(root, obj, reader.decode(theirs), f"{root.name} ({mode} {seed})")


# ---- malformed buffers ------------------------------------------------------------------


def ir_buffer(generated):
    schema, types, reader = generated(next(p for p in SCHEMAS if p.stem == "schema"))
    root = schema.lookup(schema.root_type)
    return types, reader, types.encode(Values(schema, types, 1, "full").table(root))


def test_wrong_identifier_and_short_buffers(generated):
    types, reader, buf = ir_buffer(generated)
    with pytest.raises(reader.DecodeError, match=r"file identifier is b'XXXX', expected b'MLXG'"):
        reader.decode(buf[:4] + b"XXXX" + buf[8:])
    for size in range(8):
        with pytest.raises(reader.DecodeError, match="too short"):
            reader.decode(buf[:size])
    with pytest.raises(reader.DecodeError, match="size prefix"):
        reader.decode(struct.pack("<I", len(buf) + 1) + buf, size_prefixed=True)
    with pytest.raises(TypeError, match="takes bytes"):
        reader.decode("text")


def test_every_truncation_is_a_decode_error(generated):
    """Cut anywhere, the buffer is refused with DecodeError (or, where the cut
    leaves every byte the root reaches, read)."""
    types, reader, buf = ir_buffer(generated)
    for size in range(8, len(buf), max(1, len(buf) // 400)):
        try:
            reader.decode(buf[:size])
        except reader.DecodeError as error:
            assert str(error), size


@pytest.mark.parametrize("seed", range(3))
def test_garbage_is_a_decode_error(seed, generated):
    """Random bytes, and the IR buffer with random bytes overwritten, never raise
    anything but DecodeError."""
    types, reader, buf = ir_buffer(generated)
    rng = random.Random(seed)
    for _ in range(300):
        if rng.random() < 0.3:
            data = buf[:4] + b"MLXG" + bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        else:
            data = bytearray(buf)
            for _ in range(rng.randrange(1, 8)):
                data[rng.randrange(8, len(data))] = rng.randrange(256)
            data = bytes(data)
        try:
            reader.decode(data)
        except reader.DecodeError as error:
            assert str(error)


def test_messages_name_the_field(generated):
    schema, types, reader = generated(CORPUS / "tables.fbs")
    root = schema.lookup(schema.root_type)
    # A string's length past the end: the message names the field that holds it.
    strings = [f for f in root.fields if f.type.kind is TypeKind.STRING and not f.deprecated]
    assert strings, "tables.fbs has a string field on its root"
    attr = python_module.Names(schema).fields[root.qualified_name][strings[0].name]
    obj = dataclasses.replace(Values(schema, types, 0, "full").table(root), **{attr: "MARKER"})
    buf = bytearray(types.encode(obj))
    at = bytes(buf).index(b"MARKER") - 4
    buf[at : at + 4] = struct.pack("<I", 10**6)
    where = f"{root.qualified_name}.{strings[0].name}"
    with pytest.raises(reader.DecodeError, match=rf"{where}: a vector of 1000000 elements"):
        reader.decode(bytes(buf))


def test_required_field_left_out(generated):
    """An IR op table without its required slots (written by a serializer that
    skips the check) is refused, naming the field."""
    types, reader, _ = ir_buffer(generated)

    class Careless(types.Builders):
        def build_AddNode(self, builder, obj):
            builder.StartObject(3)
            return builder.EndObject()

    add = types.AddNode(a=types.Tid(idx=0), b=types.Tid(idx=1), out=types.Tid(idx=2))
    graph = types.MLXGraph(
        instruction_chains=[
            types.InstructionChain(
                instructions=[types.Instruction(op=add, op_type=types.OpNodeType.AddNode)]
            )
        ]
    )
    assert reader.decode(types.encode(graph)) == graph
    with pytest.raises(reader.DecodeError, match=r"mlxd.ir.AddNode.a is required"):
        reader.decode(types.encode(graph, serializer=Careless()))


def test_unknown_union_member_is_kept_as_its_number(generated):
    """A discriminant a newer schema added (here in the required union
    Instruction.op) reads as value None, companion the plain number."""
    types, reader, _ = ir_buffer(generated)

    class Newer(types.Builders):
        def build_OpNode(self, builder, kind, value):
            if kind == 250:
                builder.StartObject(0)
                return builder.EndObject()
            return super().build_OpNode(builder, kind, value)

    add = types.AddNode(a=types.Tid(idx=0), b=types.Tid(idx=1), out=types.Tid(idx=2))
    chain = types.InstructionChain(instructions=[types.Instruction(op=add, op_type=250)])
    graph = types.MLXGraph(instruction_chains=[chain])
    (read,) = reader.decode(types.encode(graph, serializer=Newer())).instruction_chains
    assert read.instructions[0].op is None and read.instructions[0].op_type == 250


def test_no_root_type(generated):
    schema, types, reader = generated(CORPUS / "no_root.fbs")
    with pytest.raises(TypeError, match="declares no root_type"):
        reader.decode(b"\0" * 16)


@pytest.mark.parametrize("path", SCHEMAS, ids=IDS)
def test_banner_and_deterministic(path):
    first = render(path)[1][f"{path.stem}_reader.py"]
    assert first == render(path)[1][f"{path.stem}_reader.py"]
    assert first.splitlines()[0] == f"# generated from {schema_arg(path)}, do not edit"
