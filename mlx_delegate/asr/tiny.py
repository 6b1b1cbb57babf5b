"""A random Whisper checkpoint in transformers' layout, built locally (no hub):
config.json + model.safetensors, generation_config.json, preprocessor_config.json
(transformers' WhisperFeatureExtractor) and a byte-level tokenizer.json with
Whisper's special tokens.

    python -m mlx_delegate.asr.tiny DIR [--shape tiny|small|large-v3-turbo]
        [--encoder-layers N] [--decoder-layers N] [--vocab-size N] [--seed S]
        [--english-only]

The vocabulary is Whisper's in layout: plain tokens (the 256 bytes, then
fillers), <|endoftext|>, <|startoftranscript|>, the languages, <|translate|>,
<|transcribe|>, <|startoflm|>, <|startofprev|>, <|nocaptions|>,
<|notimestamps|>, then the timestamps when the vocabulary has room for them.
An English-only checkpoint (as whisper-tiny.en's) has the same special tokens,
one plain token fewer (51864 in all), and a generation config without
languages or tasks (`is_multilingual` false)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Callable, Optional

import torch

SHAPES = {
    # d_model, heads, encoder layers, decoder layers, ffn, mel bins, vocabulary
    "tiny": (384, 6, 4, 4, 1536, 80, 51865),
    "small": (768, 12, 12, 12, 3072, 80, 51865),
    "large-v3-turbo": (1280, 20, 32, 4, 5120, 128, 51866),
}
LANGUAGES = (
    "en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no "
    "th ur hr bg lt la mi ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw "
    "gl mr pa si km sn yo so af oc ka be tg sd gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl "
    "mg as tt haw ln ha ba jw su yue"
).split()
TIMESTAMPS = 1501  # <|0.00|> .. <|30.00|>


def _byte_alphabet() -> list[str]:
    """GPT-2's printable stand-ins for the 256 bytes (ByteLevel's alphabet)."""
    from tokenizers import pre_tokenizers

    return sorted(pre_tokenizers.ByteLevel.alphabet())


def special_tokens(languages: int, timestamps: int) -> list[str]:
    return [
        "<|endoftext|>",
        "<|startoftranscript|>",
        *(f"<|{code}|>" for code in LANGUAGES[:languages]),
        "<|translate|>",
        "<|transcribe|>",
        "<|startoflm|>",
        "<|startofprev|>",
        "<|nocaptions|>",
        "<|notimestamps|>",
        *(f"<|{i * 0.02:.2f}|>" for i in range(timestamps)),
    ]


def build_tokenizer(vocab_size: int, languages: int):
    """A byte-level BPE tokenizer of `vocab_size` tokens in Whisper's layout."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    others = len(special_tokens(languages, 0))
    timestamps = TIMESTAMPS if vocab_size - others - TIMESTAMPS >= 256 else 0
    specials = special_tokens(languages, timestamps)
    plain = vocab_size - len(specials)
    if plain < 256:
        raise ValueError(f"vocabulary of {vocab_size}: too small for the bytes and special tokens")
    alphabet = _byte_alphabet()
    vocab = {c: i for i, c in enumerate(alphabet)}
    for i in range(plain - 256):  # fillers: pairs of bytes, never produced by encoding
        vocab[alphabet[i // 256 % 256] + alphabet[i % 256] + "\u0120" * (i // 65536)] = len(vocab)
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.add_special_tokens(specials)
    return tokenizer, specials


def build(
    directory: Path,
    shape: str = "tiny",
    encoder_layers: Optional[int] = None,
    decoder_layers: Optional[int] = None,
    vocab_size: Optional[int] = None,
    seed: int = 0,
    languages: Optional[int] = None,
    fill: Optional[Callable[[int, torch.Size], torch.Tensor]] = None,
    english_only: bool = False,
) -> Path:
    """`languages`: how many language tokens (default: Whisper's, 99, or 100
    for large-v3's vocabulary of 51866); `fill(i, shape)`: the values of the
    i-th weight matrix (default: random, `_spread`); `english_only`: a `.en`
    checkpoint's vocabulary (51864) and generation config."""
    from transformers import WhisperConfig, WhisperFeatureExtractor, WhisperForConditionalGeneration

    d_model, heads, enc, dec, ffn, mels, vocab = SHAPES[shape]
    vocab = vocab_size or (vocab - 1 if english_only else vocab)
    languages = languages or (len(LANGUAGES) if vocab == 51866 else len(LANGUAGES) - 1)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tokenizer, specials = build_tokenizer(vocab, languages)
    tokenizer.save(str(directory / "tokenizer.json"))
    ids = {t: tokenizer.token_to_id(t) for t in specials}
    eot, sot = ids["<|endoftext|>"], ids["<|startoftranscript|>"]
    space = tokenizer.token_to_id("\u0120")
    generation = {
        "decoder_start_token_id": sot,
        "bos_token_id": eot,
        "eos_token_id": eot,
        "pad_token_id": eot,
        "no_timestamps_token_id": ids["<|notimestamps|>"],
        "lang_to_id": {t: i for t, i in ids.items() if t[2:-2] in LANGUAGES},
        "task_to_id": {"transcribe": ids["<|transcribe|>"], "translate": ids["<|translate|>"]},
        "is_multilingual": not english_only,
        "max_length": 448,
        # a few plain tokens as Whisper's list has (punctuation and symbols), and
        # <|startofprev|>... as it has
        "suppress_tokens": [1, 2, 7, 8, 9, 10, 14, 25, 26, 27, 28, 29, 31, 58, 59, 60]
        + [ids["<|startoftranscript|>"], ids["<|translate|>"], ids["<|transcribe|>"],
           ids["<|startoflm|>"], ids["<|startofprev|>"], ids["<|nocaptions|>"]],  # fmt: skip
        "begin_suppress_tokens": [space, eot],
    }
    if english_only:  # as whisper-*.en's: no languages or tasks to choose
        del generation["lang_to_id"], generation["task_to_id"]
    config = WhisperConfig(
        vocab_size=vocab,
        num_mel_bins=mels,
        d_model=d_model,
        encoder_layers=encoder_layers or enc,
        decoder_layers=decoder_layers or dec,
        encoder_attention_heads=heads,
        decoder_attention_heads=heads,
        encoder_ffn_dim=ffn,
        decoder_ffn_dim=ffn,
        max_source_positions=1500,
        max_target_positions=448,
        decoder_start_token_id=sot,
        bos_token_id=eot,
        eos_token_id=eot,
        pad_token_id=eot,
        suppress_tokens=generation["suppress_tokens"],
        begin_suppress_tokens=generation["begin_suppress_tokens"],
    )
    torch.manual_seed(seed)
    model = WhisperForConditionalGeneration(config)
    _spread(model, fill)
    model.save_pretrained(directory)
    (directory / "generation_config.json").write_text(json.dumps(generation, indent=2))
    WhisperFeatureExtractor(feature_size=mels).save_pretrained(directory)
    return directory


def _spread(model, fill=None) -> None:
    """Weights of a spread that gives varied tokens: at transformers' default
    init (std 0.02) a random Whisper's logits are flat and it repeats one token.
    `fill(i, shape)` gives the i-th matrix's values instead of random ones."""
    with torch.no_grad():
        matrices = [(n, p) for n, p in model.named_parameters() if p.dim() >= 2]
        for i, (name, p) in enumerate(matrices):
            if "embed_positions" in name:
                continue
            if fill is None:
                p.normal_(0.0, 1.0 / p.shape[-1] ** 0.5)
            else:
                p.copy_(fill(i, p.shape) / p.shape[-1] ** 0.5)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mlx_delegate.asr.tiny")
    parser.add_argument("directory", type=Path)
    parser.add_argument("--shape", choices=SHAPES, default="tiny")
    parser.add_argument("--encoder-layers", type=int)
    parser.add_argument("--decoder-layers", type=int)
    parser.add_argument("--vocab-size", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--english-only", action="store_true", help="a .en checkpoint")
    args = parser.parse_args(argv)
    build(args.directory, args.shape, args.encoder_layers, args.decoder_layers,
          args.vocab_size, args.seed, english_only=args.english_only)  # fmt: skip
    kind = "an English-only" if args.english_only else "a"
    print(f"{args.directory}: {kind} random whisper checkpoint of {args.shape}'s shape")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
