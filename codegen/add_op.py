"""`python -m codegen add-op NAME --fields SPEC`: scaffolds an op that needs
hand-written code.

    OpSpec (op_spec: the command line) -> NewOp (resolved against the schema)
      -> the schema's new text (its table before `union OpNode`, its member
         appended: schema_edit) -> generate from that text (pipeline.make_plan)
      -> the stubs (targets/op_stubs: new files only) -> formatted -> written

Everything is rendered, generated and formatted before anything is written:
a mistake in the command line, a schema the new table would break, a template
or formatter failure, a stub that exists already, leaves the schema,
generated/ and the project as they were."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from . import schema_edit
from . import syntax as s
from .diagnostics import Diagnostic, SchemaError
from .formatting import FormatCache, default_cache_dir
from .model import Location
from .op_spec import FIELDS_ARGUMENT, NewOp, OpSpec, parse_op_spec, resolve_op
from .parser import parse_schema
from .pipeline import Plan, Request, make_plan
from .render import make_environment
from .resolve import resolve
from .targets import op_stubs
from .targets.ir_view import OP_UNION, ir_view
from .writer import find_drift, write_files


@dataclass(frozen=True)
class AddOpRequest:
    name: str
    fields: str  # the --fields text
    schema: Path
    out: Path
    root: Path  # the project the stubs go into
    include_dirs: tuple[Path, ...] = ()
    stubs: bool = True
    cache_dir: Optional[Path] = None


@dataclass(frozen=True)
class AddOpPlan:
    """What add-op writes: the schema's new text, the generation from it and
    the stubs by path under the root."""

    op: NewOp
    schema_before: str
    schema_after: str
    generated: Plan
    project: dict[str, bytes] = field(default_factory=dict)


def plan_add_op(request: AddOpRequest) -> AddOpPlan:
    """Everything add-op would write; raises SchemaError (with the text of the
    command line and of the edited schema, to show the lines) for any mistake."""
    sources = {FIELDS_ARGUMENT: request.fields}
    try:
        spec = parse_op_spec(request.name, request.fields)
        schema_path = str(request.schema)
        syntax = parse_schema(schema_path, request.include_dirs)
        view = ir_view(resolve(syntax))
        if view is None:
            raise SchemaError.at(
                None, f"{schema_path} has no `{OP_UNION}` union: add-op adds ops to an IR schema"
            )
        op = resolve_op(spec, view)
        env = make_environment(bytecode_dir=(request.cache_dir or default_cache_dir()) / "jinja")
        before = _root_text(syntax)
        union = _union_syntax(syntax, view.op_union.location)
        table = op_stubs.render_table(op, env)
        table_insertion = schema_edit.before_declaration(before, union, table)
        after = schema_edit.apply(
            before, [table_insertion, schema_edit.union_member(before, union, op.table)]
        )
        sources[schema_path] = after
        _check_edit(spec, op, request, after, _lines_of(after, table_insertion, table))
        generated = make_plan(
            Request(
                schema=request.schema,
                out=request.out,
                include_dirs=request.include_dirs,
                cache_dir=request.cache_dir,
                schema_text=after,
            )
        )
        project = _project_files(op, request, env) if request.stubs else {}
    except SchemaError as error:
        raise SchemaError(error.diagnostics, sources) from None
    return AddOpPlan(op, before, after, generated, project)


def write(request: AddOpRequest, plan: AddOpPlan) -> list[str]:
    """Writes the plan (generated/ first, the schema last); the paths written."""
    report = write_files(request.out, plan.generated.files, plan.generated.remove)
    written = [str(request.out / p) for p in report.written]
    report = write_files(request.root, plan.project)
    written += [str(request.root / p) for p in report.written]
    schema = request.schema
    write_files(schema.parent, {schema.name: plan.schema_after.encode("utf-8", "surrogateescape")})
    return [str(schema)] + written


def describe(request: AddOpRequest, plan: AddOpPlan) -> str:
    """What a dry run prints: the schema's diff, the generated files that would
    change and each stub in full."""
    parts = [_diff(str(request.schema), plan.schema_before, plan.schema_after)]
    drift = find_drift(request.out, plan.generated.files, also_expected=plan.generated.kept)
    parts.append(
        "".join(
            f"would {'remove' if d.path in plan.generated.remove else 'write'} "
            f"{request.out / d.path} ({d.status})\n"
            for d in drift
            if d.status != "unexpected" or d.path in plan.generated.remove
        )
    )
    for path, data in plan.project.items():  # new files (_project_files)
        parts.append(f"would write {request.root / path}:\n{data.decode('utf-8')}")
    return "\n".join(parts)


def next_steps(request: AddOpRequest, plan: AddOpPlan) -> str:
    stubs = [str(request.root / p) for p in op_stubs.stub_paths(plan.op)] if request.stubs else []
    files = [str(request.schema)] + stubs
    listed = "".join(f"\n  {f}" for f in files)
    return (
        f"added op {plan.op.name} (table {plan.op.table}, OpCode {plan.op.enumerator} = "
        f"{plan.op.code}); fill in every {op_stubs.MARKER} in:{listed}"
    )


# ---------------------------------------------------------------- steps


def _root_text(syntax: s.SchemaSyntax) -> str:
    root = Path(syntax.root)
    return root.read_bytes().decode("utf-8", "surrogateescape")


def _union_syntax(syntax: s.SchemaSyntax, location: Location) -> s.UnionSyntax:
    """The op union's declaration as written; it must be in the root schema,
    the file add-op edits."""
    for file in syntax.files:
        for statement in file.statements:
            if isinstance(statement, s.UnionSyntax) and statement.name.location == location:
                if file.path != syntax.root:
                    raise SchemaError.at(
                        location,
                        f"`{OP_UNION}` is declared in an included file; add-op edits "
                        f"{syntax.root} only",
                    )
                return statement
    raise AssertionError(f"no syntax for the union at {location}")  # the model came from it


def _lines_of(after: str, insertion: schema_edit.Insertion, block: str) -> range:
    """The line numbers of `block` in the edited text; nothing is inserted
    before it (the union member goes after the union's start)."""
    start = insertion.offset + insertion.text.index(block)
    first = after.count("\n", 0, start) + 1
    return range(first, first + block.count("\n"))


def _check_edit(
    spec: OpSpec, op: NewOp, request: AddOpRequest, after: str, table_lines: range
) -> None:
    """Resolves the edited schema, as generation will: a rule of flatc's that
    the new table breaks (a field named like a table, a default out of range)
    is reported at its field in --fields, anything else in the edited text."""
    try:
        schema = resolve(parse_schema(str(request.schema), request.include_dirs, after))
    except SchemaError as error:
        lines = after.split("\n")
        raise SchemaError(
            [_at_field(spec, str(request.schema), lines, table_lines, d) for d in error.diagnostics]
        ) from None
    view = ir_view(schema)
    if view is None or view.ops[-1].table.name != op.table or view.ops[-1].code != op.code:
        raise SchemaError.at(None, f"the edited schema does not end `{OP_UNION}` with {op.table}")


def _at_field(
    spec: OpSpec, spec_file: str, lines: list[str], table_lines: range, diagnostic: Diagnostic
) -> Diagnostic:
    """A diagnostic on a field line of the new table, moved to that field in
    --fields (the table has one field per line, each starting with its name)."""
    location = diagnostic.location
    if location is None or location.file != spec_file or location.line not in table_lines:
        return diagnostic
    written = lines[location.line - 1].strip().split(":", 1)[0]
    field = next((f for f in spec.fields if f.name == written), None)
    if field is None:
        return diagnostic
    return Diagnostic(f"field `{field.name}`: {diagnostic.message}", field.location)


def _project_files(op: NewOp, request: AddOpRequest, env) -> dict[str, bytes]:
    """The stubs, formatted: new files, in the folders of an mlx-delegate project."""
    root = request.root
    for path in op_stubs.stub_paths(op):
        if (root / path).exists():
            raise SchemaError.at(
                None,
                f"{root / path} exists already: add-op writes a new module per op "
                f"(choose another op name, or remove the file)",
            )
        if not (root / path).parent.is_dir():
            raise SchemaError.at(
                None,
                f"{(root / path).parent} not found: the stubs go into an mlx-delegate project "
                f"(--root), or pass --no-stubs",
            )
    texts = op_stubs.render_stubs(op, str(request.schema), env)
    cache = FormatCache(request.cache_dir)
    return {path: cache.format(path, text).encode("utf-8") for path, text in texts.items()}


def _diff(path: str, before: str, after: str) -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            fromfile=f"{path} (now)",
            tofile=f"{path} (with the op)",
            n=2,
        )
    )
