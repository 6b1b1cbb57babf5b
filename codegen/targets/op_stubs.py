"""What `python -m codegen add-op` writes besides the schema and generated/:
the op's schema table, and the stubs a person fills in (the Python handler,
the C++ `exec_*` function, the op test), each marked `TODO(add-op)`. All are new
files: nothing else is edited, as the project lists its parts itself (the
handler families: mlx_delegate/compiler/ops/__init__.py; the op cases:
testbench/cases.py; the C++ sources: a CMake glob).

Paths are relative to the project root (`--root`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import jinja2

from ..naming import PYTHON_KEYWORDS
from ..op_spec import NewField, NewOp

TABLE_TEMPLATE = "add_op/table.fbs.j2"
HANDLER = "mlx_delegate/compiler/ops/{module}.py"
EXEC = "runtime_cpp/src/ops/{module}.cpp"
TEST = "testbench/op_cases_{module}.py"
STUB_TEMPLATES = {
    HANDLER: "add_op/handler.py.j2",
    EXEC: "add_op/exec.cpp.j2",
    TEST: "add_op/op_case.py.j2",
}
MARKER = "TODO(add-op)"


@dataclass(frozen=True)
class Argument:
    """A keyword argument of the node in the handler's example."""

    name: str
    example: str


@dataclass(frozen=True)
class HandlerView:
    path: str
    function: str
    arguments: tuple[Argument, ...]


@dataclass(frozen=True)
class ExecView:
    path: str
    example: str  # a C++ statement, or "" where no simple one fits


@dataclass(frozen=True)
class TestView:
    path: str
    name: str  # the op test's name
    function: str
    parameters: tuple[str, ...]  # the model function's inputs: the required tensor operands


def stub_paths(op: NewOp) -> tuple[str, ...]:
    return tuple(p.format(module=op.snake) for p in STUB_TEMPLATES)


def render_table(op: NewOp, env: jinja2.Environment) -> str:
    return env.get_template(TABLE_TEMPLATE).render(op=op)


def render_stubs(op: NewOp, schema_path: str, env: jinja2.Environment) -> dict[str, str]:
    """The three stubs, by path; unformatted."""
    handler, exec_, test = stub_paths(op)
    context = dict(
        op=op,
        schema_path=schema_path,
        handler=HandlerView(handler, _python_name(op.snake), _arguments(op)),
        exec=ExecView(exec_, _exec_example(op)),
        test=TestView(
            test,
            op.snake,
            f"_{op.snake}",
            tuple(
                f.name for f in op.inputs if f.required and f.slot_type == "Tid" and not f.vector
            ),
        ),
    )
    return {
        path: env.get_template(template).render(**context)
        for path, template in zip(stub_paths(op), STUB_TEMPLATES.values())
    }


def _python_name(name: str) -> str:
    return f"{name}_" if name in PYTHON_KEYWORDS else name


def _arguments(op: NewOp) -> tuple[Argument, ...]:
    """What each field could be set from: the required input slots from the
    node's arguments in order, the first output from the node's result."""
    inputs = [f for f in op.inputs if f.required and not f.vector and f.slot_type == "Tid"]
    first_output = op.outputs[0] if op.outputs else None
    arguments = []
    for field in op.fields:
        if field in inputs:
            example = f"b.tensor_slot(node.args[{inputs.index(field)}]).tid"
        elif field is first_output and field.slot_type == "Tid" and not field.vector:
            example = "b.out(node).tid"
        else:
            example = "..."
        arguments.append(Argument(field.name, example))
    return tuple(arguments)


def _exec_example(op: NewOp) -> str:
    output = _first(op.outputs)
    operand = _first(f for f in op.inputs if f.required)
    if output is None or operand is None:
        return ""
    return f"st.set_tensor(n.{output.name}, mx::abs(st.tensor(n.{operand.name}), s));"


def _first(fields) -> Optional[NewField]:
    """The first plain tensor slot (`Tid`, not a vector) among `fields`."""
    return next((f for f in fields if f.slot_type == "Tid" and not f.vector), None)
