"""Greedy token ids of our Whisper export equal transformers'
`WhisperForConditionalGeneration.generate` (forced language and task, no
timestamps, fp32) on the real feature extractor's features: through
`python -m mlx_delegate.asr transcribe` (transcribe and translate, and an
English-only checkpoint, whose prompt has neither) and through the C++ runner
mlxd-transcribe. Audio over 30 s goes in windows, each equal to transformers
on that window alone."""

from __future__ import annotations

import functools
import os
import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest
import torch

from mlx_delegate.asr import audio
from mlx_delegate.asr.__main__ import main

# One worker runs this module and test_audio.py, which share the whisper fixture
# (conftest.py): the other worker does not wait for its export.
pytestmark = [pytest.mark.xdist_group("asr"), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
NEW_TOKENS = 24


def write_wav16(path: Path, samples: np.ndarray, rate: int = 16000) -> np.ndarray:
    """Writes 16-bit mono PCM; returns the samples as a reader gets them back."""
    ints = np.clip(np.round(samples * 32767), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(rate)
        w.writeframes(ints.tobytes())
    return ints.astype(np.float32) / 32768


def sound(seconds: float, seed: int) -> np.ndarray:
    """Tones that change every half second over noise, at 16 kHz."""
    rng = np.random.default_rng(seed)
    t = np.arange(int(seconds * 16000)) / 16000
    pitch = rng.uniform(100, 2000, size=int(seconds * 2) + 1)[(t * 2).astype(int)]
    return (0.3 * np.sin(2 * np.pi * pitch * t) + 0.05 * rng.standard_normal(t.size)).astype(
        np.float32
    )


@functools.lru_cache(maxsize=2)
def transformers_whisper(directory: Path):
    from transformers import WhisperFeatureExtractor, WhisperForConditionalGeneration

    extractor = WhisperFeatureExtractor.from_pretrained(directory)
    return extractor, WhisperForConditionalGeneration.from_pretrained(directory).eval()


def transformers_ids(
    directory: Path, samples: np.ndarray, language: str = "en", task: str = "transcribe"
) -> list[int]:
    """transformers' greedy ids for up to 30 s of 16 kHz samples, the end of
    text left out: the language and task forced, or, for an English-only
    checkpoint, neither (transformers refuses them there)."""
    extractor, model = transformers_whisper(directory)
    features = extractor(samples, sampling_rate=16000, return_tensors="pt").input_features
    g = model.generation_config
    if g.is_multilingual:
        forced = {"language": language, "task": task}
        prompt = [g.decoder_start_token_id, g.lang_to_id[f"<|{language}|>"], g.task_to_id[task],
                  g.no_timestamps_token_id]  # fmt: skip
    else:
        forced, prompt = {}, [g.decoder_start_token_id, g.no_timestamps_token_id]
    with torch.no_grad():
        out = model.generate(features, **forced, return_timestamps=False,
                             max_new_tokens=NEW_TOKENS)[0].tolist()  # fmt: skip
    if out[: len(prompt)] == prompt:
        out = out[len(prompt) :]
    eos = g.eos_token_id
    return out[: out.index(eos)] if eos in out else out


def cli_ids(capsys, pte: Path, wav: Path, *options: str) -> tuple[list[int], str]:
    """`transcribe --ids` with `options` (default: --language en)."""
    code = main(["transcribe", str(pte), str(wav), *(options or ("--language", "en")), "--ids",
                 "--max-new-tokens", str(NEW_TOKENS), "--device", "cpu"])  # fmt: skip
    captured = capsys.readouterr()
    out = captured.out
    assert code == 0, captured.err
    line = next(line for line in out.splitlines() if line.startswith("ids:"))
    return [int(i) for i in line.split()[1:]], out


def test_cli_ids_equal_transformers(whisper, tmp_path, capsys):
    directory, pte = whisper
    samples = write_wav16(tmp_path / "a.wav", sound(7, seed=0))
    ours, out = cli_ids(capsys, pte, tmp_path / "a.wav")
    theirs = transformers_ids(directory, samples)
    assert len(theirs) >= 8, "the random model should say something"
    assert ours == theirs
    assert "real-time factor:" in out


def test_cli_translate_equals_transformers(whisper, tmp_path, capsys):
    """--task translate: <|translate|> in the prompt, as transformers'
    generate(task="translate") forces it; the tokens are not transcribe's."""
    directory, pte = whisper
    samples = write_wav16(tmp_path / "a.wav", sound(7, seed=3))
    ours, _ = cli_ids(capsys, pte, tmp_path / "a.wav", "--language", "fr", "--task", "translate")
    theirs = transformers_ids(directory, samples, "fr", "translate")
    assert len(theirs) >= 8, "the random model should say something"
    assert ours == theirs
    assert ours != transformers_ids(directory, samples, "fr", "transcribe")


def test_cli_english_only_checkpoint_equals_transformers(whisper_en, tmp_path, capsys):
    """A `.en` checkpoint: the prompt is the start of transcript and no
    timestamps alone, as transformers' generate makes it for such a model."""
    directory, pte = whisper_en
    samples = write_wav16(tmp_path / "a.wav", sound(7, seed=0))
    ours, out = cli_ids(capsys, pte, tmp_path / "a.wav", "--task", "transcribe")
    theirs = transformers_ids(directory, samples)
    assert len(theirs) >= 8, "the random model should say something"
    assert ours == theirs
    assert "real-time factor:" in out


@pytest.mark.parametrize(
    "option, message",
    [
        (("--task", "translate"), "English-only model: it only transcribes (no --task translate)"),
        (
            ("--language", "fr"),
            "English-only model: it only transcribes English (no --language fr)",
        ),
    ],
)
def test_english_only_checkpoint_refuses_a_task_or_language(whisper_en, tmp_path, capsys, option,
                                                            message):  # fmt: skip
    """transformers refuses a task or language for an English-only model
    rather than ignore it; so do we, in one line."""
    write_wav16(tmp_path / "a.wav", sound(1, seed=0))
    code = main(["transcribe", str(whisper_en[1]), str(tmp_path / "a.wav"), *option,
                 "--device", "cpu"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1
    assert message in err and err.count("\n") == 1, err


def test_long_audio_goes_in_windows(whisper, tmp_path, capsys):
    """40 s: two windows, each decoded after its own encode (the decoder reads
    the cross-attention state of the window just encoded)."""
    directory, pte = whisper
    samples = write_wav16(tmp_path / "long.wav", sound(40, seed=5))
    ours, _ = cli_ids(capsys, pte, tmp_path / "long.wav")
    first = transformers_ids(directory, samples[: audio.WINDOW_SAMPLES])
    second = transformers_ids(directory, samples[audio.WINDOW_SAMPLES :])
    assert first != second
    assert ours == first + second


def test_mlxd_transcribe_equals_transformers(whisper, tmp_path):
    """The C++ runner (no Python in its process), from log-mel features and
    prompt ids, gives transformers' ids."""
    from mlx_delegate.formats.tensor_bin import write_tensors

    build = Path(os.environ.get("MLXD_TEST_BUILD_DIR", ROOT / "build" / "runtime"))
    exe = build / "mlxd-transcribe"
    assert exe.is_file(), f"{exe} was not built (make runtime)"
    directory, pte = whisper
    samples = write_wav16(tmp_path / "b.wav", sound(9, seed=2))
    features = tmp_path / "features.bin"
    write_tensors(features, [torch.from_numpy(audio.log_mel(samples, 80)[None])])
    from transformers import GenerationConfig

    g = GenerationConfig.from_pretrained(directory)
    prompt = [g.decoder_start_token_id, g.lang_to_id["<|en|>"], g.task_to_id["transcribe"],
              g.no_timestamps_token_id]  # fmt: skip
    done = subprocess.run(
        [str(exe), str(pte), "--features", str(features), "--device", "cpu",
         "--prompt-ids", " ".join(map(str, prompt)), "--max-new-tokens", str(NEW_TOKENS),
         "--audio-seconds", "9"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("ids:"))
    assert [int(i) for i in line.split()[1:]] == transformers_ids(directory, samples)
    assert "real-time factor:" in done.stdout


def test_mlxd_transcribe_refuses_features_of_another_shape(whisper, tmp_path):
    from mlx_delegate.formats.tensor_bin import write_tensors

    exe = (
        Path(os.environ.get("MLXD_TEST_BUILD_DIR", ROOT / "build" / "runtime")) / "mlxd-transcribe"
    )
    features = tmp_path / "f.bin"
    write_tensors(features, [torch.zeros(128, 3000)])
    done = subprocess.run([str(exe), str(whisper[1]), "--features", str(features),
                           "--prompt-ids", "1 2"], capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 1
    assert "expected float32 (windows, 80, 3000)" in done.stderr


@pytest.mark.parametrize(
    "options, message",
    [
        (["--features", "f.bin", "--prompt-ids", "1 x"], "--prompt-ids: 'x' is not a token id"),
        (["--features", "f.bin", "--prompt-ids", " "], "--prompt-ids has no token ids"),
        (["--features", "f.bin", "--prompt-ids", "1", "--max-new-tokens", "0"],
         "--max-new-tokens takes a number in [1.000000, 1000000.000000], got '0'"),
        (["--features", "f.bin", "--prompt-ids", "1", "--audio-seconds"],
         "--audio-seconds needs a value"),
        (["--prompt-ids", "1"], "--features is required"),
    ],
)  # fmt: skip
def test_mlxd_transcribe_usage_errors(tmp_path, options, message):
    """Exit status 2, then "mlxd-transcribe: MESSAGE" and the usage text
    (runner_common's Usage), before any file is read."""
    exe = (
        Path(os.environ.get("MLXD_TEST_BUILD_DIR", ROOT / "build" / "runtime")) / "mlxd-transcribe"
    )
    done = subprocess.run([str(exe), str(tmp_path / "m.pte"), *options], capture_output=True,
                          text=True)  # fmt: skip
    assert done.returncode == 2, done.stderr
    expected = f"mlxd-transcribe: {message}\n\nusage: mlxd-transcribe MODEL.pte"
    assert done.stderr.startswith(expected), done.stderr
