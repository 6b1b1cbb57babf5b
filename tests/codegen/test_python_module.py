"""The generic Python target: byte compatibility with flatc's own Python reader.

For every schema in corpus/roundtrip/*.fbs, the module the target renders is
imported, instances are built from the resolved model (every field set, some
set, none set), serialized with `encode`, and read back with the reader flatc
generates for the same schema; every field is compared recursively.

Corpus schemas must each use their own `rt.<name>` namespaces: the readers of
all of them share one output folder (and the `rt` package).
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import random
import struct
import subprocess
import sys
from pathlib import Path

import flatbuffers
import pytest

from codegen.flatc import find_flatc
from codegen.formatting import FormatCache
from codegen.frontend import load_schema
from codegen.model import Enum, Schema, Struct, Table, TypeKind, TypeRef, Union
from codegen.render import make_environment
from codegen.targets import python_module

REPO = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).resolve().parent / "corpus" / "roundtrip"
PROJECT_SCHEMA = REPO / "schema" / "schema.fbs"
# The corpus, plus the project's own IR schema (namespace mlxd.ir).
SCHEMAS = sorted(CORPUS.glob("*.fbs")) + [p for p in [PROJECT_SCHEMA] if p.exists()]
IDS = [p.stem for p in SCHEMAS]


def schema_arg(path: Path) -> str:
    """The schema path as a user gives it: relative to the repository root."""
    return os.path.relpath(path, REPO)


def render_module(path: Path) -> tuple[Schema, str]:
    schema = load_schema(schema_arg(path))
    files = python_module.render(schema, make_environment())
    assert list(files) == [f"python/{path.stem}.py"]
    name = f"python/{path.stem}.py"
    # Formatted as the pipeline formats it: by chunks, through its cache (which
    # `make`'s codegen check has filled for the project's own schema).
    return schema, FormatCache().format(name, files[name])


def import_file(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def reader_dir(tmp_path_factory):
    """flatc's Python readers for the whole corpus, on sys.path for the session."""
    out = tmp_path_factory.mktemp("flatc_python")
    flatc = find_flatc()
    # Not --gen-all: with it flatc's reader leaves out its imports. Included
    # files get their own run.
    for path in SCHEMAS + sorted(CORPUS.glob("inc/*.fbs")):
        done = flatc.run("--python", "-o", str(out), "-I", str(CORPUS), str(path))
        assert done.returncode == 0, done.stderr
    sys.path.insert(0, str(out))
    importlib.invalidate_caches()
    yield out
    sys.path.remove(str(out))
    for name in [n for n in sys.modules if n == "rt" or n.startswith("rt.")]:
        del sys.modules[name]


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    """path -> (schema, generated module), rendered and imported once."""
    out = tmp_path_factory.mktemp("generated")
    cache: dict[Path, tuple] = {}

    def get(path: Path):
        if path not in cache:
            schema, text = render_module(path)
            file = out / f"{path.stem}.py"
            assert not file.exists(), f"two corpus schemas named {path.stem}"
            file.write_text(text)
            cache[path] = (schema, import_file(f"_generated_{path.stem}", file), file)
        return cache[path]

    return get


# ---- values from the model -------------------------------------------------------------


class Values:
    """Deterministic instances of the generated dataclasses, built from the model."""

    def __init__(self, schema: Schema, module, seed: int, mode: str):
        self.schema = schema
        self.module = module
        self.names = python_module.Names(schema)
        self.rng = random.Random(seed)
        self.mode = mode  # "full": every field; "sparse": some; "defaults": required only

    def cls(self, qualified: str):
        return getattr(self.module, self.names.decl[qualified])

    def table(self, t: Table, depth: int = 0):
        kwargs = {}
        attrs = self.names.fields[t.qualified_name]
        companions = self.names.union_type_fields[t.qualified_name]
        for f in t.fields:
            if f.deprecated:
                continue
            if not f.required:
                if self.mode == "defaults":
                    continue
                if self.mode == "sparse" and self.rng.random() < 0.5:
                    continue
                if depth >= 3 and f.type.kind in (TypeKind.TABLE, TypeKind.VECTOR, TypeKind.UNION):
                    continue
            if f.type.kind is TypeKind.UNION:
                value, explicit = self.union(self.schema.lookup(f.type.decl), depth)
                kwargs[attrs[f.name]] = value
                if explicit is not None:
                    kwargs[companions[f.name]] = explicit
            elif f.optional and self.rng.random() < 0.3:
                kwargs[attrs[f.name]] = None
            elif any(a.name == "nested_flatbuffer" for a in f.attributes):
                kwargs[attrs[f.name]] = self.nested(t, f, depth)
            else:
                kwargs[attrs[f.name]] = self.value(f.type, depth)
        return self.cls(t.qualified_name)(**kwargs)

    def nested(self, t: Table, f, depth: int) -> bytes:
        """A whole buffer of the table a nested_flatbuffer field names."""
        name = next(a.value for a in f.attributes if a.name == "nested_flatbuffer")
        scoped = ".".join(t.namespace + (name,))
        decl = self.schema.lookup(scoped if scoped in self.names.decl else name)
        builder = flatbuffers.Builder(0)
        build = getattr(self.module.Builders(), f"build_{self.names.decl[decl.qualified_name]}")
        builder.Finish(build(builder, self.table(decl, depth + 1)))
        return bytes(builder.Output())

    def struct(self, s: Struct):
        attrs = self.names.fields[s.qualified_name]
        return self.cls(s.qualified_name)(
            **{attrs[f.name]: self.value(f.type, 0) for f in s.fields}
        )

    def union(self, u: Union, depth: int):
        member = self.rng.choice(u.members)
        value = self.value(member.type, depth)
        first = next(m for m in u.members if m.type == member.type)
        enum_cls = getattr(self.module, self.names.union_enum[u.qualified_name])
        # An alias sharing its class with an earlier member needs the discriminant.
        explicit = enum_cls(member.value) if first is not member else None
        return value, explicit

    def value(self, t: TypeRef, depth: int):
        rng, k = self.rng, t.kind
        if k is TypeKind.SCALAR:
            s = t.scalar
            if s.is_bool:
                return rng.choice([True, False])
            if s.is_integer:
                lo, hi = s.int_range
                return rng.choice([lo, hi, 0, 1, rng.randint(lo, hi)])
            return rng.choice([0.0, -1.5, 3.25, 2.0**30, rng.randint(-1000, 1000) / 8, math.inf])
        if k is TypeKind.ENUM:
            e = self.schema.lookup(t.decl)
            cls = self.cls(t.decl)
            if e.bit_flags:
                mask = 0
                for v in e.values:
                    if rng.random() < 0.5:
                        mask |= v.value
                return cls(mask)
            return cls(rng.choice(e.values).value)
        if k is TypeKind.STRING:
            return rng.choice(["", "a", "héllo ✓", "x" * rng.randint(1, 40)])
        if k is TypeKind.STRUCT:
            return self.struct(self.schema.lookup(t.decl))
        if k is TypeKind.TABLE:
            return self.table(self.schema.lookup(t.decl), depth + 1)
        if k is TypeKind.ARRAY:
            return [self.value(t.element, depth) for _ in range(t.length)]
        if k is TypeKind.VECTOR:
            n = rng.randint(0, 4)
            items = [self.value(t.element, depth + 1) for _ in range(n)]
            if t.element.kind is TypeKind.SCALAR and t.element.scalar.canonical == "uint8":
                if rng.random() < 0.5:
                    return bytes(items)
            return items
        raise AssertionError(f"no value for {k}")


# ---- comparing with flatc's reader -------------------------------------------------------


def accessor(name: str) -> str:
    """flatc's Python accessor name for a snake_case field name."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def reader_class(qualified: str):
    module_name, _, short = qualified.rpartition(".")
    module = importlib.import_module(f"{module_name}.{short}" if module_name else short)
    return getattr(module, short)


def same_scalar(t: TypeRef, expected, got, where: str) -> None:
    s = t.scalar
    if s.is_float:
        if math.isnan(expected):
            assert math.isnan(got), where
            return
        # A float32 written reads back rounded; one left out (equal to the
        # default) reads back as the reader's literal default.
        rounded = struct.unpack("<f", struct.pack("<f", expected))[0] if s.size == 4 else expected
        assert got in (expected, rounded), f"{where}: wrote {expected!r}, read {got!r}"
    elif s.is_bool:
        assert bool(got) == bool(expected), where
    else:
        assert int(got) == int(expected), f"{where}: wrote {expected!r}, read {got!r}"


class Compare:
    def __init__(self, schema: Schema):
        self.schema = schema
        self.names = python_module.Names(schema)

    def table(self, t: Table, obj, reader, where: str) -> None:
        attrs = self.names.fields[t.qualified_name]
        companions = self.names.union_type_fields[t.qualified_name]
        for f in t.fields:
            if f.deprecated:
                continue
            value = getattr(obj, attrs[f.name])
            acc = accessor(f.name)
            at = f"{where}.{f.name}"
            k = f.type.kind
            if k in (TypeKind.SCALAR, TypeKind.ENUM):
                got = getattr(reader, acc)()
                if f.optional:
                    assert (got is None) == (value is None), f"{at}: wrote {value!r}, read {got!r}"
                    if value is None:
                        continue
                same_scalar(f.type, value, got, at)
            elif k is TypeKind.STRING:
                got = getattr(reader, acc)()
                assert got == (None if value is None else value.encode()), at
            elif k is TypeKind.STRUCT:
                got = getattr(reader, acc)()
                assert (got is None) == (value is None), at
                if value is not None:
                    self.struct(self.schema.lookup(f.type.decl), value, got, at)
            elif k is TypeKind.TABLE:
                got = getattr(reader, acc)()
                assert (got is None) == (value is None), at
                if value is not None:
                    self.table(self.schema.lookup(f.type.decl), value, got, at)
            elif k is TypeKind.UNION:
                kind = getattr(reader, acc + "Type")()
                got = getattr(reader, acc)()
                if value is None:
                    assert kind == 0 and got is None, at
                    continue
                union = self.schema.lookup(f.type.decl)
                explicit = getattr(obj, companions[f.name])
                expected = explicit if explicit is not None else self.first_kind(union, value)
                assert kind == expected, f"{at}: discriminant {kind}, expected {expected}"
                member = next(m for m in union.members if m.value == kind)
                inner = reader_class(member.type.decl)()
                inner.Init(got.Bytes, got.Pos)
                self.table(self.schema.lookup(member.type.decl), value, inner, at)
            elif k is TypeKind.VECTOR:
                self.vector(f.type.element, value, reader, acc, at)
            else:
                raise AssertionError(f"{at}: unexpected kind {k}")

    def first_kind(self, union: Union, value) -> int:
        for m in union.members:
            if type(value).__name__ == self.names.decl[m.type.decl]:
                return m.value
        raise AssertionError(f"{value!r} is no member of {union.qualified_name}")

    def vector(self, el: TypeRef, value, reader, acc: str, at: str) -> None:
        is_none = getattr(reader, acc + "IsNone")()
        assert is_none == (value is None), f"{at}: wrote {value!r}, IsNone() {is_none}"
        if value is None:
            return
        items = list(value)
        assert getattr(reader, acc + "Length")() == len(items), at
        get = getattr(reader, acc)
        for j, item in enumerate(items):
            got = get(j)
            here = f"{at}[{j}]"
            if el.kind in (TypeKind.SCALAR, TypeKind.ENUM):
                same_scalar(el, item, got, here)
            elif el.kind is TypeKind.STRING:
                assert got == item.encode(), here
            elif el.kind is TypeKind.STRUCT:
                self.struct(self.schema.lookup(el.decl), item, got, here)
            elif el.kind is TypeKind.TABLE:
                self.table(self.schema.lookup(el.decl), item, got, here)
            else:
                raise AssertionError(f"{here}: unexpected element kind {el.kind}")

    def struct(self, s: Struct, obj, reader, where: str) -> None:
        attrs = self.names.fields[s.qualified_name]
        for f in s.fields:
            value = getattr(obj, attrs[f.name])
            get = getattr(reader, accessor(f.name))
            at = f"{where}.{f.name}"
            k = f.type.kind
            if k in (TypeKind.SCALAR, TypeKind.ENUM):
                same_scalar(f.type, value, get(), at)
            elif k is TypeKind.STRUCT:
                inner = get(reader_class(f.type.decl)())
                self.struct(self.schema.lookup(f.type.decl), value, inner, at)
            elif k is TypeKind.ARRAY:
                assert len(value) == f.type.length, at
                for i, item in enumerate(value):
                    if f.type.element.kind is TypeKind.STRUCT:
                        decl = self.schema.lookup(f.type.element.decl)
                        self.struct(decl, item, get(i), f"{at}[{i}]")
                    else:
                        same_scalar(f.type.element, item, get(i), f"{at}[{i}]")
            else:
                raise AssertionError(f"{at}: unexpected kind {k}")


def read_root(schema: Schema, buf: bytes):
    cls = reader_class(schema.root_type)
    return cls.GetRootAs(buf, 0)


# ---- the round trips -------------------------------------------------------------------

ROOTED = [p for p in SCHEMAS if load_schema(schema_arg(p)).root_type is not None]


@pytest.mark.parametrize("path", ROOTED, ids=[p.stem for p in ROOTED])
@pytest.mark.parametrize("mode", ["full", "sparse", "defaults"])
@pytest.mark.parametrize("seed", range(4))
def test_roundtrip_through_flatc_reader(path, mode, seed, generated, reader_dir):
    schema, module, _ = generated(path)
    root = schema.lookup(schema.root_type)
    obj = Values(schema, module, seed, mode).table(root)
    buf = module.encode(obj)
    assert isinstance(buf, bytes)
    Compare(schema).table(root, obj, read_root(schema, buf), root.name)
    # Writing every default too must read back the same.
    forced = module.encode(obj, force_defaults=True)
    Compare(schema).table(root, obj, read_root(schema, forced), root.name)
    if mode == "defaults":
        assert len(forced) >= len(buf)


VERIFY_MAIN = """
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>
#include "%(stem)s_generated.h"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const uint8_t* data = reinterpret_cast<const uint8_t*>(bytes.data());
    flatbuffers::Verifier verifier(data, bytes.size());
    if (!%(ns)sVerify%(root)sBuffer(verifier)) {
      std::printf("rejected: %%s\\n", argv[i]);
      return 1;
    }
  }
  return 0;
}
"""


@pytest.fixture(scope="session")
def cpp_headers(tmp_path_factory):
    if not any(Path(d, "g++").exists() for d in os.environ.get("PATH", "").split(os.pathsep)):
        pytest.skip("no C++ compiler")
    out = tmp_path_factory.mktemp("flatc_cpp")
    for path in SCHEMAS + sorted(CORPUS.glob("inc/*.fbs")):
        done = find_flatc().run("--cpp", "-o", str(out), "-I", str(CORPUS), str(path))
        assert done.returncode == 0, done.stderr
    return out


def compile_verifier(stem: str, root: Table, headers: Path, tmp_path: Path) -> Path:
    ns = "".join(f"{part}::" for part in root.namespace)
    main = tmp_path / "verify.cpp"
    main.write_text(VERIFY_MAIN % {"stem": stem, "ns": ns, "root": root.name})
    exe = tmp_path / "verify"
    done = subprocess.run(
        ["g++", "-std=c++17", "-O0", "-I", str(find_flatc().include_dir), "-I", str(headers),
         "-o", str(exe), str(main)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return exe


@pytest.mark.parametrize("path", ROOTED, ids=[p.stem for p in ROOTED])
def test_cpp_verifier_accepts(path, generated, cpp_headers, tmp_path):
    """flatc's C++ verifier (alignment, offsets, required fields, identifier)
    accepts every buffer the module writes."""
    schema, module, _ = generated(path)
    root = schema.lookup(schema.root_type)
    exe = compile_verifier(path.stem, root, cpp_headers, tmp_path)
    files = []
    for mode in ("full", "sparse", "defaults"):
        for seed in range(6):
            obj = Values(schema, module, seed, mode).table(root)
            for force in (False, True):
                file = tmp_path / f"{mode}_{seed}_{force}.bin"
                file.write_bytes(module.encode(obj, force_defaults=force))
                files.append(str(file))
    done = subprocess.run([str(exe), *files], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("path", ROOTED, ids=[p.stem for p in ROOTED])
def test_file_identifier(path, generated, reader_dir):
    schema, module, _ = generated(path)
    root = schema.lookup(schema.root_type)
    obj = Values(schema, module, 0, "defaults").table(root)
    buf = module.encode(obj)
    has = getattr(reader_class(schema.root_type), f"{root.name}BufferHasIdentifier", None)
    if schema.file_identifier is None:
        assert module.FILE_IDENTIFIER is None
        assert has is None
        return
    ident = schema.file_identifier.encode()
    assert module.FILE_IDENTIFIER == ident
    assert buf[4:8] == ident
    assert has(buf, 0)
    # The same bytes as Builder.Finish(offset, file_identifier) on our offset.
    build = getattr(
        module.Builders(), f"build_{python_module.Names(schema).decl[root.qualified_name]}"
    )
    builder = flatbuffers.Builder(1024)
    builder.Finish(build(builder, obj), ident)
    assert bytes(builder.Output()) == buf
    sized = module.encode(obj, size_prefixed=True)
    assert struct.unpack("<I", sized[:4])[0] == len(sized) - 4
    assert has(sized, 0, size_prefixed=True)


# ---- targeted checks -------------------------------------------------------------------


def module_for(stem: str, generated):
    return generated(CORPUS / f"{stem}.fbs")


def test_defaults_omitted_and_written(generated, reader_dir):
    schema, m, _ = module_for("scalars", generated)
    from rt.scalars.Scalars import Scalars as Reader

    plain = m.encode(m.Scalars())
    forced = m.encode(m.Scalars(), force_defaults=True)
    assert len(forced) > len(plain)
    r = Reader.GetRootAs(plain, 0)
    # Omitted: the vtable has no entry; the reader answers the schema default.
    assert r._tab.Offset(4 + 2 * 1) == 0  # bt
    assert Reader.GetRootAs(forced, 0)._tab.Offset(4 + 2 * 1) != 0
    assert r.Bt() is True and r.I8() == -8 and r.U64() == 18000000000000000000
    assert math.isnan(r.FNan()) and r.DInf() == math.inf and r.DNinf() == -math.inf
    assert r.Color() == m.Color.Blue and r.Perm() == (m.Perm.Read | m.Perm.Write)
    assert r.Wide() == m.Wide.Huge
    assert r.OI32() is None and r.OBool() is None and r.OColor() is None
    # Dataclass defaults are the schema defaults, enum defaults as members.
    d = m.Scalars()
    assert d.color is m.Color.Blue and d.perm == m.Perm.Read | m.Perm.Write
    assert isinstance(d.perm, m.Perm) and isinstance(d.mask, m.Mask)
    assert math.isnan(d.f_nan) and d.d_ninf == -math.inf and d.f_frac == 0.1
    assert d.o_i32 is None and d.perm_none == m.Perm(0)
    # A value different from the default is written.
    r = Reader.GetRootAs(m.encode(m.Scalars(i8=0, bt=False, f_nan=1.0, o_i32=0, o_bool=False)), 0)
    assert r.I8() == 0 and r.Bt() is False and r.FNan() == 1.0
    assert r.OI32() == 0 and r.OBool() is False


def test_scalar_vector_fast_paths(generated, reader_dir):
    _, m, _ = module_for("tables", generated)
    from rt.tables.Doc import Doc as Reader

    data = bytes(range(256)) * 3
    vec = m.Vectors(
        v_u8=data, v_f32=struct.pack("<3f", 1.0, 2.5, -4.0), v_i64=[-(2**63), 2**63 - 1]
    )
    doc = m.Doc(first=m.Node(label="n"), second=vec, nested=b"\x00\x01")
    r = Reader.GetRootAs(m.encode(doc), 0).Second()
    assert [r.VU8(i) for i in range(r.VU8Length())] == list(data)
    assert [r.VF32(i) for i in range(3)] == [1.0, 2.5, -4.0]
    assert [r.VI64(i) for i in range(2)] == [-(2**63), 2**63 - 1]
    with pytest.raises(ValueError, match="whole number"):
        m.encode(m.Doc(first=m.Node(label="n"), second=m.Vectors(v_i32=b"\x00\x01\x02")))
    with pytest.raises(ValueError, match="8-byte items"):
        wide = memoryview(struct.pack("<2q", 1, 2)).cast("q")
        m.encode(m.Doc(first=m.Node(label="n"), second=m.Vectors(v_i32=wide)))
    typed = memoryview(struct.pack("<2i", 7, -7)).cast("i")
    r = Reader.GetRootAs(m.encode(m.Doc(first=m.Node(label="n"), second=m.Vectors(v_i32=typed))), 0)
    assert [r.Second().VI32(i) for i in range(2)] == [7, -7]


def test_required_fields(generated):
    _, m, _ = module_for("tables", generated)
    with pytest.raises(TypeError):
        m.Node()  # label has no default: it must be passed
    with pytest.raises(ValueError, match="rt.tables.Node.label is required"):
        m.encode(m.Doc(first=m.Node(label=None)))
    _, u, _ = module_for("unions", generated)
    with pytest.raises(TypeError):
        u.Scene()


def test_unions_and_aliases(generated, reader_dir):
    _, m, _ = module_for("unions", generated)
    from rt.unions.Scene import Scene as Reader
    from rt.unions.Square import Square as SquareReader

    assert m.Aliased_TYPES == {m.Square: m.AliasedType.Sq1, m.Circle: m.AliasedType.Circle}
    assert m.Shape_TYPES[m.Empty] == m.ShapeType.Empty
    assert set(m.Shape.__args__) == {m.Circle, m.Square, m.Empty}
    scene = m.Scene(must=m.Square(side=3), alt=m.Square(name="two"), alt_type=m.AliasedType.Sq2)
    r = Reader.GetRootAs(m.encode(scene), 0)
    assert r.MustType() == m.ShapeType.Square and r.AltType() == m.AliasedType.Sq2
    assert r.MainType() == m.ShapeType.NONE and r.Main() is None
    sq = SquareReader()
    t = r.Alt()
    sq.Init(t.Bytes, t.Pos)
    assert sq.Name() == b"two"
    # Without the companion field, the discriminant comes from the class.
    r = Reader.GetRootAs(m.encode(m.Scene(must=m.Empty(), alt=m.Square())), 0)
    assert r.AltType() == m.AliasedType.Sq1 and r.MustType() == m.ShapeType.Empty
    with pytest.raises(TypeError, match="not a member"):
        m.encode(m.Scene(must=m.Slot()))


def test_namespaces_collision_names(generated, reader_dir):
    _, m, _ = module_for("namespaces", generated)
    assert not hasattr(m, "Item")
    both = m.Both(
        common_item=m.rt_common_Item(name="c"),
        other_item=m.rt_other_Item(count=9, at=m.Point(x=1, y=2)),
    )
    from rt.ns.Both import Both as Reader

    r = Reader.GetRootAs(m.encode(both), 0)
    assert r.CommonItem().Name() == b"c" and r.CommonItem().Level() == m.Level.High
    assert r.OtherItem().Count() == 9 and r.OtherItem().At().Y() == 2
    assert hasattr(m.Builders, "build_rt_common_Item") and hasattr(
        m.Builders, "build_rt_other_Item"
    )


def test_keyword_names(generated):
    _, m, _ = module_for("keywords", generated)
    assert m.type_.None_ == 0 and m.type_.pass_ == 2 and m.type_.name == 3
    s = m.Builders_(class_=2, from_="x", lambda_=[1], def_=m.type_.value)
    root = m.Root(s=s, o=m.FILE_IDENTIFIER_(int=3, import_=1.5), return_=False, Shade=m.Shade.Dark)
    assert root.other is m.Shade.Dark and root.while_ is m.type_.None_
    assert isinstance(m.encode(root), bytes) and m.FILE_IDENTIFIER is None
    assert issubclass(m.Builders, object) and hasattr(m.Builders, "build_Builders_")


def test_builtin_names(generated):
    """Declarations named like builtins and module internals do not break the module."""
    schema, m, _ = generated(CORPUS / "inc" / "builtins.fbs")
    assert m.bytes_.str == 0 and m.bytes_.float == 1
    # Escaped names never take a name the schema uses as written.
    assert (m.bytes_.None__, m.bytes_.None_, m.bytes_.mro_, m.bytes_._sunder_x) == (2, 3, 4, 5)
    assert (m.list_().class__, m.list_().class_, m.list_().any_type_) == (1, 2, 3)
    assert "any_type" in m.list_.__dataclass_fields__
    v = m.object_(int=1, x=2.0)
    e = m.encode_(s=m.str_(list=["a"], obj=v), _flatbuffers_=3)
    assert math.isnan(e._NAN_) and e.after == math.inf and m.str_().kind is m.bytes_.float
    root = m.list_(any=e, v=[e, m.encode_()], type=7)
    buf = m.encode(root)
    assert isinstance(buf, bytes)
    assert m.Any_TYPES == {m.str_: m.AnyType.str, m.encode_: m.AnyType.encode}


def test_structs_layout(generated, reader_dir):
    schema, m, _ = module_for("structs", generated)
    # A struct written alone is exactly its laid-out size.
    for s in schema.structs:
        builder = flatbuffers.Builder(0)
        obj = Values(schema, m, 1, "full").struct(s)
        start = builder.Offset()
        getattr(m.Builders(), f"write_{python_module.Names(schema).decl[s.qualified_name]}")(
            builder, obj
        )
        assert builder.Offset() - start == s.size, s.name
    with pytest.raises(ValueError, match="expected 3 elements"):
        m.encode(m.Holder(required_pair=m.Pair(), arrays=m.WithArrays(ints=[1, 2])))
    # force_align: vectors of 16-byte aligned structs / bytes start 16-aligned.
    from rt.structs.Holder import Holder as Reader

    buf = m.encode(
        m.Holder(required_pair=m.Pair(a=1, b=2), alignedv=[m.Aligned(x=1)], bytes16=b"abc")
    )
    r = Reader.GetRootAs(buf, 0)
    for acc in ("Alignedv", "Bytes16"):
        o = r._tab.Offset(_vtable_offset(schema, "Holder", acc))
        assert r._tab.Vector(o) % 16 == 0, acc
    assert r.RequiredPair().B() == 2 and r.After() == 7


def _vtable_offset(schema: Schema, table: str, acc: str) -> int:
    t = next(t for t in schema.tables if t.name == table)
    f = next(f for f in t.fields if accessor(f.name) == acc)
    return f.vtable_offset


def test_builders_is_a_mixin(generated, reader_dir):
    _, m, _ = module_for("tables", generated)
    from rt.tables.Doc import Doc as Reader

    class Upper(m.Builders):
        def build_Leaf(self, builder, obj):
            return super().build_Leaf(builder, m.Leaf(name=obj.name.upper(), weight=obj.weight))

    doc = m.Doc(first=m.Node(label="n", leaf=m.Leaf(name="abc")))
    r = Reader.GetRootAs(m.encode(doc, serializer=Upper()), 0)
    assert r.First().Leaf().Name() == b"ABC"
    with pytest.raises(TypeError, match="takes a Doc"):
        m.encode(m.Leaf())


def test_no_root_type(generated):
    schema, m, _ = module_for("no_root", generated)
    assert schema.root_type is None
    with pytest.raises(TypeError, match="declares no root_type"):
        m.encode(m.Lone())
    builder = flatbuffers.Builder(0)
    builder.Finish(m.Builders().build_Lone(builder, m.Lone(value=5, text="t")))
    sys.path.insert(0, str(_reader_for(CORPUS / "no_root.fbs")))
    try:
        from rt.noroot.Lone import Lone as Reader

        r = Reader.GetRootAs(bytes(builder.Output()), 0)
        assert r.Value() == 5 and r.Text() == b"t"
    finally:
        sys.path.pop(0)


def _reader_for(path: Path) -> Path:
    import tempfile

    out = Path(tempfile.mkdtemp(prefix="noroot_reader_"))
    done = find_flatc().run("--python", "-o", str(out), str(path))
    assert done.returncode == 0, done.stderr
    for name in [n for n in sys.modules if n == "rt" or n.startswith("rt.")]:
        del sys.modules[name]
    importlib.invalidate_caches()
    return out


# ---- properties of the generated text ----------------------------------------------------


@pytest.mark.parametrize("path", SCHEMAS, ids=IDS)
def test_deterministic(path):
    s1 = load_schema(schema_arg(path))
    first = python_module.render(s1, make_environment())
    second = python_module.render(load_schema(schema_arg(path)), make_environment())
    assert first == second
    text = next(iter(first.values()))
    assert text.splitlines()[0] == f"# generated from {schema_arg(path)}, do not edit"


def test_deterministic_across_processes():
    """No set or dict ordering leaks into the output: two interpreters with
    different hash seeds render the same bytes."""
    code = (
        "import hashlib, sys\n"
        "from codegen.frontend import load_schema\n"
        "from codegen.render import make_environment\n"
        "from codegen.targets import python_module\n"
        "for p in sys.argv[1:]:\n"
        "    text = python_module.render(load_schema(p), make_environment())\n"
        "    print(p, hashlib.sha256(repr(sorted(text.items())).encode()).hexdigest())\n"
    )
    outputs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-c", code, *map(schema_arg, SCHEMAS)],
            capture_output=True, text=True, check=False, cwd=REPO, env=env,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]


@pytest.mark.parametrize("path", SCHEMAS, ids=IDS)
def test_imports_with_only_flatbuffers(path, generated, tmp_path):
    """Run in a fresh interpreter without site-packages: only the standard
    library, the flatbuffers package and the generated module."""
    schema, _, file = generated(path)
    only = tmp_path / "only"
    only.mkdir()
    (only / "flatbuffers").symlink_to(Path(flatbuffers.__file__).parent)
    code = (
        "import sys\n"
        f"sys.path[:0] = [{str(only)!r}, {str(file.parent)!r}]\n"
        f"import {file.stem} as m\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in "
        "('codegen', 'jinja2', 'black', 'lark', 'numpy'))\n"
        "assert not bad, bad\n"
        "assert callable(m.encode) and isinstance(m.Builders, type)\n"
    )
    root = schema.root_type and python_module.Names(schema).decl[schema.root_type]
    if root and not any(f.required for f in schema.lookup(schema.root_type).fields):
        code += f"assert isinstance(m.encode(m.{root}()), bytes)\n"
    done = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


# ---- the front end's whole valid corpus --------------------------------------------------

VALID = sorted((CORPUS.parent / "valid").glob("*.fbs"))


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_corpus_round_trips(path, tmp_path):
    """Every schema the front end's corpus holds renders to a module that imports;
    where it has a root_type, what it encodes reads back through flatc's reader."""
    from codegen.diagnostics import SchemaError

    try:
        schema, text = render_module(path)
    except SchemaError as error:
        pytest.skip(f"the front end rejects it (test_flatc_agreement's business): {error}")
    file = tmp_path / f"valid_{path.stem}.py"
    file.write_text(text)
    module = import_file(f"_generated_valid_{path.stem}", file)
    try:
        if schema.root_type is None:
            return
        readers = tmp_path / "readers"
        for source in schema.files:
            done = find_flatc().run(
                "--python", "-o", str(readers), "-I", str(path.parent), str(source)
            )
            if done.returncode != 0:
                pytest.skip(f"flatc rejects it (test_flatc_agreement's business): {done.stderr}")
        tops = sorted({p.stem for p in readers.iterdir()})
        clash = [t for t in tops if t in sys.modules]
        if clash:
            pytest.skip(f"flatc's reader modules {clash} clash with loaded modules")
        sys.path.insert(0, str(readers))
        importlib.invalidate_caches()
        try:
            root = schema.lookup(schema.root_type)
            for mode in ("full", "sparse", "defaults"):
                for seed in range(3):
                    obj = Values(schema, module, seed, mode).table(root)
                    buf = module.encode(obj)
                    Compare(schema).table(root, obj, read_root(schema, buf), root.name)
        finally:
            sys.path.remove(str(readers))
            for name in [n for n in sys.modules if n.split(".")[0] in tops]:
                del sys.modules[name]
    finally:
        del sys.modules[module.__name__]
