"""`python -m codegen generate` and `python -m codegen add-op`: the command
line. Diagnostics are rendered here, once; exit status 2 for errors in the
schema, the command line or the tools, 1 for drift or stale flatc outputs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional, Sequence

from .add_op import AddOpRequest, describe, next_steps, plan_add_op, write
from .diagnostics import SchemaError
from .pipeline import Request, Result, display_path, run

EXIT_DRIFT = 1
# `generate` without --schema: every schema of the project, the IR's and the tensor file's.
DEFAULT_SCHEMAS = "schema"
EXIT_ERROR = 2


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "add-op":
        return _add_op(args)
    schemas = schema_files(args.schema or [DEFAULT_SCHEMAS])
    if isinstance(schemas, str):
        print(f"error: {schemas}", file=sys.stderr)
        return EXIT_ERROR
    status = 0
    for schema in schemas:
        request = Request(
            schema=Path(display_path(schema)),
            out=Path(args.out),
            include_dirs=tuple(Path(d) for d in args.include),
            skip_flatc=args.skip_flatc,
            check=args.check,
        )
        try:
            result = run(request)
        except SchemaError as error:
            print(error.render(), file=sys.stderr)
            return EXIT_ERROR
        status = max(status, _report(request, result, args.quiet))
    return status


def schema_files(given: Sequence[str]) -> list[Path] | str:
    """The schemas to generate from: each file given, and each `*.fbs` of a
    folder given (in name order); or why there are none. A schema that includes
    another is generated whole; the included one, if also given, gets outputs of
    its own."""
    found: list[Path] = []
    for name in given:
        path = Path(name)
        if path.is_dir():
            schemas = sorted(path.glob("*.fbs"))
            if not schemas:
                return f"no schema (*.fbs) in the folder {path}"
            found += schemas
        else:
            found.append(path)
    return found


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m codegen")
    commands = parser.add_subparsers(dest="command", required=True)
    generate = commands.add_parser("generate", help="generate code from a FlatBuffers schema")
    generate.add_argument(
        "--schema",
        action="append",
        metavar="PATH",
        help=f"a schema, or a folder of them (every *.fbs); repeatable; default {DEFAULT_SCHEMAS}/",
    )
    generate.add_argument("--out", default="generated")
    generate.add_argument("-I", "--include", action="append", default=[], metavar="DIR")
    generate.add_argument(
        "--skip-flatc", action="store_true", help="leave flatc's outputs as they are"
    )
    generate.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if the output folder drifted"
    )
    generate.add_argument("-q", "--quiet", action="store_true")
    add_op = commands.add_parser(
        "add-op",
        help="add an op that needs hand-written code: its schema table, generated/, and stubs",
        description="Appends the op's table and OpNode member to the schema, regenerates the "
        "output folder, and writes the stubs to fill in (each marked TODO(add-op)): the Python "
        "handler, the C++ exec_ function and the op test.",
    )
    add_op.add_argument("name", metavar="NAME", help="the op, e.g. CumProd (table CumProdNode)")
    add_op.add_argument(
        "--fields",
        default="",
        metavar="SPEC",
        help='its fields, e.g. "x: Tid, axis: int32 = -1, bias: Tid?" (see codegen/README.md)',
    )
    add_op.add_argument("--schema", default="schema/schema.fbs")
    add_op.add_argument("--out", default="generated")
    add_op.add_argument("-I", "--include", action="append", default=[], metavar="DIR")
    add_op.add_argument(
        "--root", default=".", help="the project the stubs go into (default: the working folder)"
    )
    add_op.add_argument(
        "--no-stubs", action="store_true", help="only the schema and the output folder"
    )
    add_op.add_argument(
        "--dry-run", action="store_true", help="print what it would write; write nothing"
    )
    add_op.add_argument("-q", "--quiet", action="store_true")
    return parser


def _add_op(args: argparse.Namespace) -> int:
    request = AddOpRequest(
        name=args.name,
        fields=args.fields,
        schema=Path(display_path(Path(args.schema))),
        out=Path(args.out),
        root=Path(args.root),
        include_dirs=tuple(Path(d) for d in args.include),
        stubs=not args.no_stubs,
    )
    try:
        plan = plan_add_op(request)
    except SchemaError as error:
        print(error.render(), file=sys.stderr)
        return EXIT_ERROR
    if args.dry_run:
        print(describe(request, plan), end="")
        return 0
    written = write(request, plan)
    if not args.quiet:
        print("".join(f"wrote {path}\n" for path in written) + next_steps(request, plan))
    return 0


def _report(request: Request, result: Result, quiet: bool) -> int:
    status = 0
    if request.check:
        for drift in result.drift:
            print(f"{request.out / drift.path}: {drift.status}", file=sys.stderr)
            if drift.diff:
                print(drift.diff, file=sys.stderr, end="")
        if result.drift:
            print(
                f"{len(result.drift)} generated file(s) differ from {result.schema.path}; "
                "run `python -m codegen generate`",
                file=sys.stderr,
            )
            status = EXIT_DRIFT
    if result.stale_flatc:
        print(f"error: {result.stale_flatc}", file=sys.stderr)
        status = EXIT_DRIFT
    if not quiet and status == 0:
        print(_summary(request, result))
    return status


def _summary(request: Request, result: Result) -> str:
    schema = result.schema
    ops = next((f"{len(u.members)} ops, " for u in schema.unions if u.name == "OpNode"), "")
    counts = (
        f"{schema.path}: {ops}{len(schema.tables)} tables, {len(schema.structs)} structs, "
        f"{len(schema.enums)} enums, {len(schema.unions)} unions"
    )
    if result.report is None:
        return f"{counts}; {request.out} is up to date ({len(result.files)} files)"
    report = result.report
    written = "".join(f"\n  wrote {request.out / p}" for p in report.written)
    removed = "".join(f"\n  removed {request.out / p}" for p in report.removed)
    return (
        f"{counts}; {len(report.written)} written, {len(report.removed)} removed, "
        f"{report.unchanged} unchanged in {request.out}{written}{removed}"
    )
