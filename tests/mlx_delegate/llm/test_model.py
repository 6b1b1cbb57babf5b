"""Our decoder module against transformers, family by family: the same
checkpoint gives the same logits for a prefill and the decode steps after it
(eager, all families), and the same greedy tokens through the delegate
(the families whose graphs differ most from llama's)."""

from __future__ import annotations

import pytest
import torch

from mlx_delegate.llm import checkpoint, tiny
from mlx_delegate.llm.config import FAMILIES, UnsupportedCheckpoint

pytestmark = pytest.mark.slow  # among the suites that take most of make test


def _checkpoint(tmp_path, family):
    return tiny.write_checkpoint(tmp_path, family, seed=1)


@pytest.mark.parametrize("family", FAMILIES)
def test_prefill_and_decode_logits_match_transformers(tmp_path, family):
    hf = _checkpoint(tmp_path, family)
    ours = checkpoint.load(tmp_path, max_seq_len=32)
    ids = torch.randint(
        3, hf.config.vocab_size, (1, 14), generator=torch.Generator().manual_seed(0)
    )
    with torch.no_grad():
        expected = hf(ids).logits[0]
        actual = [ours(ids[:, :10], torch.tensor([0]))[0]]
        actual += [ours(ids[:, p : p + 1], torch.tensor([p]))[0] for p in range(10, 14)]
    for got, want in zip(actual, expected[9:]):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("family", ["gemma2", "gpt_neox", "gpt2"])
def test_greedy_tokens_through_the_delegate(tmp_path, family):
    """gemma2: capped attention written out, sliding windows, sandwich norms;
    gpt_neox: partial rotary, parallel residual; gpt2: learned positions."""
    from mlx_delegate.llm.export import export_program
    from mlx_delegate.llm.generate import Program, generate_ids

    hf = _checkpoint(tmp_path, family)
    result = export_program(tmp_path, tmp_path / "model.pte", max_seq_len=48)
    assert result.delegates == 1 and not result.ops_outside, result
    prompt = [5, 17, 33, 9, 101, 7, 250, 64, 12, 3]  # longer than gemma2's window (8)
    ours = list(generate_ids(Program(result.path, device="cpu"), prompt, 24, stop_at_eos=False))
    with torch.no_grad():
        theirs = hf.generate(
            torch.tensor([prompt]), do_sample=False, max_new_tokens=24, eos_token_id=None
        )
    assert ours == theirs[0, len(prompt) :].tolist()


def test_unknown_family_is_refused(tmp_path):
    from transformers import BertConfig

    BertConfig(vocab_size=64, hidden_size=32, num_hidden_layers=1).save_pretrained(tmp_path)
    with pytest.raises(UnsupportedCheckpoint, match="model_type 'bert' is not supported"):
        checkpoint.load(tmp_path, max_seq_len=16)


@pytest.mark.parametrize("bits", [8, 4])
def test_quantized_cache_rows_give_back_their_values_to_half_a_step(bits):
    from mlx_delegate.llm.model import dequantize_rows, quantize_rows

    x = torch.randn(1, 2, 5, 80, generator=torch.Generator().manual_seed(0))  # groups of 16
    x[0, 0, 0, :16] = 0.25  # a flat group: scale 1, every code 0
    codes, scales, biases = quantize_rows(x, bits)
    assert codes.dtype == torch.uint8 and codes.shape == (1, 2, 5, 80 * bits // 8)
    assert scales.shape == biases.shape == (1, 2, 5, 5)
    back = dequantize_rows(codes, scales, biases, bits, torch.float32)
    step = scales.repeat_interleave(16, dim=-1)
    assert ((back - x).abs() <= step / 2 + 1e-6).all()
    assert torch.equal(back[0, 0, 0, :16], x[0, 0, 0, :16])


@pytest.mark.parametrize("fmt", ["int8", "int4"])
def test_a_quantized_kv_cache_generates_the_eager_modules_tokens(tmp_path, fmt):
    """--kv-cache: the delegate quantizes each step's keys and values into its
    uint8 buffers (a cast to uint8 per layer for each of the two, more to pack
    4-bit codes) and attends
    to them dequantized; the tokens are those of the same module run eagerly."""
    from mlx_delegate.tools.inspector import main_instructions
    from mlx_delegate.llm.export import export_program
    from mlx_delegate.llm.generate import Program, generate_ids
    from mlx_delegate.llm.model import quantize_kv_cache

    tiny.write_checkpoint(tmp_path, "llama", seed=3, num_hidden_layers=1)
    pte = tmp_path / f"{fmt}.pte"
    result = export_program(tmp_path, pte, max_seq_len=64, kv_cache=fmt)
    assert result.delegates == 1 and not result.ops_outside, result.report()
    casts = [i for i in main_instructions(pte.read_bytes()) if i.op == "AsType"]
    assert sum(i.literals.get("dtype") == "UInt8" for i in casts) >= 2
    prompt = [5, 17, 42, 7, 99]
    ours = list(generate_ids(Program(pte, device="cpu"), prompt, 16, stop_at_eos=False))
    eager = quantize_kv_cache(checkpoint.load(tmp_path, max_seq_len=64), fmt)
    assert ours == _eager_greedy(eager, prompt, 16)


def test_a_cache_of_a_multiple_of_256_positions_has_a_row_more_and_fills_to_its_end(tmp_path):
    """cache_rows: MLX's CUDA attention would take cuDNN for a decode step over a
    cache of 256 rows, its vector kernel over 257; the row past max_seq_len is
    never written, and the last position is still usable."""
    from mlx_delegate.llm.export import export_program
    from mlx_delegate.llm.generate import Program, generate_ids
    from mlx_delegate.llm.model import cache_rows

    assert [cache_rows(n) for n in (255, 256, 1000, 1024, 8192)] == [255, 257, 1000, 1025, 8193]
    tiny.write_checkpoint(tmp_path, "llama", seed=4, num_hidden_layers=1)
    eager = checkpoint.load(tmp_path, max_seq_len=256)
    assert eager.layers[0].attn.k_cache.shape[2] == 257
    result = export_program(tmp_path, tmp_path / "model.pte", max_seq_len=256)
    assert result.delegates == 1 and not result.ops_outside, result.report()
    prompt = [5, 17, 42, 7, 99, 3, 250, 64]
    new = 256 - len(prompt)  # the last token's step writes position 255
    ours = list(generate_ids(Program(result.path, device="cpu"), prompt, new, stop_at_eos=False))
    assert ours == _eager_greedy(eager, prompt, new)


def _eager_greedy(model, prompt: list[int], new: int) -> list[int]:
    """`new` greedy tokens of our module run eagerly, the prompt at once, then
    one token a step."""
    tokens, pos, out = prompt, 0, []
    with torch.no_grad():
        for _ in range(new):
            token = int(model(torch.tensor([tokens]), torch.tensor([pos])).argmax())
            out.append(token)
            pos, tokens = pos + len(tokens), [token]
    return out
