"""The streaming `.ptd` writer against ExecuTorch's own reader."""

from __future__ import annotations

import numpy as np
import pytest

from mlx_delegate.formats import ptd


def _read(path):
    from executorch.exir._serialize._cord import Cord
    from executorch.extension.flat_tensor.serialize.serialize import FlatTensorSerializer

    payload = FlatTensorSerializer().deserialize(Cord(path.read_bytes()))
    return {key: bytes(payload.buffers[e.buffer_index]) for key, e in payload.named_data.items()}


def test_executorch_reads_what_is_written_and_equal_contents_share_a_segment(tmp_path):
    path = tmp_path / "w.ptd"
    weights = np.arange(1000, dtype=np.float32)
    entries = [
        ("a", 5, lambda: b"hello"),
        ("weights", weights.nbytes, lambda: weights),
        ("same-as-a", 5, lambda: b"hello"),
        ("empty", 0, lambda: b""),
    ]
    written = []
    size = ptd.write(path, entries, on_written=written.append)
    assert size == path.stat().st_size and written == [5, 4000, 5, 0]
    assert _read(path) == {
        "a": b"hello",
        "weights": weights.tobytes(),
        "same-as-a": b"hello",
        "empty": b"",
    }
    # one segment for "a" and "same-as-a": the file holds the 4000 bytes and one "hello"
    assert path.read_bytes().count(b"hello") == 1


def test_segments_are_aligned(tmp_path):
    path = tmp_path / "w.ptd"
    ptd.write(path, [(f"k{i}", 3, (lambda i=i: bytes([65 + i]) * 3)) for i in range(4)])
    data = path.read_bytes()
    for i in range(4):
        assert data.index(bytes([65 + i]) * 3) % ptd.SEGMENT_ALIGNMENT == 0


def test_a_failure_leaves_no_file(tmp_path):
    path = tmp_path / "w.ptd"

    def broken():
        raise RuntimeError("the checkpoint broke")

    with pytest.raises(RuntimeError, match="the checkpoint broke"):
        ptd.write(path, [("a", 5, lambda: b"hello"), ("b", 5, broken)])
    assert list(tmp_path.iterdir()) == []


def test_a_size_unlike_the_declared_one_is_refused(tmp_path):
    with pytest.raises(ptd.DataFileError, match="a: made 5 bytes, declared 6"):
        ptd.write(tmp_path / "w.ptd", [("a", 6, lambda: b"hello")])
    assert list(tmp_path.iterdir()) == []
