"""What an exported program's graph signature says about its placeholders."""

from __future__ import annotations

from typing import Optional

import torch
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind, OutputKind


def input_spec(program: ExportedProgram, name: str):
    return next((s for s in program.graph_signature.input_specs if s.arg.name == name), None)


def constant_value(program: ExportedProgram, spec) -> torch.Tensor:
    if spec.target in program.state_dict:
        return program.state_dict[spec.target]
    return program.constants[spec.target]


def constant_of(program: ExportedProgram, name: str) -> Optional[torch.Tensor]:
    """The value of placeholder `name` if it is a parameter, buffer or lifted
    constant; None for a user input."""
    spec = input_spec(program, name)
    if spec is None or spec.kind == InputKind.USER_INPUT:
        return None
    return constant_value(program, spec)


def mutated_buffers(program: ExportedProgram) -> set[str]:
    return {
        s.target
        for s in program.graph_signature.output_specs
        if s.kind == OutputKind.BUFFER_MUTATION
    }
