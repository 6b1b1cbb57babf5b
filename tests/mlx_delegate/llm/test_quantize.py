"""Every `llm export --quantize` format, and the embedding's own
(`--quantize-embedding`), on a random llama checkpoint: the exported program's
greedy tokens against the same torchao-quantized module run eagerly, in fp32
activations. They are identical for every format: the integers, E2M1/E4M3
values and their scales are the same bytes in both, and what differs (the
order of float32 sums, nvfp4's per-tensor scale multiplied into the product
rather than into each block's) moves logits by about 1e-6, far below the
margins of these tokens."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
import torch

from mlx_delegate.tools.inspector import main_instructions
from mlx_delegate.llm import checkpoint, tiny
from mlx_delegate.llm.export import data_path_of
from mlx_delegate.llm.generate import Program, generate_ids
from mlx_delegate.llm.quantize import FORMATS, quantize_weights

# One worker makes each format's export (the module's fixtures), for every test here.
pytestmark = [pytest.mark.xdist_group("quantize"), pytest.mark.slow]

PROMPT = [5, 17, 42, 7, 99]
TOKENS = 16
MAX_SEQ_LEN = 64


@pytest.fixture(scope="module")
def llama(tmp_path_factory) -> Path:
    directory = tmp_path_factory.mktemp("llama")
    # one layer: every format's products and gathers, at half an export's time
    tiny.write_checkpoint(directory, "llama", seed=3, num_hidden_layers=1)
    return directory


@pytest.fixture(scope="module")
def exported(llama, tmp_path_factory):
    """(program, its greedy tokens) of an export in a format, the embedding's
    format; each made once."""
    made: dict = {}
    directory = tmp_path_factory.mktemp("exports")

    def get(fmt: str, embedding="same") -> tuple[Path, list]:
        if (fmt, embedding) not in made:
            made[fmt, embedding] = _export(
                llama, directory / f"{fmt}-{embedding}.pte", fmt, embedding
            )
        return made[fmt, embedding]

    return get


def _eager_tokens(model: torch.nn.Module) -> list[int]:
    tokens, pos, out = PROMPT, 0, []
    with torch.no_grad():
        for _ in range(TOKENS):
            token = int(model(torch.tensor([tokens]), torch.tensor([pos])).argmax())
            out.append(token)
            pos, tokens = pos + len(tokens), [token]
    return out


def _export(llama: Path, pte: Path, fmt: str, embedding) -> tuple[Path, list]:
    """`python -m mlx_delegate.llm export --quantize FMT`, through its main in this
    process (the group size its default, 32)."""
    from mlx_delegate.llm.__main__ import main

    args = ["export", "--model", str(llama), "--quantize", fmt, "-o", str(pte),
            "--max-seq-len", str(MAX_SEQ_LEN)]  # fmt: skip
    if embedding != "same":
        args += ["--quantize-embedding", embedding or "none"]
    report = io.StringIO()
    with contextlib.redirect_stdout(report):
        assert main(args) == 0
    assert "1 MLX delegate(s)\n" in report.getvalue(), report.getvalue()
    program = Program(pte, device="cpu")
    return pte, list(generate_ids(program, PROMPT, TOKENS, stop_at_eos=False))


def _ops(pte: Path) -> list[str]:
    return [i.op for i in main_instructions(pte.read_bytes())]


@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_generates_the_quantized_modules_tokens(llama, exported, fmt):
    pte, ours = exported(fmt)
    ops = _ops(pte)
    assert "QuantizedLinear" in ops and "Linear" not in ops and "Dequantize" in ops, ops
    eager = quantize_weights(checkpoint.load(llama, max_seq_len=MAX_SEQ_LEN), fmt, 32)
    assert ours == _eager_tokens(eager)


def test_fewer_bits_write_fewer_bytes(llama, exported):
    """int4 (4-bit values, a scale and a bias per 32) writes under 0.3 of the
    float32 checkpoint's bytes."""
    sizes = {fmt: data_path_of(exported(fmt)[0]).stat().st_size for fmt in ("int2", "int4", "int8")}
    assert sizes["int2"] < sizes["int4"] < sizes["int8"], sizes
    assert sizes["int4"] < 0.3 * (llama / "model.safetensors").stat().st_size


@pytest.mark.parametrize("embedding", ["int8", None])
def test_the_embedding_and_lm_head_take_their_own_format(llama, exported, embedding):
    """int4 layers, the embedding and LM head in int8 or unquantized."""
    pte, ours = exported("int4", embedding)
    ops = _ops(pte)
    if embedding is None:  # the LM head a plain product, the embedding a plain gather
        assert "Linear" in ops and "Dequantize" not in ops, ops
    eager = quantize_weights(
        checkpoint.load(llama, max_seq_len=MAX_SEQ_LEN), "int4", 32, embedding=embedding
    )
    assert ours == _eager_tokens(eager)
    int4_only = exported("int4")[0]
    assert data_path_of(pte).stat().st_size > data_path_of(int4_only).stat().st_size


def test_the_cli_names_the_formats_and_refuses_an_embedding_format_alone(llama, tmp_path, capsys):
    """`python -m mlx_delegate.llm export`'s main, in this process (the argument
    checks come before any export)."""
    from mlx_delegate.llm.__main__ import main

    def cli(*args):
        return main(["export", "--model", str(llama), *args])

    with pytest.raises(SystemExit) as unknown:
        cli("--quantize", "int9", "-o", str(tmp_path / "x.pte"))
    err = capsys.readouterr().err
    assert unknown.value.code == 2 and "int2" in err and "nvfp4" in err
    assert cli("--quantize-embedding", "int8", "-o", str(tmp_path / "x.pte")) == 1
    assert "--quantize-embedding goes with --quantize" in capsys.readouterr().err
    assert not (tmp_path / "x.pte").exists()
