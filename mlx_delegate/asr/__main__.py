"""python -m mlx_delegate.asr export|transcribe

python -m mlx_delegate.asr export --model DIR -o whisper.pte [--dtype fp32|bf16|fp16]
    [--quantize int4|int8] [--group-size N]
python -m mlx_delegate.asr transcribe whisper.pte AUDIO [--language xx]
    [--task transcribe|translate] [--device cpu|gpu:0] [--ids] [--max-new-tokens N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .. import _quiet
from ..formats.quantized import GROUP_SIZES


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mlx_delegate.asr")
    commands = parser.add_subparsers(dest="command", required=True)

    export = commands.add_parser("export", help="export a local Whisper checkpoint to a .pte")
    export.add_argument(
        "--model", type=Path, required=True, help="a Hugging Face Whisper directory"
    )
    export.add_argument("--dtype", choices=("fp32", "bf16", "fp16"), default="fp32")
    export.add_argument("--quantize", choices=("int4", "int8"), default=None,
                        help="the linear layers' weights")  # fmt: skip
    export.add_argument("--group-size", type=int, default=32, choices=GROUP_SIZES)
    export.add_argument("--device", default=None, help="where the program runs (default: the best)")
    export.add_argument("-o", "--output", type=Path, required=True)

    transcribe = commands.add_parser("transcribe", help="transcribe an audio file")
    transcribe.add_argument("pte", type=Path)
    transcribe.add_argument("audio", type=Path, help="WAV (other formats with soundfile)")
    transcribe.add_argument("--language", help="a language code (default en)")
    transcribe.add_argument(
        "--task", choices=("transcribe", "translate"), help="default transcribe (.en: the only one)"
    )
    transcribe.add_argument("--device", default=None, help="cpu, gpu, gpu:N (default: the best)")
    transcribe.add_argument("--max-new-tokens", type=int, default=448, help="a window's most")
    transcribe.add_argument("--ids", action="store_true", help="also print the token ids")
    return parser


def _export(args) -> int:
    from .export import export_program, tokenizer_path_of

    result = export_program(args.model, args.output, dtype=args.dtype, quantize=args.quantize,
                            group_size=args.group_size, device=args.device)  # fmt: skip
    print(result.report())
    print(f"{tokenizer_path_of(args.output)}: the tokenizer")
    return 0


def _prompt(args, program, tokenizer) -> list[int]:
    """The decoder prompt. An English-only (`.en`) model's has no language or
    task: a task or language it cannot follow is refused, as transformers
    refuses them, rather than ignored."""
    from .transcribe import language_id

    if program.multilingual:
        return program.prompt(language_id(tokenizer, args.language or "en"),
                              args.task or "transcribe")  # fmt: skip
    if args.task not in (None, "transcribe"):
        raise ValueError(f"{args.pte}: an English-only model: it only transcribes "
                         f"(no --task {args.task})")  # fmt: skip
    if args.language not in (None, "en"):
        raise ValueError(f"{args.pte}: an English-only model: it only transcribes English "
                         f"(no --language {args.language})")  # fmt: skip
    return program.prompt(None, "transcribe")


def _transcribe(args) -> int:
    from ..llm.generate import TextStream
    from . import audio
    from .transcribe import Program, Timings, load_tokenizer, transcribe_ids

    samples, rate = audio.read_audio(args.audio)  # before loading: bad audio fails fast
    tokenizer = load_tokenizer(args.pte)
    program = Program(args.pte, device=args.device)
    prompt = _prompt(args, program, tokenizer)
    timings = Timings()
    start = time.perf_counter()
    samples = audio.resample(samples, rate)
    timings.features_s += time.perf_counter() - start
    # Windows are decoded apart and their text joined by a space; each
    # window's text streams as its tokens arrive.
    streams: list[TextStream] = []

    def next_window(index: int) -> None:
        if streams:
            streams[-1].finish()
            sys.stdout.write(" ")
        decode = lambda ids: tokenizer.decode(ids, skip_special_tokens=True)  # noqa: E731
        streams.append(TextStream(decode, out=sys.stdout))

    ids = []
    for token in transcribe_ids(program, samples, prompt, args.max_new_tokens, timings,
                                next_window):  # fmt: skip
        ids.append(token)
        streams[-1].add(token)
    if streams:
        streams[-1].finish()
    print()
    if args.ids:
        print("ids:", " ".join(map(str, ids)))
    print(timings.report())
    return 0


def main(argv=None) -> int:
    _quiet.install()
    args = _parser().parse_args(argv)
    try:
        return _export(args) if args.command == "export" else _transcribe(args)
    # What a user gave is wrong (not audio, not a Whisper checkpoint, a bad
    # program): one line says what, no traceback.
    except (ValueError, FileNotFoundError) as e:
        print(f"python -m mlx_delegate.asr {args.command}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
