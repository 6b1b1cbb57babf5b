"""python -m mlx_delegate.llm export|generate

python -m mlx_delegate.llm export --model DIR [--dtype fp32|bf16|fp16]
    [--quantize int2..int8|nvfp4|mxfp4|mxfp8] [--quantize-embedding FORMAT|none] [--group-size N]
    [--max-seq-len N] [--kv-cache int8|int4] [--tp N] [--tp-vocab split|replicated]
    [--tp-experts hidden|spread] -o model.pte
python -m mlx_delegate.llm generate model.pte --tokenizer DIR --prompt "..."
    [--max-new-tokens N] [--temperature T] [--top-p P] [--seed S] [--device cpu|gpu:0]
    [--tp N]

A model exported with --tp N runs as N processes, one a device: generate --tp N
starts them (launch.py), or joins as the rank the MLX variables name.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional

from .. import _quiet
from ..formats.quantized import GROUP_SIZES
from .model import KV_CACHE_BITS
from .quantize import FORMATS


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mlx_delegate.llm")
    commands = parser.add_subparsers(dest="command", required=True)

    export = commands.add_parser("export", help="export a local checkpoint to a .pte")
    export.add_argument("--model", type=Path, required=True, help="config.json + safetensors")
    export.add_argument("--dtype", choices=("fp32", "bf16", "fp16"), default="fp32")
    export.add_argument(
        "--quantize",
        choices=FORMATS,
        default=None,
        help="the linear layers' (and experts') weights: affine integers or nvfp4/mxfp4/mxfp8",
    )
    export.add_argument(
        "--quantize-embedding",
        choices=(*FORMATS, "none"),
        default=None,
        help="the embedding's and LM head's weights (default: as --quantize)",
    )
    export.add_argument(
        "--group-size",
        type=int,
        default=32,
        choices=GROUP_SIZES,
        help="values a scale of the integer formats (nvfp4 groups 16, mxfp8 32)",
    )
    export.add_argument("--max-seq-len", type=int, default=256)
    export.add_argument(
        "--kv-cache",
        choices=tuple(KV_CACHE_BITS),
        default=None,
        help="keep the KV cache as 8- or 4-bit integers (default: in --dtype)",
    )
    export.add_argument(
        "--tp",
        type=int,
        default=1,
        metavar="N",
        help="tensor-parallel over N ranks, one process a device: one data file a rank",
    )
    export.add_argument(
        "--tp-vocab",
        choices=("split", "replicated"),
        default="split",
        help="with --tp: each rank holds its share of the embedding and LM head (all_gather of "
        "the logits), or all of them (default: split)",
    )
    export.add_argument(
        "--tp-experts",
        choices=("hidden", "spread"),
        default="hidden",
        help="with --tp, a mixture of experts: each rank holds its share of every expert's hidden "
        "units, or its share of the experts whole (default: hidden)",
    )
    export.add_argument("-o", "--output", type=Path, required=True)

    generate = commands.add_parser("generate", help="generate text from a .pte")
    generate.add_argument("pte", type=Path)
    generate.add_argument("--tokenizer", type=Path, required=True, help="has tokenizer.json")
    generate.add_argument("--prompt", required=True)
    generate.add_argument("--max-new-tokens", type=int, default=64)
    generate.add_argument("--temperature", type=float, default=0.0, help="0: greedy")
    generate.add_argument("--top-p", type=float, default=1.0)
    generate.add_argument("--seed", type=int, default=0)
    generate.add_argument(
        "--device",
        default=None,
        help="cpu, gpu or gpu:N (default: the best); with --tp, cpu or gpu (a GPU a rank)",
    )
    generate.add_argument(
        "--tp",
        type=int,
        default=1,
        metavar="N",
        help="run a program exported with --tp N as N processes (ring on the CPU, nccl on GPUs)",
    )
    generate.add_argument(
        "--prefill-chunk",
        type=int,
        default=None,
        metavar="N",
        help="prompt tokens a call (default 512; 0: all at once); a longer prompt goes in chunks",
    )
    generate.add_argument("--ids", action="store_true", help="also print the generated token ids")
    generate.add_argument(
        "--ignore-eos",
        action="store_true",
        help="do not stop at an end of sequence: generate --max-new-tokens (benchmarks)",
    )
    return parser


def _embedding_format(args) -> Optional[str]:
    if args.quantize_embedding is None:
        return "same"
    if not args.quantize:
        raise ValueError("--quantize-embedding goes with --quantize")
    return None if args.quantize_embedding == "none" else args.quantize_embedding


def _export(args) -> int:
    from .export import export_program

    result = export_program(
        args.model,
        args.output,
        dtype=args.dtype,
        quantize=args.quantize,
        quantize_embedding=_embedding_format(args),
        group_size=args.group_size,
        max_seq_len=args.max_seq_len,
        kv_cache=args.kv_cache,
        tp=args.tp,
        tp_vocab=args.tp_vocab,
        tp_experts=args.tp_experts,
    )
    print(result.report())
    return 0


def _generate(args, argv) -> int:
    from . import launch
    from .generate import PREFILL_CHUNK, Program, TextStream, Timings, generate_ids, load_tokenizer

    joined = launch.rank_of_environment()
    if args.tp > 1 and joined is None:  # start the ranks, each runs this command
        command = [sys.executable, "-m", "mlx_delegate.llm", *argv]
        return launch.start_ranks(command, args.tp, launch.default_backend(args.device))
    out = sys.stdout if joined is None or joined[0] == 0 else open(os.devnull, "w")
    device = "gpu:0" if joined and args.device == "gpu" else args.device  # a GPU a rank
    tokenizer = load_tokenizer(args.tokenizer)
    program = Program(args.pte, device=device)
    prompt = tokenizer.encode(args.prompt).ids
    # Prints the prompt as the tokenizer decodes it (see TextStream).
    stream = TextStream(lambda ids: tokenizer.decode(ids), prompt, out)
    timings = Timings()
    for token in generate_ids(
        program,
        prompt,
        args.max_new_tokens,
        temperature=args.temperature,
        top_p=args.top_p,
        seed=args.seed,
        stop_at_eos=not args.ignore_eos,
        timings=timings,
        prefill_chunk=PREFILL_CHUNK if args.prefill_chunk is None else args.prefill_chunk,
    ):
        stream.add(token)
    stream.finish()
    print(file=out)
    if args.ids:
        print("ids:", " ".join(map(str, stream.ids)), file=out)
    print(timings.report(), file=out)
    return 0


def main(argv=None) -> int:
    _quiet.install()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = _parser().parse_args(argv)
    try:
        return _export(args) if args.command == "export" else _generate(args, argv)
    # What a user gave is wrong (UnsupportedCheckpoint, ProgramLoadError, a prompt
    # too long...): one line says what, no traceback.
    except (ValueError, FileNotFoundError) as e:
        print(f"python -m mlx_delegate.llm {args.command}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
