"""Writes the payload and reference data that gpu_smoke.py runs (here, with
the Python IR serializer; the GPU machine has no executorch/flatbuffers for
the Python side).  python runtime_cpp/tests/make_gpu_payload.py OUT_DIR"""

import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from mlx_delegate.formats.ir import schema as ir

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(1)
W = rng.standard_normal((256, 512)).astype(np.float32)
b = rng.standard_normal(256).astype(np.float32)
x = rng.standard_normal((64, 512)).astype(np.float32)
T = lambda i: ir.Tid(idx=i)  # noqa: E731
meta = lambda a: ir.TensorMeta(  # noqa: E731
    shape=[ir.IntOrVid(literal=d) for d in a.shape], dtype=ir.DType.Float32
)
g = ir.MLXGraph(
    num_constant_tensors=2,
    num_input_tensors=1,
    num_output_tensors=1,
    num_temp_tensors=1,
    instruction_chains=[
        ir.InstructionChain(
            instructions=[
                ir.Instruction(op=ir.LinearNode(x=T(2), weight=T(0), bias=T(1), out=T(4))),
                ir.Instruction(op=ir.GeluNode(x=T(4), out=T(3))),
            ]
        )
    ],
    input_map=[ir.SlotRef(kind=ir.SlotKind.Tensor, idx=2)],
    output_map=[ir.SlotRef(kind=ir.SlotKind.Tensor, idx=3)],
    named_slots=[ir.NamedSlot(name="w", slot=T(0)), ir.NamedSlot(name="b", slot=T(1))],
    tensor_meta=[meta(W), meta(b), meta(x), ir.TensorMeta(), ir.TensorMeta()],
)
(out / "linear_gelu.mlxg").write_bytes(ir.encode(g))
np.savez(out / "constants.npz", w=W, b=b)
np.save(out / "x.npy", x)
ref = torch.nn.functional.gelu(torch.from_numpy(x) @ torch.from_numpy(W).T + torch.from_numpy(b))
np.save(out / "ref.npy", ref.numpy())
print("wrote", out)
