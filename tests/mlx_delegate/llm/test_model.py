"""Our decoder module against transformers, family by family: the same
checkpoint gives the same logits for a prefill and the decode steps after it
(eager, all families), and the same greedy tokens through the delegate
(the families whose graphs differ most from llama's)."""

from __future__ import annotations

import pytest
import torch

from mlx_delegate.llm import checkpoint, tiny
from mlx_delegate.llm.config import FAMILIES, UnsupportedCheckpoint

pytestmark = pytest.mark.xdist_group("llm")


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
