"""What an exported program's graph signature says about its placeholders."""

from __future__ import annotations

import torch
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind, OutputKind


def input_spec(program: ExportedProgram, name: str):
    return next((s for s in program.graph_signature.input_specs if s.arg.name == name), None)


def constant_value(program: ExportedProgram, spec) -> torch.Tensor:
    if spec.target in program.state_dict:
        return program.state_dict[spec.target]
    return program.constants[spec.target]


def mutated_buffers(program: ExportedProgram) -> set[str]:
    return {
        s.target
        for s in program.graph_signature.output_specs
        if s.kind == OutputKind.BUFFER_MUTATION
    }
