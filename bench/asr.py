"""Whisper's real-time factor: ours against transformers eager (CPU here, CUDA
there) and mlx-whisper on MLX CUDA, for whisper-small and large-v3-turbo
shapes (random weights built locally) in fp32 and bf16.

The real-time factor is the model's time (one 30 s window encoded, then
--tokens greedy tokens decoded: the same work for every system, the end of text
ignored) over the audio's 30 s: below 1 is faster than real time. The log-mel
features are computed once before (NumPy, about 80 ms a window here) and left
out for every system.

Here, on the CPU (ours through build/runtime/mlxd-transcribe, each system in a process of its own):
    .venv/bin/python bench/asr.py --cpu [--shapes small,large-v3-turbo] [--dtypes fp32,bf16]
Here, for the GPU machine (its Python has no ExecuTorch: our programs are exported here):
    .venv/bin/python bench/asr.py --prepare .gpu/asr [--shapes ...] [--dtypes ...]
writes each shape's checkpoint (tiled weights, which pack ~1000x: bench/llm_size.py's
`_pack`), our .pte/.ptd per dtype and the window's features into DIR.
There (bench/gpu_asr.sh):
    python3 bench/asr.py --run .gpu/asr --transcribe BUILD/mlxd-transcribe
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

AUDIO_S = 30.0
SHAPES = ("small", "large-v3-turbo")


def tiled(i: int, shape):
    """A cyclic shift of one random block: as costly to read as random
    weights, but it packs (bench/llm_size.py)."""
    import torch

    block = torch.randn(4096, generator=torch.Generator().manual_seed(0))
    index = (torch.arange(shape.numel()) + 97 * i) % block.numel()
    return block[index].view(shape)


def window(seconds: float = AUDIO_S):
    """30 s of tones changing every half second over noise, 16 kHz."""
    import numpy as np

    rng = np.random.default_rng(0)
    t = np.arange(int(seconds * 16000)) / 16000
    pitch = rng.uniform(100, 2000, size=int(seconds * 2) + 1)[(t * 2).astype(int)]
    return (0.3 * np.sin(2 * np.pi * pitch * t) + 0.05 * rng.standard_normal(t.size)).astype(
        np.float32
    )


def checkpoint(work: Path, shape: str) -> Path:
    from mlx_delegate.asr import tiny

    directory = work / f"whisper-{shape}"
    if not (directory / "tokenizer.json").is_file():
        tiny.build(directory, shape, fill=tiled)
    return directory


def export(directory: Path, work: Path, dtype: str) -> Path:
    """Exported every time: the program is what is measured."""
    from mlx_delegate.asr.export import export_program

    pte = work / f"{directory.name}-{dtype}.pte"
    print(export_program(directory, pte, dtype=dtype).report(), flush=True)
    return pte


def prompt_ids(directory: Path) -> list[int]:
    g = json.loads((directory / "generation_config.json").read_text())
    return [g["decoder_start_token_id"], g["lang_to_id"]["<|en|>"],
            g["task_to_id"]["transcribe"], g["no_timestamps_token_id"]]  # fmt: skip


# ---- the systems, each timed the same way: (encode s, decode s) ----------------------


def time_transformers(directory: Path, features, tokens: int, dtype: str, device: str):
    import torch
    from transformers import WhisperForConditionalGeneration

    torch_dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[dtype]
    model = WhisperForConditionalGeneration.from_pretrained(directory, dtype=torch_dtype)
    model = model.to(device).eval()
    x = torch.from_numpy(features[None]).to(device, torch_dtype)
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)

    def run(n: int):
        """(encoder s, generate s given the encoder's output): timed apart, so
        that the decoder's share is not a difference of two noisy encoder runs."""
        with torch.no_grad():
            start = time.perf_counter()
            encoded = model.model.encoder(x)
            sync()
            encode_s = time.perf_counter() - start
            start = time.perf_counter()
            model.generate(encoder_outputs=encoded, language="en", task="transcribe",
                           return_timestamps=False, min_new_tokens=n, max_new_tokens=n)  # fmt: skip
            sync()
            return encode_s, time.perf_counter() - start

    run(3)  # warm-up: kernels chosen, memory pooled
    return run(tokens)


# ---- here: the CPU ---------------------------------------------------------------------


def cpu(args) -> None:
    """Ours through mlxd-transcribe on the CPU plugin and transformers eager in a
    child: each system in a process of its own, as on the GPU machine (in one
    Python process, torch's OpenMP workers spun on through our threads)."""
    import torch

    from mlx_delegate.asr import audio
    from mlx_delegate.formats.tensor_bin import write_tensors

    args.device = "cpu"
    args.transcribe = args.transcribe or REPO / "build" / "runtime" / "mlxd-transcribe"
    rows = []
    for shape in args.shapes:
        directory = checkpoint(args.work, shape)
        mels = json.loads((directory / "config.json").read_text())["num_mel_bins"]
        out = args.work / f"{shape}-window"
        out.mkdir(exist_ok=True)
        write_tensors(out / "features.bin", [torch.from_numpy(audio.log_mel(window(), mels)[None])])
        prompt = " ".join(map(str, prompt_ids(directory)))
        for dtype in args.dtypes:
            pte = export(directory, args.work, dtype)
            for system in ("ours", "transformers"):
                row = _measure_in_a_process(system, args, directory, out, pte, prompt, dtype, shape)
                if row:
                    rows.append(row)
                    print(row, flush=True)
            pte.unlink(), pte.with_suffix(".ptd").unlink()  # large; exported again next time
    _table(rows)


def _row(shape, dtype, system, encode_s, decode_s, tokens) -> dict:
    return {"shape": shape, "dtype": dtype, "system": system, "encode_ms": encode_s * 1e3,
            "decode_ms_per_token": decode_s * 1e3 / tokens,
            "rtf": (encode_s + decode_s) / AUDIO_S}  # fmt: skip


def _table(rows: list[dict]) -> None:
    print("\n| shape | dtype | system | encode (ms) | decode (ms/token) | real-time factor |")
    print("|---|---|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['shape']} | {r['dtype']} | {r['system']} | {r['encode_ms']:.0f} | "
              f"{r['decode_ms_per_token']:.1f} | {r['rtf']:.3f} |")  # fmt: skip


# ---- here, for the GPU machine ------------------------------------------------------------


def prepare(args) -> None:
    import torch
    from llm_size import _pack

    from mlx_delegate.asr import audio
    from mlx_delegate.formats.tensor_bin import write_tensors

    args.prepare.mkdir(parents=True, exist_ok=True)
    for shape in args.shapes:
        directory = checkpoint(args.work, shape)
        out = args.prepare / shape
        out.mkdir(exist_ok=True)
        for f in directory.iterdir():
            _pack(f, out / (f.name + ".gz"))
        mels = json.loads((directory / "config.json").read_text())["num_mel_bins"]
        features = audio.log_mel(window(), mels)
        write_tensors(out / "features.bin", [torch.from_numpy(features[None])])
        (out / "prompt.txt").write_text(" ".join(map(str, prompt_ids(directory))))
        for dtype in args.dtypes:
            pte = export(directory, args.work, dtype)
            for f in (pte, pte.with_suffix(".ptd"), pte.with_suffix(".tokenizer.json")):
                _pack(f, out / f"{dtype}{''.join(f.suffixes)}.gz")
                f.unlink()
    size = sum(f.stat().st_size for f in args.prepare.rglob("*") if f.is_file())
    print(f"{args.prepare}: {size / 2**20:.1f} MiB to carry")


# ---- there -------------------------------------------------------------------------------


def run(args) -> None:
    from llm_size import _unpack

    rows = []
    # DIR is one shape's directory, or the --prepare directory holding several
    shapes = [args.run] if (args.run / "prompt.txt").is_file() else sorted(args.run.iterdir())
    for out in (p for p in shapes if p.is_dir()):
        shape, work = out.name, args.work / out.name
        work.mkdir(parents=True, exist_ok=True)
        checkpoint_dir = work / "checkpoint"
        checkpoint_dir.mkdir(exist_ok=True)
        for f in out.glob("*.gz"):
            if not re.match(r"(fp32|bf16)\.", f.name):
                _unpack(f, checkpoint_dir / f.name[:-3])
        prompt = (out / "prompt.txt").read_text()
        for dtype in args.dtypes:
            pte = _unpack(out / f"{dtype}.pte.gz", work / f"{dtype}.pte")
            _unpack(out / f"{dtype}.ptd.gz", work / f"{dtype}.ptd")
            for system in ("ours", "transformers", "mlx-whisper"):
                row = _measure_in_a_process(
                    system, args, checkpoint_dir, out, pte, prompt, dtype, shape
                )
                if row:
                    rows.append(row)
                    print(row, flush=True)
    _table(rows)


def _measure_in_a_process(system, args, checkpoint_dir, out, pte, prompt, dtype, shape):
    """Each system in its own process (its own GPU memory); None when it failed."""
    if system == "ours":
        command = [str(args.transcribe), str(pte), "--features", str(out / "features.bin"),
                   "--prompt-ids", prompt, "--device", args.device, "--warmup", "1",
                   "--ignore-eos", "--max-new-tokens", str(args.tokens)]  # fmt: skip
    else:
        command = [sys.executable, __file__, "--child", system, "--checkpoint",
                   str(checkpoint_dir), "--features", str(out / "features.bin"),
                   "--dtypes", dtype, "--tokens", str(args.tokens), "--device", args.device]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        print(f"{shape} {dtype} {system} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
        return None
    if system == "ours":
        encode = float(re.search(r"encode: ([\d.]+) ms", done.stdout)[1]) / 1e3
        decode = float(re.search(r"decode: \d+ tokens, ([\d.]+) ms", done.stdout)[1]) / 1e3
    else:
        encode, decode = map(float, done.stdout.strip().splitlines()[-1].split())
    if args.device == "cpu":
        label = {"ours": "ours (mlxd-transcribe, CPU plugin)",
                 "transformers": "transformers eager"}[system]  # fmt: skip
    else:
        label = {"ours": "ours (mlxd-transcribe, CUDA plugin)", "transformers": "transformers eager CUDA",
                 "mlx-whisper": "mlx-whisper (MLX CUDA)"}[system]  # fmt: skip
    return _row(shape, dtype, label, encode, decode, args.tokens)


def child(args) -> None:
    """Prints 'ENCODE_S DECODE_S' for one system."""
    from mlx_delegate.formats.tensor_bin_format import read_arrays

    features = read_arrays(args.features)[0][1][0]  # (dtype, array (1, mels, frames))
    prompt = prompt_ids(args.checkpoint)
    if args.child == "transformers":
        device = "cuda" if args.device.startswith("gpu") else "cpu"
        times = time_transformers(args.checkpoint, features, args.tokens, args.dtypes[0], device)
    else:
        times = time_mlx_whisper(args.checkpoint, features, prompt, args.tokens, args.dtypes[0])
    print(*times)


def mlx_whisper_model(checkpoint_dir: Path, dtype: str):
    """Our Hugging Face checkpoint in mlx-whisper's layout (its load_models.py:
    ModelDimensions from config.json, weights by its module names), built in
    memory. MLX's Conv1d weight is (out, kernel, in), torch's (out, in, kernel).
    The encoder's positions are mlx-whisper's own sinusoids (a random checkpoint's
    differ; the time is the same)."""
    import mlx.core as mx
    from mlx.utils import tree_unflatten
    from safetensors.numpy import load_file

    whisper = _mlx_whisper_module()

    c = json.loads((checkpoint_dir / "config.json").read_text())
    dims = whisper.ModelDimensions(
        n_mels=c["num_mel_bins"], n_audio_ctx=c["max_source_positions"],
        n_audio_state=c["d_model"], n_audio_head=c["encoder_attention_heads"],
        n_audio_layer=c["encoder_layers"], n_vocab=c["vocab_size"],
        n_text_ctx=c["max_target_positions"], n_text_state=c["d_model"],
        n_text_head=c["decoder_attention_heads"], n_text_layer=c["decoder_layers"],
    )  # fmt: skip
    mx_dtype = {"fp32": mx.float32, "bf16": mx.bfloat16}[dtype]
    model = whisper.Whisper(dims, mx_dtype)
    weights = {}
    for name, value in load_file(str(checkpoint_dir / "model.safetensors")).items():
        ours = _mlx_whisper_name(name)
        if ours is None:
            continue
        if "conv" in ours and value.ndim == 3:
            value = value.transpose(0, 2, 1)
        weights[ours] = mx.array(value).astype(mx_dtype)
    model.update(tree_unflatten(list(weights.items())))
    mx.eval(model.parameters())
    return model, mx_dtype


def _mlx_whisper_module():
    """mlx_whisper.whisper, without the package's __init__: it imports the
    transcribe pipeline (numba, scipy, tqdm, huggingface_hub), which the model
    does not need and the GPU machine may lack."""
    import importlib
    import importlib.util
    import types

    if "mlx_whisper" not in sys.modules:
        spec = importlib.util.find_spec("mlx_whisper")
        if spec is None:
            raise ImportError("mlx_whisper is not installed (bench/gpu_asr.sh installs it)")
        package = types.ModuleType("mlx_whisper")
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules["mlx_whisper"] = package
    return importlib.import_module("mlx_whisper.whisper")


_RENAMES = [
    (r"^model\.", ""), (r"\.layers\.", ".blocks."), (r"self_attn_layer_norm", "attn_ln"),
    (r"encoder_attn_layer_norm", "cross_attn_ln"), (r"self_attn\.", "attn."),
    (r"encoder_attn\.", "cross_attn."), (r"q_proj", "query"), (r"k_proj", "key"),
    (r"v_proj", "value"), (r"out_proj", "out"), (r"final_layer_norm", "mlp_ln"),
    (r"\.fc1", ".mlp1"), (r"\.fc2", ".mlp2"), (r"encoder\.layer_norm", "encoder.ln_post"),
    (r"decoder\.layer_norm", "decoder.ln"), (r"embed_tokens", "token_embedding"),
    (r"decoder\.embed_positions\.weight", "decoder.positional_embedding"),
]  # fmt: skip


def _mlx_whisper_name(name: str):
    if "encoder.embed_positions" in name or name.startswith("proj_out"):
        return None  # mlx-whisper computes the encoder's positions; the head is tied
    for pattern, replacement in _RENAMES:
        name = re.sub(pattern, replacement, name)
    return name


def time_mlx_whisper(checkpoint_dir: Path, features, prompt, tokens: int, dtype: str):
    """mlx-whisper's model with a plain greedy loop over its key-value cache
    (its decoding.py needs tiktoken for the tokenizer: the token ids are all we
    need). One untimed warm-up."""
    import mlx.core as mx

    model, mx_dtype = mlx_whisper_model(checkpoint_dir, dtype)
    mel = mx.array(features.T[None]).astype(mx_dtype)  # (1, frames, mels): MLX's layout

    def run(n: int):
        start = time.perf_counter()
        audio_features = model.embed_audio(mel)
        mx.eval(audio_features)
        encode_s = time.perf_counter() - start
        start = time.perf_counter()
        x, cache = mx.array([prompt]), None
        for _ in range(n):
            logits, cache, _ = model.decoder(x, audio_features, kv_cache=cache)
            x = mx.argmax(logits[:, -1], axis=-1, keepdims=True)
            mx.eval(x)
        return encode_s, time.perf_counter() - start

    run(3)
    return run(tokens)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--cpu", action="store_true", help="ours and transformers on this CPU")
    mode.add_argument("--prepare", type=Path, help="write checkpoints and programs for the GPU")
    mode.add_argument("--run", type=Path, help="on the GPU machine: a --prepare directory")
    mode.add_argument("--child", choices=("transformers", "mlx-whisper"), help=argparse.SUPPRESS)
    parser.add_argument("--shapes", default=",".join(SHAPES), type=lambda s: s.split(","))
    parser.add_argument("--dtypes", default="fp32,bf16", type=lambda s: s.split(","))
    parser.add_argument("--tokens", type=int, default=64, help="greedy tokens a window")
    parser.add_argument(
        "--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "asr-bench"
    )
    parser.add_argument(
        "--transcribe", type=Path, help="mlxd-transcribe (--run; --cpu: build/runtime's)"
    )
    parser.add_argument(
        "--device", default="gpu:0", help="with --run: ours' device (cpu: a dry run)"
    )
    parser.add_argument("--checkpoint", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--features", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    if args.cpu:
        cpu(args)
    elif args.prepare:
        prepare(args)
    elif args.run:
        run(args)
    else:
        child(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
