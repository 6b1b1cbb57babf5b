"""The audio front end: our WAV reader on every sample format, resampling,
log-mel features against transformers' WhisperFeatureExtractor; and bad input
(not audio, empty, zero length, a corrupt header, a sample rate of 0, a
checkpoint of another architecture), each a one-line message and exit 1."""

from __future__ import annotations

import json
import struct
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from mlx_delegate.asr import audio
from mlx_delegate.asr.__main__ import main

# One worker runs this module and test_transcribe.py, which share the whisper fixture
# (conftest.py): the other worker does not wait for its export.
pytestmark = pytest.mark.xdist_group("asr")


def wav_bytes(payload: bytes, channels: int, rate: int, bits: int, tag: int = 1) -> bytes:
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", tag, channels, rate, rate * block, block, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(payload)) + payload
    return b"RIFF" + struct.pack("<I", len(body)) + body


RAMP = np.linspace(-0.9, 0.9, 101).astype(np.float32)


@pytest.mark.parametrize(
    "bits, tag, encode",
    [
        (8, 1, lambda x: np.round(x * 128 + 128).astype(np.uint8).tobytes()),
        (16, 1, lambda x: np.round(x * 32768).astype("<i2").tobytes()),
        (24, 1, lambda x: b"".join(int(v).to_bytes(3, "little", signed=True)
                                   for v in np.round(x * 2**23))),  # fmt: skip
        (32, 1, lambda x: np.round(x * 2**31).astype("<i4").tobytes()),
        (32, 3, lambda x: x.astype("<f4").tobytes()),
    ],
    ids=["int8", "int16", "int24", "int32", "float32"],
)
def test_wav_sample_formats(bits, tag, encode):
    samples, rate = audio.read_wav_bytes(wav_bytes(encode(RAMP), 1, 22050, bits, tag))
    assert rate == 22050
    np.testing.assert_allclose(samples, RAMP, atol=1.0 / 2 ** (bits - 1))


def test_stereo_is_mixed_to_mono():
    left, right = RAMP, -RAMP / 3
    stereo = np.stack([left, right], axis=1).reshape(-1)
    samples, _ = audio.read_wav_bytes(wav_bytes(stereo.astype("<f4").tobytes(), 2, 16000, 32, 3))
    np.testing.assert_allclose(samples, (left + right) / 2, atol=1e-7)


def test_resample_keeps_a_tone():
    t44, t16 = np.arange(44100) / 44100, np.arange(16000) / 16000
    resampled = audio.resample(np.sin(2 * np.pi * 440 * t44).astype(np.float32), 44100)
    assert resampled.shape == (16000,)
    np.testing.assert_allclose(resampled, np.sin(2 * np.pi * 440 * t16), atol=1e-3)


def test_log_mel_equals_the_feature_extractor():
    from transformers import WhisperFeatureExtractor

    rng = np.random.default_rng(0)
    samples = (0.2 * rng.standard_normal(16000 * 6)).astype(np.float32)
    for mels in (80, 128):
        extractor = WhisperFeatureExtractor(feature_size=mels)
        theirs = extractor(samples, sampling_rate=16000, return_tensors="np").input_features[0]
        np.testing.assert_allclose(audio.log_mel(samples, mels), theirs, atol=1e-5)


# ---- bad input ------------------------------------------------------------


def transcribe_error(capsys, pte: Path, path: Path) -> str:
    assert main(["transcribe", str(pte), str(path), "--device", "cpu"]) == 1
    return capsys.readouterr().err


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("notes.txt", b"these are words, not audio\n", "not a WAV file"),
        ("empty.wav", b"", "the file is empty"),
        ("silent.wav", wav_bytes(b"", 1, 16000, 16), "no samples (zero length)"),
        ("cut.wav", wav_bytes(b"\0" * 64, 1, 16000, 16)[:30], "corrupt WAV header"),
        ("riff.wav", b"RIFF\x10\0\0\0AVI LIST", "not a RIFF/WAVE file"),
        ("rate0.wav", wav_bytes(b"\0" * 64, 1, 0, 16), "sample rate 0"),
        ("mulaw.wav", wav_bytes(b"\0" * 64, 1, 8000, 8, tag=7), "not PCM or float"),
    ],
)
def test_bad_audio_gets_a_clear_message(capsys, tmp_path, name, content, message):
    """Checked before the program is loaded: no program is needed to refuse them."""
    path = tmp_path / name
    path.write_bytes(content)
    err = transcribe_error(capsys, tmp_path / "never-loaded.pte", path)
    assert message in err and err.count("\n") == 1, err


def test_missing_audio(capsys, tmp_path):
    assert "no such file" in transcribe_error(capsys, tmp_path / "x.pte", tmp_path / "none.wav")


def test_checkpoint_of_another_architecture(capsys, tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llama", "vocab_size": 10}))
    code = main(["export", "--model", str(tmp_path), "-o", str(tmp_path / "w.pte")])
    err = capsys.readouterr().err
    assert code == 1
    assert "model_type 'llama' is not a Whisper checkpoint" in err and err.count("\n") == 1
    assert not (tmp_path / "w.pte").exists()


def test_not_a_program(capsys, tmp_path, whisper):
    """A file that is not a program (its tokenizer beside it) is named."""
    import shutil

    from mlx_delegate.asr.export import tokenizer_path_of

    other = tmp_path / "other.pte"
    other.write_bytes(b"not a program at all")
    shutil.copyfile(tokenizer_path_of(whisper[1]), tokenizer_path_of(other))
    wav = tmp_path / "a.wav"
    with wave.open(str(wav), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(16000)
        w.writeframes(b"\0\0" * 1600)
    err = transcribe_error(capsys, other, wav)
    assert f"cannot load {other}" in err, err


# ---- other formats: the soundfile fallback -----------------------------------
# soundfile is not a dependency (nor installed in the test venv): a stand-in
# module with its `read` call checks what read_audio does with its answers.


class _FakeSoundfile:
    """soundfile.read's contract: (frames, channels) float32 with always_2d,
    and the rate; its own error type for what it cannot read."""

    def __init__(self, frames: np.ndarray, rate: int):
        self.frames, self.rate, self.calls = frames, rate, []

    def read(self, path, dtype, always_2d):
        self.calls.append((path, dtype, always_2d))
        if Path(path).read_bytes().startswith(b"junk"):
            raise RuntimeError("Error opening: Format not recognised.")
        return self.frames, self.rate


def test_other_formats_go_through_soundfile(monkeypatch, tmp_path):
    stereo = np.stack([RAMP, -RAMP / 3], axis=1)
    fake = _FakeSoundfile(stereo, 44100)
    monkeypatch.setitem(sys.modules, "soundfile", fake)
    path = tmp_path / "a.flac"
    path.write_bytes(b"fLaC\0\0\0\x22")
    samples, rate = audio.read_audio(path)
    assert fake.calls == [(str(path), "float32", True)]
    assert rate == 44100
    np.testing.assert_allclose(samples, (RAMP - RAMP / 3) / 2, atol=1e-7)


@pytest.mark.parametrize(
    "frames, rate, content, message",
    [
        (np.zeros((4, 1), np.float32), 16000, b"junk", "not audio that soundfile can read"),
        (np.zeros((4, 1), np.float32), 0, b"OggS", "sample rate 0"),
        (np.zeros((0, 1), np.float32), 16000, b"OggS", "no samples (zero length)"),
    ],
)
def test_soundfiles_refusals_are_one_line(monkeypatch, capsys, tmp_path, frames, rate, content,
                                          message):  # fmt: skip
    monkeypatch.setitem(sys.modules, "soundfile", _FakeSoundfile(frames, rate))
    path = tmp_path / "a.ogg"
    path.write_bytes(content)
    err = transcribe_error(capsys, tmp_path / "never-loaded.pte", path)
    assert message in err and err.count("\n") == 1, err


def test_without_soundfile_another_format_names_it(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "soundfile", None)  # import soundfile raises ImportError
    path = tmp_path / "a.flac"
    path.write_bytes(b"fLaC\0\0\0\x22")
    err = transcribe_error(capsys, tmp_path / "never-loaded.pte", path)
    assert "other formats need the `soundfile` package" in err and err.count("\n") == 1, err
