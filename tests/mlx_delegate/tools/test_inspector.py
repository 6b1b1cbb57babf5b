"""mlx_delegate.tools.inspector: the listing of a hand-built payload, line for line
(every kind of field the op tables have, an init chain, value slots, a dynamic
constant shape, an op code this build does not know), and a payload whose IR
does not decode is an error message, not a traceback."""

from __future__ import annotations

import dataclasses

import pytest

from mlx_delegate.tools import inspector
from mlx_delegate.formats.ir import inspector as metadata
from mlx_delegate.formats.ir import schema as s
from mlx_delegate.compiler.serialization import ALIGNMENT, HEADER, HEADER_SIZE, MAGIC, PayloadError

FUTURE_OP = 250  # a discriminant newer than any op of this schema


class WithFutureOp(s.Builders):
    """Writes an instruction whose op code a later schema would have."""

    def build_OpNode(self, builder, kind, value):
        if kind == FUTURE_OP:
            builder.StartObject(0)
            return builder.EndObject()
        return super().build_OpNode(builder, kind, value)


def op(node, kind=None):
    return s.Instruction(op=node, op_type=kind)


def graph() -> s.MLXGraph:
    t, v = s.Tid, s.Vid
    tensor, value = s.SlotKind.Tensor, s.SlotKind.Value
    init = [op(s.FullLikeNode(x=t(idx=0), out=t(idx=3), value=2.0))]
    main = [
        op(s.AddNode(a=t(idx=0), b=t(idx=1), out=t(idx=2))),
        op(s.ReshapeNode(x=t(idx=2), out=t(idx=3), shape=[s.IntOrVid(vid=v(idx=0)), s.IntOrVid(literal=-1)])),
        op(s.FullNode(out=t(idx=4), shape=[], value=s.FloatOrVid(literal=0.5), dtype=s.DType.BFloat16)),
        op(s.LeakyReluNode(x=t(idx=4), out=t(idx=4), negative_slope=0.2)),
        op(s.ClipNode(x=t(idx=4), out=t(idx=2), min=s.TidOrVid(vid=v(idx=0)), max=s.TidOrVid(tid=t(idx=1)))),
        op(s.AddNode(a=t(idx=0), b=t(idx=0), out=t(idx=0)), kind=FUTURE_OP),
    ]  # fmt: skip
    return s.MLXGraph(
        num_constant_tensors=1,
        num_input_tensors=1,
        num_output_tensors=1,
        num_temp_tensors=2,
        num_values=1,
        instruction_chains=[s.InstructionChain(instructions=init), s.InstructionChain(instructions=main)],
        init_chain=0,
        main_chain=1,
        input_map=[s.SlotRef(kind=tensor, idx=1), s.SlotRef(kind=value, idx=0)],
        output_map=[s.SlotRef(kind=tensor, idx=2)],
        named_slots=[s.NamedSlot(name="weight", slot=t(idx=0))],
        tensor_meta=[s.TensorMeta(shape=[s.IntOrVid(vid=v(idx=0)), s.IntOrVid(literal=4)], dtype=s.DType.Float16)],
        compile_chains=False,
    )  # fmt: skip


EXPECTED = """\
  compile specs: {'device': 'cpu'}
  slots: 1 constants, 1 inputs, 1 outputs, 0 mutable buffers, 2 temps; 1 values
  chains run interpreted
  inputs: t1, v0
  outputs: t2
  chain 0 (init): 1 instructions
       0  FullLike(x=t0) -> out=t3  [value=2]
  chain 1 (main): 6 instructions
       0  Add(a=t0, b=t1) -> out=t2
       1  Reshape(x=t2, shape=[v0, -1]) -> out=t3
       2  Full(shape=[], value=0.5) -> out=t4  [dtype=BFloat16]
       3  LeakyRelu(x=t4) -> out=t4  [negative_slope=0.2]
       4  Clip(x=t4, min=v0, max=t1) -> out=t2
       5  <unknown op code 250>
  constants: 1
    t0 = weight  Float16[v0, 4]"""


def wrap(flatbuffer: bytes) -> bytes:
    """A delegate payload around `flatbuffer`: the MLX0 header, no data segment."""
    body_end = HEADER_SIZE + len(flatbuffer)
    padding = -body_end % ALIGNMENT
    return HEADER.pack(0, MAGIC, body_end + padding, 0) + flatbuffer + b"\0" * padding


def payload(g: s.MLXGraph) -> bytes:
    return wrap(s.encode(g, serializer=WithFutureOp()))


def test_listing():
    lines = inspector.describe(payload(graph()), {"device": "cpu"})
    assert "\n".join(lines) == EXPECTED


def test_instructions_by_role():
    g = graph()
    decoded = [
        inspector._decode(i)
        for i in inspector.decode_graph(payload(g)).instruction_chains[1].instructions
    ]
    assert decoded[1] == inspector.Instruction(
        "Reshape", {"x": "t2", "shape": "[v0, -1]"}, {"out": "t3"}, {}
    )
    assert decoded[2].literals == {"dtype": "BFloat16"} and decoded[-1] is None  # fmt: skip


def test_every_op_field_is_an_attribute_of_its_dataclass():
    """The listing reads each field the metadata names from the decoded dataclass."""
    for info in metadata.OPS.values():
        names = [f.name for f in dataclasses.fields(getattr(s, info.table))]
        assert names == [f.name for f in info.fields], info.table


def test_ir_that_does_not_decode_is_a_payload_error(tmp_path, capsys):
    truncated = wrap(s.encode(graph(), serializer=WithFutureOp())[:-40])
    with pytest.raises(
        PayloadError, match="the IR FlatBuffer does not decode: .*truncated or corrupt"
    ):
        inspector.describe(truncated, {})
