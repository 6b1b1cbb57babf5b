"""The generate/check pipeline: determinism, atomic writes, drift, --skip-flatc."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import jinja2
import pytest

from codegen import pipeline
from codegen.pipeline import MANIFEST, Request, run
from codegen.render import make_environment

REPO = Path(__file__).resolve().parents[2]
IR_SCHEMA = REPO / "schema" / "schema.fbs"

SMALL_SCHEMA = """
namespace demo;
table Point { x: float; y: float = 2.5; }
root_type Point;
"""


def codegen(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "codegen", "generate", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


@pytest.fixture
def ir_project(tmp_path: Path) -> Path:
    """A copy of the IR schema and its generated folder, to modify freely."""
    (tmp_path / "schema").mkdir()
    shutil.copy(IR_SCHEMA, tmp_path / "schema" / "schema.fbs")
    shutil.copytree(REPO / "generated", tmp_path / "generated")
    return tmp_path


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_committed_generated_folder_matches_schema():
    result = codegen("--check", cwd=REPO)
    assert result.returncode == 0, result.stderr


def test_generation_is_deterministic(tmp_path: Path):
    first = run(Request(schema=Path("schema/schema.fbs"), out=tmp_path / "a"))
    second = run(Request(schema=Path("schema/schema.fbs"), out=tmp_path / "b"))
    assert first.files == second.files
    assert snapshot(tmp_path / "a").keys() == snapshot(tmp_path / "b").keys()


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def test_every_generated_file_names_the_schema_and_says_do_not_edit(tmp_path: Path):
    result = run(Request(schema=Path("schema/schema.fbs"), out=tmp_path, skip_flatc=True))
    for path, data in result.files.items():
        if path == MANIFEST:
            continue
        first = data.decode().splitlines()[0]
        assert "generated from schema/schema.fbs" in first and "do not edit" in first, path


def test_unchanged_files_keep_their_mtime(ir_project: Path):
    before = snapshot(ir_project / "generated")
    result = codegen("--skip-flatc", cwd=ir_project)
    assert result.returncode == 0, result.stderr
    assert snapshot(ir_project / "generated") == before


def broken_environment(template: str, source: str):
    def make(**options) -> jinja2.Environment:
        env = make_environment(**options)
        env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({template: source}), env.loader])
        return env

    return make


@pytest.mark.parametrize(
    "template, source",
    [
        ("ir/cpp/mlx_dispatch.cpp.j2", "{{ no_such_variable }}"),  # a template error
        ("ir/inspector.py.j2", "def broken(:\n"),  # a format error: black cannot parse it
    ],
)
def test_failed_generation_leaves_output_untouched(ir_project, monkeypatch, template, source):
    schema = ir_project / "schema" / "schema.fbs"
    schema.write_text(
        schema.read_text().replace("  IntBinaryNode,\n}", "  IntBinaryNode,\n  NewNode,\n}")
        + "\ntable NewNode { x: Tid (required); }\n"
    )
    before = snapshot(ir_project / "generated")
    monkeypatch.setattr(pipeline, "make_environment", broken_environment(template, source))
    with pytest.raises(Exception):
        run(Request(schema=schema, out=ir_project / "generated", cache_dir=ir_project / "cache"))
    assert snapshot(ir_project / "generated") == before


def test_chunked_python_formatting_is_what_black_makes_of_the_whole_file():
    import black

    for path in ("python/schema.py", "python/schema_inspector.py"):
        text = (REPO / "generated" / path).read_text()
        assert black.format_str(text, mode=black.Mode(line_length=100)) == text, path


def test_check_reports_hand_edits_missing_and_unexpected_files(ir_project: Path):
    generated = ir_project / "generated"
    header = generated / "cpp" / "mlx_program.h"
    header.write_text(header.read_text().replace("kOpCount", "kOpCountEdited"))
    (generated / "python" / "schema_inspector.py").unlink()
    (generated / "python" / "stray.py").write_text("# not generated\n")
    result = codegen("--check", cwd=ir_project)
    assert result.returncode == 1
    assert "cpp/mlx_program.h: changed" in result.stderr
    assert "-inline constexpr uint32_t kOpCountEdited" in result.stderr
    assert "+inline constexpr uint32_t kOpCount" in result.stderr
    assert "schema_inspector.py: missing" in result.stderr
    assert "stray.py: unexpected" in result.stderr
    # --check wrote nothing
    assert "kOpCountEdited" in header.read_text()


def test_check_detects_schema_change(ir_project: Path):
    schema = ir_project / "schema" / "schema.fbs"
    schema.write_text(
        schema.read_text().replace("negative_slope: float = 0.01", "negative_slope: float = 0.02")
    )
    result = codegen("--check", "--skip-flatc", cwd=ir_project)
    assert result.returncode == 1
    assert "changed" in result.stderr


def test_skip_flatc_says_when_flatc_outputs_are_stale(ir_project: Path):
    schema = ir_project / "schema" / "schema.fbs"
    schema.write_text(schema.read_text() + "\ntable Unused { a: int; }\n")
    flatc_header = ir_project / "generated" / "cpp" / "schema_generated.h"
    before = flatc_header.read_bytes()
    result = codegen("--skip-flatc", cwd=ir_project)
    assert result.returncode == 1
    assert "made from another version of schema/schema.fbs" in result.stderr
    assert flatc_header.read_bytes() == before  # left as it was
    assert codegen(cwd=ir_project).returncode == 0  # flatc remakes them
    assert codegen("--skip-flatc", cwd=ir_project).returncode == 0
    assert b"struct Unused" in flatc_header.read_bytes()


def test_generate_writes_flatc_outputs_for_any_schema(tmp_path: Path):
    (tmp_path / "small.fbs").write_text(SMALL_SCHEMA)
    result = codegen("--schema", "small.fbs", "--out", "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = tmp_path / "out"
    assert (out / "python" / "small.py").is_file()
    assert (out / "cpp" / "small_generated.h").is_file()
    assert (out / "flatc_py" / "demo" / "Point.py").is_file()
    assert not (out / "cpp" / "mlx_program.h").exists()  # not an IR schema


def test_include_dirs_reach_flatc(tmp_path: Path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "pair.fbs").write_text("namespace demo;\nstruct Pair { a: int; }\n")
    (tmp_path / "small.fbs").write_text('include "pair.fbs";\n' + SMALL_SCHEMA)
    result = codegen("--schema", "small.fbs", "--out", "out", "-I", "inc", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "cpp" / "pair_generated.h").is_file()


def test_schema_error_is_located_and_exits_2(tmp_path: Path):
    (tmp_path / "bad.fbs").write_text("table T {\n  a: Nope;\n}\n")
    before = snapshot(tmp_path)
    result = codegen("--schema", "bad.fbs", "--out", "out", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0].startswith("bad.fbs:2:6: error:")
    assert lines[1] == "  a: Nope;"
    assert lines[2] == "     ^"
    assert snapshot(tmp_path) == before


def test_schema_text_generates_what_that_file_would_and_writes_nothing(tmp_path: Path):
    """make_plan from a schema's text (as `add-op` does before it writes the
    schema): the same files as from the file, flatc's included; nothing written."""
    (tmp_path / "inc.fbs").write_text("namespace demo;\nstruct Pair { a: int; b: int; }\n")
    edited = 'include "inc.fbs";\n' + SMALL_SCHEMA.replace("y: float = 2.5;", "p: Pair;")
    (tmp_path / "small.fbs").write_text(edited)
    from_file = pipeline.make_plan(Request(schema=tmp_path / "small.fbs", out=tmp_path / "a"))
    (tmp_path / "small.fbs").write_text(SMALL_SCHEMA)
    before = snapshot(tmp_path)
    from_text = pipeline.make_plan(
        Request(schema=tmp_path / "small.fbs", out=tmp_path / "b", schema_text=edited)
    )
    assert from_text.files == from_file.files
    assert b"Pair" in from_text.files["cpp/small_generated.h"]
    assert snapshot(tmp_path) == before


OTHER_SCHEMA = """
namespace other;
table Pair { a: int; b: int; }
root_type Pair;
"""


def test_the_schema_folder_is_the_default_and_each_schema_keeps_its_files(tmp_path: Path):
    """`generate` without --schema covers every schema of schema/; the manifest
    has a section per schema, so generating one leaves the other's files alone."""
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "a.fbs").write_text(SMALL_SCHEMA)
    (tmp_path / "schema" / "b.fbs").write_text(OTHER_SCHEMA)
    result = codegen(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = tmp_path / "generated"
    for path in ("python/a.py", "python/a_reader.py", "python/b.py", "cpp/b_generated.h"):
        assert (out / path).is_file(), path
    manifest = (out / MANIFEST).read_text()
    assert "schema a.fbs\n" in manifest and "schema b.fbs\n" in manifest
    assert codegen("--check", cwd=tmp_path).returncode == 0
    # One schema alone: checks and regenerates its own files, keeps the other's.
    assert codegen("--check", "--schema", "schema/a.fbs", cwd=tmp_path).returncode == 0
    (tmp_path / "schema" / "a.fbs").write_text(SMALL_SCHEMA.replace("Point", "Spot"))
    result = codegen("--schema", "schema/a.fbs", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "removed generated/flatc_py/demo/Point.py" in result.stdout
    assert (out / "flatc_py" / "demo" / "Spot.py").is_file()
    assert (out / "python" / "b.py").is_file() and (out / "cpp" / "b_generated.h").is_file()
    assert codegen("--check", cwd=tmp_path).returncode == 0
    # A drifted file of either schema fails the one command.
    (out / "python" / "b.py").write_text("# edited\n")
    result = codegen("--check", cwd=tmp_path)
    assert result.returncode == 1 and "python/b.py: changed" in result.stderr


def test_two_schemas_never_write_one_file_two_ways(tmp_path: Path):
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "a.fbs").write_text(SMALL_SCHEMA)
    (tmp_path / "schema" / "b.fbs").write_text("namespace demo;\ntable Point { z: int; }\n")
    result = codegen(cwd=tmp_path)
    assert result.returncode == 2
    assert "flatc_py/demo/Point.py is generated from a.fbs already" in result.stderr


def test_a_manifest_without_sections_is_claimed_by_the_first_schema(ir_project: Path):
    """generated/.manifest as written before schemas had sections."""
    manifest = ir_project / "generated" / MANIFEST
    lines = manifest.read_text().splitlines()
    start, end = lines.index("schema schema.fbs"), lines.index("schema tensor_file.fbs")
    manifest.write_text("\n".join(lines[:start] + lines[start + 1 : end]) + "\n")
    for stem in ("tensor_file", "tensor_file_reader"):
        (ir_project / "generated" / "python" / f"{stem}.py").unlink()
    (ir_project / "generated" / "cpp" / "tensor_file_generated.h").unlink()
    shutil.rmtree(ir_project / "generated" / "flatc_py" / "mlxd" / "tensor_file")
    result = codegen("--skip-flatc", cwd=ir_project)
    assert result.returncode == 0, result.stderr
    assert "schema schema.fbs\n" in manifest.read_text()
    assert codegen("--check", cwd=ir_project).returncode == 0


def test_a_schema_folder_without_schemas_is_an_error(tmp_path: Path):
    (tmp_path / "schema").mkdir()
    result = codegen(cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "error: no schema (*.fbs) in the folder schema\n"
    assert not (tmp_path / "generated").exists()
