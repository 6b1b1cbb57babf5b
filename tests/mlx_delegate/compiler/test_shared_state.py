"""State shared by the methods of one program (mlx_delegate/compiler/shared_state.py):
what `write` puts in the buffer, `read` sees, through the plugin; a buffer not
declared shared stays each method's own; two exports never share."""

from __future__ import annotations

import torch
from torch import nn

from mlx_delegate.compiler.partitioner import MLXPartitioner
from mlx_delegate.compiler.shared_state import SharedState


class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("state", torch.zeros(2, 3), persistent=False)


class Write(nn.Module):
    def __init__(self, holder: Holder):
        super().__init__()
        self.holder = holder

    def forward(self, x):
        self.holder.state.copy_(x * 2)
        return x[:1, 0]


class Read(nn.Module):
    def __init__(self, holder: Holder):
        super().__init__()
        self.holder = holder

    def forward(self, y):
        return self.holder.state + y


def _program(path, shared: bool):
    from executorch.exir import to_edge_transform_and_lower
    from executorch.runtime import Runtime

    import mlx_delegate.runtime  # noqa: F401  (registers the backend)

    holder = Holder()
    programs = {
        "write": torch.export.export(Write(holder), (torch.ones(2, 3),)),
        "read": torch.export.export(Read(holder), (torch.ones(2, 3),)),
    }
    state = SharedState.of(["holder.state"]) if shared else None
    edge = to_edge_transform_and_lower(
        programs, partitioner=[MLXPartitioner(device="cpu", shared_state=state)]
    )
    path.write_bytes(edge.to_executorch().buffer)
    return Runtime.get().load_program(path)


def test_a_method_reads_what_another_wrote(tmp_path):
    program = _program(tmp_path / "shared.pte", shared=True)
    write, read = program.load_method("write"), program.load_method("read")
    x = torch.arange(6, dtype=torch.float32).view(2, 3)
    write.execute([x])
    torch.testing.assert_close(read.execute([torch.ones(2, 3)])[0], x * 2 + 1)
    write.execute([-x])  # written again: read sees the new state
    torch.testing.assert_close(read.execute([torch.zeros(2, 3)])[0], -x * 2)


def test_exports_do_not_share(tmp_path):
    first = _program(tmp_path / "a.pte", shared=True)
    second = _program(tmp_path / "b.pte", shared=True)
    first.load_method("write").execute([torch.ones(2, 3)])
    second_read = second.load_method("read")
    torch.testing.assert_close(second_read.execute([torch.zeros(2, 3)])[0], torch.zeros(2, 3))


def test_unshared_buffers_stay_each_methods_own(tmp_path):
    """Without the declaration, `read` holds the buffer as a constant of its own."""
    program = _program(tmp_path / "own.pte", shared=False)
    program.load_method("write").execute([torch.ones(2, 3)])
    out = program.load_method("read").execute([torch.zeros(2, 3)])[0]
    torch.testing.assert_close(out, torch.zeros(2, 3))
