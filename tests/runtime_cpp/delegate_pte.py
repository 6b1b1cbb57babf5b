"""Hand-built `.pte` files for the delegate and runner tests, made without the
compile pipeline: a throw-away `BackendDetails` whose `preprocess` returns a
payload built here (MLX0 header + the generated serializer's FlatBuffer),
lowered through a partitioner that delegates every op.

The lowered modules are re-labelled with the runtime's backend id
`MLXDelegateBackend` after lowering, because `to_backend` finds a backend by
class name and the compile side defines a class of that name too."""

from __future__ import annotations

import importlib.util
import struct
import sys
from pathlib import Path
from typing import Sequence

import torch
from executorch.exir import EdgeCompileConfig, to_edge
from executorch.exir._serialize._named_data_store import NamedDataStore
from executorch.exir.backend.backend_details import BackendDetails, PreprocessResult
from executorch.exir.backend.compile_spec_schema import CompileSpec
from executorch.exir.backend.partitioner import (
    DelegationSpec,
    Partitioner,
    PartitionResult,
)
from executorch.exir.backend.utils import tag_constant_data, tag_mutated_buffer
from executorch.exir.lowered_backend_module import get_lowered_submodules

REPO = Path(__file__).resolve().parents[2]
BACKEND_ID = "MLXDelegateBackend"
MAGIC = b"MLX0"


def load_schema():
    """The generated IR module (generated/python/schema.py)."""
    name = "_mlxd_test_generated_schema"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "generated" / "python" / "schema.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


S = load_schema()


def header(flatbuffer_size: int, data_size: int = 0, magic: bytes = MAGIC) -> bytes:
    end = 24 + flatbuffer_size
    offset = end + (-end % 16)
    return struct.pack("<4s4sQQ", b"\0\0\0\0", magic, offset, data_size)


def payload(graph) -> bytes:
    fb = S.encode(graph)
    end = 24 + len(fb)
    return header(len(fb)) + fb + b"\0" * (-end % 16)


def meta(shape: Sequence[int], dtype=None):
    return S.TensorMeta(
        shape=[S.IntOrVid(literal=int(d)) for d in shape],
        dtype=S.DType.Float32 if dtype is None else dtype,
    )


def binary_graph(node_cls, shape: Sequence[int], dtype=None):
    """out = node(a, b) with two tensor inputs: slots a=0, b=1, out=2."""
    return S.MLXGraph(
        num_input_tensors=2,
        num_output_tensors=1,
        instruction_chains=[
            S.InstructionChain(
                instructions=[
                    S.Instruction(op=node_cls(a=S.Tid(idx=0), b=S.Tid(idx=1), out=S.Tid(idx=2)))
                ]
            )
        ],
        input_map=[
            S.SlotRef(kind=S.SlotKind.Tensor, idx=0),
            S.SlotRef(kind=S.SlotKind.Tensor, idx=1),
        ],
        output_map=[S.SlotRef(kind=S.SlotKind.Tensor, idx=2)],
        tensor_meta=[meta(shape, dtype)] * 3,
    )


def constant_add_graph(shape: Sequence[int], name: str):
    """out = x + w with w a named constant: slots w=0 (constant), x=1, out=2."""
    return S.MLXGraph(
        num_constant_tensors=1,
        num_input_tensors=1,
        num_output_tensors=1,
        instruction_chains=[
            S.InstructionChain(
                instructions=[
                    S.Instruction(op=S.AddNode(a=S.Tid(idx=1), b=S.Tid(idx=0), out=S.Tid(idx=2)))
                ]
            )
        ],
        input_map=[S.SlotRef(kind=S.SlotKind.Tensor, idx=1)],
        output_map=[S.SlotRef(kind=S.SlotKind.Tensor, idx=2)],
        named_slots=[S.NamedSlot(name=name, slot=S.Tid(idx=0))],
        tensor_meta=[meta(shape)] * 3,
    )


# What the next preprocess() call returns (set by build_pte).
_NEXT: dict = {}


class HandBuiltMLXPayload(BackendDetails):
    @staticmethod
    def preprocess(edge_program, compile_specs: list[CompileSpec]) -> PreprocessResult:
        store = None
        if _NEXT.get("constants"):
            named = NamedDataStore()
            for key, data in _NEXT["constants"].items():
                named.add_named_data(
                    key, data, alignment=16, external_tag=_NEXT.get("external_tag")
                )
            store = named.get_named_data_store_output()
        return PreprocessResult(
            processed_bytes=_NEXT["payload"], debug_handle_map={}, data_store_output=store
        )


class DelegateEverything(Partitioner):
    """Delegates every op (or those `select(node)` accepts) to one partition."""

    def __init__(self, compile_specs: list[CompileSpec], select=None):
        super().__init__()
        self.delegation_spec = DelegationSpec(HandBuiltMLXPayload.__name__, compile_specs)
        self.select = select or (lambda node: True)

    def partition(self, exported_program) -> PartitionResult:
        tags = {}
        for node in exported_program.graph_module.graph.nodes:
            if node.op == "call_function" and self.select(node):
                node.meta["delegation_tag"] = "tag0"
                tags["tag0"] = self.delegation_spec
        tag_constant_data(exported_program)
        tag_mutated_buffer(exported_program)  # the delegate owns mutated buffers
        return PartitionResult(tagged_exported_program=exported_program, partition_tags=tags)


def build_pte(
    module: torch.nn.Module,
    example_inputs: tuple,
    payload_bytes: bytes,
    *,
    constants: dict[str, bytes] | None = None,
    device: str | None = None,
    dynamic_shapes=None,
    select=None,
    external_tag: str | None = None,
    data_dir: Path | None = None,
) -> bytes:
    """Lowers `module` entirely to one delegate whose payload is `payload_bytes`.
    With `external_tag`, the constants go to `{data_dir}/{external_tag}.ptd`
    instead of the .pte."""
    specs = [CompileSpec("device", device.encode())] if device else []
    exported = torch.export.export(module, example_inputs, dynamic_shapes=dynamic_shapes)
    edge = to_edge(exported, compile_config=EdgeCompileConfig(_check_ir_validity=False))
    _NEXT.clear()
    _NEXT.update(payload=payload_bytes, constants=constants or {}, external_tag=external_tag)
    try:
        edge = edge.to_backend(DelegateEverything(specs, select))
    finally:
        _NEXT.clear()
    lowered = get_lowered_submodules(edge.exported_program().graph_module)
    assert len(lowered) == 1, f"expected one delegate, got {len(lowered)}"
    for _, lowered_module, _ in lowered:
        lowered_module._backend_id = BACKEND_ID
    program = edge.to_executorch()
    if external_tag is not None:
        program.write_tensor_data_to_file(str(data_dir))
    return program.buffer


class Add(torch.nn.Module):
    def forward(self, a, b):
        return a + b


class Mul(torch.nn.Module):
    def forward(self, a, b):
        return a * b


class AddWeight(torch.nn.Module):
    def __init__(self, w: torch.Tensor):
        super().__init__()
        self.w = torch.nn.Parameter(w, requires_grad=False)

    def forward(self, x):
        return x + self.w


def add_pte(shape=(2, 3), device: str | None = None) -> bytes:
    ex = (torch.randn(*shape), torch.randn(*shape))
    return build_pte(Add(), ex, payload(binary_graph(S.AddNode, shape)), device=device)


def constant_pte(
    w: torch.Tensor, name: str = "w", external_tag: str | None = None, data_dir: Path | None = None
) -> tuple[bytes, torch.nn.Module]:
    module = AddWeight(w)
    data = w.contiguous().numpy().tobytes()
    pte = build_pte(
        module,
        (torch.randn(*w.shape),),
        payload(constant_add_graph(tuple(w.shape), name)),
        constants={name: data},
        external_tag=external_tag,
        data_dir=data_dir,
    )
    return pte, module


class Accumulate(torch.nn.Module):
    """acc += x; returns a copy of acc (acc starts at `init`)."""

    def __init__(self, init: torch.Tensor):
        super().__init__()
        self.register_buffer("acc", init.clone())

    def forward(self, x):
        self.acc.add_(x)
        return self.acc.clone()


def accumulate_graph(shape: Sequence[int], name: str):
    """slots x=0 (input), out=1 (output), acc=2 (mutable buffer, named)."""
    x, out, acc = (S.Tid(idx=i) for i in range(3))
    return S.MLXGraph(
        num_input_tensors=1,
        num_output_tensors=1,
        num_mutable_buffer_tensors=1,
        instruction_chains=[
            S.InstructionChain(
                instructions=[
                    S.Instruction(op=S.AddNode(a=acc, b=x, out=acc)),
                    S.Instruction(op=S.CopyNode(x=acc, out=out)),
                ]
            )
        ],
        input_map=[S.SlotRef(kind=S.SlotKind.Tensor, idx=0)],
        output_map=[S.SlotRef(kind=S.SlotKind.Tensor, idx=1)],
        mutable_buffer_map=[S.SlotRef(kind=S.SlotKind.Tensor, idx=2)],
        named_slots=[S.NamedSlot(name=name, slot=acc)],
        tensor_meta=[meta(shape)] * 3,
    )


def accumulate_pte(init: torch.Tensor, name: str = "acc") -> bytes:
    return build_pte(
        Accumulate(init),
        (torch.randn(*init.shape),),
        payload(accumulate_graph(tuple(init.shape), name)),
        constants={name: init.contiguous().numpy().tobytes()},
    )


class Flatten3(torch.nn.Module):
    def forward(self, x):
        return x.reshape(x.shape[0] * 3)


def symint_pte(max_rows: int = 8) -> bytes:
    """x (n, 3) -> x.reshape(n * 3) with only the reshape delegated: ExecuTorch
    computes n * 3 (sym_size, mul) and passes it to the delegate as an Int
    input, bound to value slot 0."""
    graph = S.MLXGraph(
        num_input_tensors=1,
        num_output_tensors=1,
        num_values=1,
        instruction_chains=[
            S.InstructionChain(
                instructions=[
                    S.Instruction(
                        op=S.ReshapeNode(
                            x=S.Tid(idx=0), out=S.Tid(idx=1), shape=[S.IntOrVid(vid=S.Vid(idx=0))]
                        )
                    )
                ]
            )
        ],
        input_map=[
            S.SlotRef(kind=S.SlotKind.Tensor, idx=0),
            S.SlotRef(kind=S.SlotKind.Value, idx=0),
        ],
        output_map=[S.SlotRef(kind=S.SlotKind.Tensor, idx=1)],
        tensor_meta=[meta((-1, 3)), S.TensorMeta(shape=[S.IntOrVid(vid=S.Vid(idx=0))])],
    )
    rows = torch.export.Dim("rows", min=1, max=max_rows)
    return build_pte(
        Flatten3(),
        (torch.randn(max_rows, 3),),
        payload(graph),
        dynamic_shapes=({0: rows},),
        select=lambda node: "view" in str(node.target),
    )


def malformed_payloads() -> dict[str, bytes]:
    """Payloads init() must reject with an error (never a crash)."""
    good = payload(binary_graph(S.AddNode, (2, 3)))
    fb = good[24:]
    return {
        "empty": b"",
        "truncated_header": good[:10],
        "bad_magic": good[:4] + b"XLM9" + good[8:],
        "nonzero_padding": b"\1" + good[1:],
        "header_only": header(0)[:8] + struct.pack("<QQ", 0, 0),
        "segment_out_of_bounds": good[:8] + struct.pack("<QQ", len(good) - 4, 64) + good[24:],
        "garbage_flatbuffer": header(64) + bytes((i * 37 + 11) % 251 for i in range(64)) + bytes(8),
        "garbage_with_identifier": header(64)
        + struct.pack("<I", 0x7FFFFFF0)
        + b"MLXG"
        + bytes((i * 53 + 7) % 251 for i in range(56))
        + bytes(8),
        "wrong_identifier": header(len(fb)) + fb[:4] + b"XXXX" + fb[8:],
        "segment_past_end": header(len(fb))[:24] + fb[: len(fb) // 2],
        "truncated_flatbuffer": struct.pack("<4s4sQQ", b"\0" * 4, MAGIC, 0, 0) + fb[: len(fb) // 2],
    }


def invalid_programs() -> dict[str, bytes]:
    """Well-formed payloads (they pass the FlatBuffer verifier) describing
    programs the backend plugin must refuse at load time."""
    out_of_range = binary_graph(S.AddNode, (2, 3))
    out_of_range.instruction_chains[0].instructions[0].op.out = S.Tid(idx=99)
    bad_input_ref = binary_graph(S.AddNode, (2, 3))
    bad_input_ref.input_map[1] = S.SlotRef(kind=S.SlotKind.Tensor, idx=1000)
    bad_chain = binary_graph(S.AddNode, (2, 3))
    bad_chain.main_chain = 5
    return {
        "slot_out_of_range": payload(out_of_range),
        "input_map_out_of_range": payload(bad_input_ref),
        "main_chain_out_of_range": payload(bad_chain),
    }
