"""Audio in: a WAV reader of our own, resampling to 16 kHz, Whisper's log-mel
features, all in NumPy.

The log-mel features are computed in NumPy rather than in the delegate: a 30 s
window takes 77 ms here (an FFT of 3000 frames and a (3000 x 201) x (201 x mels)
product), against 6 to 20 s for a whisper-small encoder call on this CPU, and
they equal transformers' feature extractor to 1e-6
(tests/mlx_delegate/asr/test_audio.py). On a GPU, where a window encodes in
tens of ms, moving them into the program may pay."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

SAMPLING_RATE = 16000
N_FFT = 400
HOP = 160
WINDOW_SAMPLES = 30 * SAMPLING_RATE  # 480,000: one 30 s window
FRAMES = WINDOW_SAMPLES // HOP  # 3000


class AudioError(ValueError):
    """A file that is not audio we can read, or holds none."""


# WAVE format tags: PCM integers, IEEE floats, and the extensible form that
# names one of them in its sub-format.
_PCM, _FLOAT, _EXTENSIBLE = 1, 3, 0xFFFE


def read_audio(path: Path) -> tuple[np.ndarray, int]:
    """(mono float32 samples in [-1, 1], sample rate) of a WAV file, or of any
    format `soundfile` reads when it is installed."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    data = path.read_bytes()
    if not data:
        raise AudioError(f"{path}: the file is empty")
    if data[:4] in (b"RIFF", b"RIFX", b"RF64"):
        samples, rate = read_wav_bytes(data, str(path))
    else:
        samples, rate = _read_other(path)
    if samples.size == 0:
        raise AudioError(f"{path}: the audio has no samples (zero length)")
    return samples, rate


def _read_other(path: Path) -> tuple[np.ndarray, int]:
    try:
        import soundfile
    except ImportError:
        raise AudioError(
            f"{path}: not a WAV file (no RIFF header); other formats need the "
            "`soundfile` package (pip install soundfile)"
        ) from None
    try:
        samples, rate = soundfile.read(str(path), dtype="float32", always_2d=True)
    except Exception as e:  # soundfile raises its own error types
        raise AudioError(f"{path}: not audio that soundfile can read ({e})") from None
    return _mono(samples), _checked_rate(rate, str(path))


def read_wav_bytes(data: bytes, name: str = "WAV") -> tuple[np.ndarray, int]:
    """A RIFF/WAVE file's samples (mixed to mono, float32) and rate."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise AudioError(f"{name}: not a RIFF/WAVE file (corrupt or unsupported header)")
    chunks = _chunks(data, name)
    if b"fmt " not in chunks:
        raise AudioError(f"{name}: corrupt WAV header: no 'fmt ' chunk")
    if b"data" not in chunks:
        raise AudioError(f"{name}: corrupt WAV header: no 'data' chunk")
    fmt = chunks[b"fmt "]
    if len(fmt) < 16:
        raise AudioError(f"{name}: corrupt WAV header: 'fmt ' chunk of {len(fmt)} bytes")
    tag, channels, rate, _, block, bits = struct.unpack("<HHIIHH", fmt[:16])
    if tag == _EXTENSIBLE and len(fmt) >= 26:
        tag = struct.unpack("<H", fmt[24:26])[0]
    rate = _checked_rate(rate, name)
    if channels == 0:
        raise AudioError(f"{name}: corrupt WAV header: 0 channels")
    width = bits // 8
    if bits % 8 or block != channels * width:
        raise AudioError(f"{name}: corrupt WAV header: {bits} bits, {channels} channels, "
                         f"blocks of {block} bytes")  # fmt: skip
    samples = _decode(chunks[b"data"], tag, width, name)
    frames = samples.size // channels
    return _mono(samples[: frames * channels].reshape(frames, channels)), rate


def _chunks(data: bytes, name: str) -> dict[bytes, bytes]:
    """The RIFF chunks by id; a data chunk cut short (a stream's unknown
    length) is taken as far as the file goes."""
    chunks, at = {}, 12
    while at + 8 <= len(data):
        kind, size = data[at : at + 4], struct.unpack("<I", data[at + 4 : at + 8])[0]
        if kind != b"data" and at + 8 + size > len(data):
            raise AudioError(f"{name}: corrupt WAV header: chunk {kind!r} runs past the file")
        chunks.setdefault(kind, data[at + 8 : at + 8 + size])
        at += 8 + size + (size & 1)
    return chunks


def _decode(raw: bytes, tag: int, width: int, name: str) -> np.ndarray:
    if tag == _FLOAT and width in (4, 8):
        return np.frombuffer(raw[: len(raw) // width * width], f"<f{width}").astype(np.float32)
    if tag != _PCM:
        raise AudioError(f"{name}: WAV format tag {tag} is not PCM or float (compressed audio?)")
    if width == 1:  # 8-bit WAV is unsigned
        return (np.frombuffer(raw, np.uint8).astype(np.float32) - 128) / 128
    if width == 3:
        b = np.frombuffer(raw[: len(raw) // 3 * 3], np.uint8).reshape(-1, 3).astype(np.int32)
        value = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        return (np.where(value >= 1 << 23, value - (1 << 24), value) / float(1 << 23)).astype(
            np.float32
        )
    if width in (2, 4):
        ints = np.frombuffer(raw[: len(raw) // width * width], f"<i{width}")
        return (ints / float(1 << (8 * width - 1))).astype(np.float32)
    raise AudioError(f"{name}: {8 * width}-bit PCM samples are not supported")


def _checked_rate(rate: int, name: str) -> int:
    if rate <= 0:
        raise AudioError(f"{name}: sample rate {rate} (corrupt header)")
    return int(rate)


def _mono(frames: np.ndarray) -> np.ndarray:
    return frames.mean(axis=1, dtype=np.float32) if frames.shape[1] > 1 else frames[:, 0]


def resample(samples: np.ndarray, rate: int, to: int = SAMPLING_RATE) -> np.ndarray:
    """Band-limited resampling by the FFT (the spectrum cut or padded to the
    new rate's): exact for periodic signals, and a 10 min file takes one FFT."""
    if rate == to:
        return samples.astype(np.float32, copy=False)
    length = int(round(len(samples) * to / rate))
    spectrum = np.fft.rfft(samples.astype(np.float64))
    bins = length // 2 + 1
    resized = np.zeros(bins, dtype=np.complex128)
    keep = min(bins, len(spectrum))
    resized[:keep] = spectrum[:keep]
    return (np.fft.irfft(resized, n=length) * (length / len(samples))).astype(np.float32)


def mel_filters(n_mels: int, n_fft: int = N_FFT, rate: int = SAMPLING_RATE) -> np.ndarray:
    """(n_fft // 2 + 1, n_mels) triangular filters on the Slaney mel scale,
    Slaney-normalised (area 1 per filter), as Whisper's are."""
    bins = np.linspace(0, rate / 2, n_fft // 2 + 1)
    edges = _mel_to_hz(np.linspace(_hz_to_mel(0.0), _hz_to_mel(rate / 2), n_mels + 2))
    lower = (bins[:, None] - edges[None, :-2]) / np.diff(edges)[None, :-1]
    upper = (edges[None, 2:] - bins[:, None]) / np.diff(edges)[None, 1:]
    filters = np.maximum(0.0, np.minimum(lower, upper))
    return filters * (2.0 / (edges[2:] - edges[:-2]))[None, :]


_LOG_STEP = np.log(6.4) / 27.0  # Slaney: linear below 1 kHz, logarithmic above
_LINEAR_MELS = 1000.0 * 3.0 / 200.0  # 15


def _hz_to_mel(hz):
    hz = np.asarray(hz, dtype=np.float64)
    linear = 3.0 * hz / 200.0
    return np.where(hz >= 1000.0, _LINEAR_MELS + np.log(np.maximum(hz, 1e-10) / 1000.0) / _LOG_STEP,
                    linear)  # fmt: skip


def _mel_to_hz(mels):
    mels = np.asarray(mels, dtype=np.float64)
    return np.where(mels >= _LINEAR_MELS, 1000.0 * np.exp(_LOG_STEP * (mels - _LINEAR_MELS)),
                    200.0 * mels / 3.0)  # fmt: skip


def log_mel(window: np.ndarray, n_mels: int) -> np.ndarray:
    """(n_mels, 3000) float32 features of up to 30 s of 16 kHz samples, padded
    with zeros to 30 s: power STFT (Hann window, centred with reflection),
    mel filters, log10, floored 8 below the maximum, scaled to about [-1, 1]."""
    padded = np.zeros(WINDOW_SAMPLES, dtype=np.float64)
    padded[: len(window)] = window[:WINDOW_SAMPLES]
    signal = np.pad(padded, N_FFT // 2, mode="reflect")
    starts = np.arange(FRAMES + 1) * HOP
    frames = signal[starts[:, None] + np.arange(N_FFT)[None, :]]
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(N_FFT) / N_FFT)  # periodic
    power = np.abs(np.fft.rfft(frames * hann, axis=-1)) ** 2
    mel = power[:-1] @ mel_filters(n_mels)  # the last frame is dropped, as Whisper's is
    log = np.log10(np.maximum(mel, 1e-10))
    log = np.maximum(log, log.max() - 8.0)
    return np.ascontiguousarray(((log + 4.0) / 4.0).T, dtype=np.float32)


def windows(samples: np.ndarray) -> list[np.ndarray]:
    """The audio cut into 30 s windows (the last one shorter)."""
    return [samples[i : i + WINDOW_SAMPLES] for i in range(0, len(samples), WINDOW_SAMPLES)]
