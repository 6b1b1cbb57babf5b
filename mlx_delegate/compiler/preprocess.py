"""The ExecuTorch backend of the compile side: one delegate payload per
partition, constants through ExecuTorch's named data store."""

from __future__ import annotations

from typing import List

from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir.backend.backend_details import BackendDetails, PreprocessResult
from executorch.exir.backend.compile_spec_schema import CompileSpec
from torch.export import ExportedProgram

from .._logging import debug
from .builder import ProgramBuilder
from .builder.deferred import DeferredConstant, active_session
from .ops import default_registry
from .passes.lowered import DEFAULT_PASSES, join_sibling_products
from .passes.reinplace import reinplace
from .run_ahead import RunAhead
from .serialization import BACKEND_ID, serialize
from .shared_state import SharedState

CONSTANT_ALIGNMENT = 16  # lets the runtime wrap constants without copying
COMPILE_SPEC = "compile"  # b"0": the runtime interprets the program instead of compiling it
# b"0": products of one input stay apart (passes/lowered/join_products.py); for
# benchmarks that measure what joining them gains
JOIN_SPEC = "join_products"


# ExecuTorch finds a backend's BackendDetails by class name: it is the schema's backend id.
class MLXDelegateBackend(BackendDetails):
    @staticmethod
    def preprocess(
        edge_program: ExportedProgram, compile_specs: List[CompileSpec]
    ) -> PreprocessResult:
        reinplace(edge_program, default_registry())
        built = ProgramBuilder(
            edge_program,
            default_registry(),
            graph_passes=_graph_passes(compile_specs),
            shared_state=SharedState.from_compile_specs(compile_specs),
        ).build()
        built.graph.compile_chains = _compile_chains(compile_specs)
        run_ahead = RunAhead.from_compile_specs(compile_specs)
        if run_ahead is not None:
            inputs = edge_program.graph_signature.user_inputs
            built.graph.run_ahead = run_ahead.resolve(inputs, len(built.graph.output_map))
        payload = serialize(built.graph)
        store, session = NamedDataStore(), active_session()
        for key, data in built.constants.items():
            if isinstance(data, DeferredConstant):  # written by the export, after this
                session.keep(key, data)
            else:
                store.add_named_data(key, data, alignment=CONSTANT_ALIGNMENT)
        debug(
            "payload: %d bytes, %d instructions, %d constants (%d bytes)",
            len(payload),
            len(built.graph.instruction_chains[0].instructions),
            len(built.constants),
            sum(
                d.nbytes if isinstance(d, DeferredConstant) else len(d)
                for d in built.constants.values()
            ),
        )
        return PreprocessResult(
            processed_bytes=payload,
            debug_handle_map={},
            data_store_output=store.get_named_data_store_output(),
        )


def _compile_chains(compile_specs: List[CompileSpec]) -> bool:
    return _switch(compile_specs, COMPILE_SPEC)


def _graph_passes(compile_specs: List[CompileSpec]) -> tuple:
    if _switch(compile_specs, JOIN_SPEC):
        return DEFAULT_PASSES
    return tuple(p for p in DEFAULT_PASSES if p is not join_sibling_products)


def _switch(compile_specs: List[CompileSpec], key: str) -> bool:
    """The on/off compile spec `key` (b"0" or b"1", the last one given): on
    unless given off."""
    values = [bytes(s.value) for s in compile_specs if s.key == key]
    for value in values:
        if value not in (b"0", b"1"):
            raise ValueError(f"compile spec {key!r} takes b'0' or b'1', not {value!r}")
    return not values or values[-1] == b"1"


if MLXDelegateBackend.__name__ != BACKEND_ID:
    raise ImportError(f"the delegate backend class must be named {BACKEND_ID!r}, the schema's id")
