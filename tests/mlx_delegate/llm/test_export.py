"""The streamed export: bounded memory, sharded checkpoints, and bad input
refused with one message and nothing half-written."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest
import torch

from mlx_delegate.llm import checkpoint, tiny

# One worker runs this module and test_generate.py, which share the llama fixture
# (conftest.py): the other worker does not wait for its export.
pytestmark = [pytest.mark.xdist_group("llama"), pytest.mark.slow]

IMPORTS = (
    "import transformers, executorch.exir, mlx_delegate.compiler.partitioner, "
    "mlx_delegate.llm.export as export; print(export.peak_memory())"
)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mlx_delegate.llm", *args], capture_output=True, text=True
    )


def test_the_export_holds_about_one_tensor_not_the_model(tmp_path):
    """A 1 GB bf16 checkpoint of Llama-3.2-1B's widths (8 layers, a small
    vocabulary, in 256 MB shards): the export's peak is at most 1.5 times the
    weights it writes, and it grows less than half the weights above a process
    that only imported the exporter, where one more copy of the weights would
    grow it by more than all of them."""
    directory = tmp_path / "checkpoint"
    tiny.write_shaped_checkpoint(
        directory, "llama-1b", shard_bytes=256 << 20, num_hidden_layers=8, vocab_size=8192
    )
    assert len(list(directory.glob("model-*.safetensors"))) > 1
    exported = _cli("export", "--model", str(directory), "--dtype", "bf16",
                    "--max-seq-len", "256", "-o", str(tmp_path / "out" / "m.pte"))  # fmt: skip
    assert exported.returncode == 0, exported.stderr
    weights = (tmp_path / "out" / "m.ptd").stat().st_size
    assert weights > 1.0e9
    peak, baseline = _peak(exported), _imports_peak()
    assert peak <= 1.5 * weights
    assert peak - baseline < 0.5 * weights, (peak, baseline, weights)


def test_a_quantized_export_never_holds_a_weights_values_whole(tmp_path):
    """One layer of Llama-3.2-1B's widths with its whole vocabulary (a tied
    embedding of 263M values), exported to int4 (0.2 GB written): the export
    grows less than twice the weights it writes above a process that only
    imported the exporter (0.30 GB on the AMD EPYC). Holding the embedding's
    values whole while they were packed, a byte each, grew it by 0.55 GB."""
    directory = tmp_path / "checkpoint"
    tiny.write_shaped_checkpoint(directory, "llama-1b", shard_bytes=256 << 20, num_hidden_layers=1)
    exported = _cli("export", "--model", str(directory), "--dtype", "bf16", "--quantize", "int4",
                    "--max-seq-len", "256", "-o", str(tmp_path / "out" / "m.pte"))  # fmt: skip
    assert exported.returncode == 0, exported.stderr
    weights = (tmp_path / "out" / "m.ptd").stat().st_size
    assert weights > 0.15e9
    peak, baseline = _peak(exported), _imports_peak()
    assert peak - baseline < 2 * weights, (peak, baseline, weights)


def _peak(exported: subprocess.CompletedProcess) -> float:
    """The peak memory the export printed, in bytes."""
    return float(re.search(r"peak memory: ([\d.]+) GB", exported.stdout)[1]) * 1e9


def _imports_peak() -> int:
    """The peak memory of a process that only imports the exporter."""
    run = subprocess.run(
        [sys.executable, "-c", IMPORTS], capture_output=True, text=True, check=True
    )
    return int(run.stdout)


def test_a_sharded_checkpoint_loads_as_the_single_file_one(tmp_path):
    model = tiny.write_checkpoint(tmp_path / "one", "llama", seed=3)
    model.save_pretrained(str(tmp_path / "sharded"), max_shard_size="60KB")
    assert (tmp_path / "sharded" / checkpoint.INDEX).is_file()
    one = checkpoint.load(tmp_path / "one", max_seq_len=16).state_dict()
    sharded = checkpoint.load(tmp_path / "sharded", max_seq_len=16).state_dict()
    assert one.keys() == sharded.keys()
    for name in one:
        torch.testing.assert_close(one[name], sharded[name], rtol=0, atol=0)


def _copy(llama, tmp_path, edit_config=None):
    """The tiny llama's checkpoint (conftest.py), its config edited."""
    directory = tmp_path / "checkpoint"
    shutil.copytree(llama[0], directory, ignore=shutil.ignore_patterns("model.pt*"))
    if edit_config:
        config = json.loads((directory / "config.json").read_text())
        edit_config(config)
        (directory / "config.json").write_text(json.dumps(config))
    return directory


def _refused(llm_main, directory, tmp_path, message: str) -> None:
    out = tmp_path / "out"
    code, _, err = llm_main("export", "--model", directory, "-o", out / "m.pte")
    assert code == 1
    assert re.search(message, err), err
    assert not out.exists() or list(out.iterdir()) == []


def test_a_missing_shard_is_named(llm_main, tmp_path):
    directory = tmp_path / "checkpoint"
    tiny.write_checkpoint(directory, "llama", seed=0).save_pretrained(
        str(directory), max_shard_size="60KB"
    )
    (directory / "model.safetensors").unlink(missing_ok=True)
    shards = sorted(directory.glob("model-*.safetensors"))
    shards[1].unlink()
    _refused(llm_main, directory, tmp_path, rf"shards, 1 missing: {shards[1].name}")


def test_a_tensor_of_the_wrong_shape_is_named(llama, llm_main, tmp_path):
    directory = _copy(llama, tmp_path, lambda c: c.update(intermediate_size=96))
    message = (
        r"tensor for layers.0.mlp.\w+.weight has shape \(\d+, \d+\), the config says \(\d+, \d+\)"
    )
    _refused(llm_main, directory, tmp_path, message)


def test_a_truncated_safetensors_file_is_named(llama, llm_main, tmp_path):
    directory = _copy(llama, tmp_path)
    data = (directory / "model.safetensors").read_bytes()
    (directory / "model.safetensors").write_bytes(data[: len(data) // 2])
    _refused(llm_main, directory, tmp_path, r"model.safetensors: .* does not fit its bytes")


def test_an_unknown_rope_type_is_named(llama, llm_main, tmp_path):
    def edit(config):
        config["rope_parameters"] = {"rope_type": "spiral", "rope_theta": 10000.0}

    _refused(llm_main, _copy(llama, tmp_path, edit), tmp_path, r"rope type 'spiral' is not known")


def test_an_unknown_architecture_is_named(llama, llm_main, tmp_path):
    directory = _copy(llama, tmp_path, lambda c: c.update(model_type="no_such_model"))
    _refused(llm_main, directory, tmp_path, r"config.json: .*no_such_model")


def test_a_failure_while_writing_the_weights_leaves_nothing(llama, tmp_path, monkeypatch):
    from mlx_delegate.llm.export import export_program

    reads = []

    def failing_read(*args):
        reads.append(args)
        if len(reads) == 5:
            raise OSError("the disk went away")
        return real_read(*args)

    real_read = checkpoint._read_tensor
    monkeypatch.setattr(checkpoint, "_read_tensor", failing_read)
    out = tmp_path / "out"
    with pytest.raises(OSError, match="the disk went away"):
        export_program(llama[0], out / "m.pte", max_seq_len=32)
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("which", ["pte", "ptd"])
def test_a_truncated_program_or_data_file_is_refused_with_a_message(
    llama, llm_main, tmp_path, which
):
    for suffix in ("pte", "ptd"):
        data = llama[2].with_suffix(f".{suffix}").read_bytes()
        cut = data[: len(data) // 2] if suffix == which else data
        (tmp_path / f"m.{suffix}").write_bytes(cut)
    code, _, err = llm_main("generate", tmp_path / "m.pte", "--tokenizer", llama[0],
                            "--prompt", "the quick brown", "--max-new-tokens", "4")  # fmt: skip
    assert code == 1
    assert f"cannot load {tmp_path / 'm.pte'}" in err, err


def test_a_prompt_longer_than_the_cache_is_refused_with_a_message(llama, llm_main):
    code, _, err = llm_main("generate", llama[2], "--tokenizer", llama[0],
                            "--prompt", "the quick brown fox " * 60)  # fmt: skip
    assert code == 1
    assert re.search(r"the prompt \(\d+ tokens\) fills the cache \(128\)", err), err


@pytest.mark.parametrize("fmt, parts", [("int4", 3), ("nvfp4", 3)])
def test_quantizing_a_weight_by_row_slices_gives_the_whole_weights_quantization(
    monkeypatch, fmt, parts
):
    """Groups run along rows, so slices of rows quantize as the whole does;
    nvfp4's per-tensor scale is the whole weight's, read before the slices."""
    from torch import nn

    from mlx_delegate.llm import export

    weight = torch.randn(48, 64, generator=torch.Generator().manual_seed(0))
    weight[40, 7] = 9.0  # the largest magnitude in the last slice
    source = export.WeightSource(nn.Module(), {}, None, export._quantizer(fmt, 32))
    owner = nn.Linear(64, 48, bias=False)
    rows = lambda start, stop: weight[start:stop]  # noqa: E731
    whole = source._quantized_whole(owner, "layer", "weight", rows, weight.shape)
    monkeypatch.setattr(export, "QUANTIZE_VALUES", 16 * 64)  # 16 rows at a time
    sliced = source._quantized_whole(owner, "layer", "weight", rows, weight.shape)
    assert len(whole) == len(sliced) == parts  # values, scales, zero points / tensor scale
    for a, b in zip(whole, sliced):
        assert torch.equal(a, b)


def test_a_quantized_weights_values_come_a_slice_at_a_time_then_its_scales(monkeypatch):
    """`resolve_rows` gives a quantized weight's values a slice at a time, as
    the whole weight's rows (the packer then never holds them whole); its scales
    and zero points, asked for next, come from that same pass, not quantized
    again."""
    from torch import nn

    from mlx_delegate.llm import export

    weight = torch.randn(48, 64, generator=torch.Generator().manual_seed(0))
    root = nn.Module()
    root.layer = nn.Linear(64, 48, bias=False, device="meta")
    quantizer = export._quantizer("int4", 32)
    quantizer(root)
    held = root.layer._parameters["weight"]
    names, _ = type(held).__tensor_flatten__(held)
    likes = [getattr(held, n) for n in names]
    targets = [f"layer.parametrizations.weight.original{i}" for i in range(len(names))]
    loads = {"layer.weight": lambda: weight}
    whole = [export.WeightSource(root, loads, None, quantizer).resolve(t, like)
             for t, like in zip(targets, likes)]  # fmt: skip

    monkeypatch.setattr(export, "QUANTIZE_VALUES", 16 * 64)  # 16 rows at a time
    source, quantized = export.WeightSource(root, loads, None, quantizer), []
    making = source._quantized_like
    monkeypatch.setattr(source, "_quantized_like", lambda *a: quantized.append(a) or making(*a))
    values = list(source.resolve_rows(targets[0], likes[0]))
    rest = [source.resolve(t, like) for t, like in zip(targets[1:], likes[1:])]

    assert [len(rows) for rows in values] == [16, 16, 16]
    assert torch.equal(torch.cat(values), whole[0])
    assert len(rest) == 2 and all(torch.equal(a, b) for a, b in zip(rest, whole[1:]))
    assert len(quantized) == 3  # one pass of three slices
    # asked for again, the values are made whole again
    assert torch.equal(source.resolve(targets[0], likes[0]), whole[0])
