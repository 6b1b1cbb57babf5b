"""Checkpoints of the public configurations' shapes (tiny.write_shaped_checkpoint)."""

from __future__ import annotations

from mlx_delegate.llm import checkpoint, tiny

# Qwen3-30B-A3B's form (experts, a router) at widths that write in a moment.
SMALL = dict(
    num_hidden_layers=2, vocab_size=512, hidden_size=64, intermediate_size=96,
    num_attention_heads=4, num_key_value_heads=2, head_dim=16, num_experts=8,
    num_experts_per_tok=2, moe_intermediate_size=32,
)  # fmt: skip


def test_a_checkpoint_of_holes_holds_a_written_ones_tensors_and_takes_no_disk(tmp_path):
    """Every shard of `holes=True` holds the written checkpoint's tensors (names,
    dtypes, shapes) in as many bytes of data; its data is a hole, so the files
    take next to nothing on disk and read as zeros."""
    written, holes = tmp_path / "written", tmp_path / "holes"
    count = tiny.write_shaped_checkpoint(written, "qwen3-30b-a3b", shard_bytes=1 << 16, **SMALL)
    same = tiny.write_shaped_checkpoint(
        holes, "qwen3-30b-a3b", shard_bytes=1 << 16, holes=True, **SMALL
    )
    assert same == count
    shards = sorted(p.name for p in written.glob("model-*.safetensors"))
    assert len(shards) > 1
    assert sorted(p.name for p in holes.glob("model-*.safetensors")) == shards
    assert (holes / checkpoint.INDEX).read_text() == (written / checkpoint.INDEX).read_text()
    data = 0
    for name in shards:
        header = checkpoint._safetensors_header(holes / name)
        assert _tensors(header) == _tensors(checkpoint._safetensors_header(written / name))
        assert (holes / name).stat().st_blocks * 512 <= 16 << 10  # the header's page or so
        data += sum(end - start for _, _, start, end in header.values())
    assert data == 2 * count
    read = checkpoint.Checkpoint(holes)["model.layers.1.mlp.experts.7.down_proj.weight"]
    assert read.shape == (64, 32) and not read.any()


def _tensors(header: dict) -> dict:
    return {name: (dtype, shape) for name, (dtype, shape, _, _) in header.items()}
