"""Run here (the development machine, in the project root): exports the program the GPU check
runs, with its input and PyTorch's output, into OUT (default .gpu/case):

    .venv/bin/python packages/mlx-delegate-cuda/export_case.py [OUT]
"""

import sys
from pathlib import Path

import torch
from executorch.exir import to_edge_transform_and_lower

from mlx_delegate import MLXPartitioner
from mlx_delegate.formats.tensor_bin import write_tensors


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up = torch.nn.Linear(64, 256)
        self.down = torch.nn.Linear(256, 32)

    def forward(self, x):
        return torch.softmax(self.down(torch.nn.functional.silu(self.up(x))), dim=-1)


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".gpu/case")
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    model, x = Model().eval(), torch.randn(16, 64)
    program = to_edge_transform_and_lower(
        torch.export.export(model, (x,)), partitioner=[MLXPartitioner()]
    ).to_executorch()
    (out / "mlp.pte").write_bytes(program.buffer)
    write_tensors(out / "in.bin", [x])
    with torch.no_grad():
        write_tensors(out / "expected.bin", [model(x)])
    print(f"wrote {out}/mlp.pte, in.bin, expected.bin")


if __name__ == "__main__":
    main()
