"""python -m mlx_delegate.llm export|generate

python -m mlx_delegate.llm export --model DIR [--dtype fp32|bf16|fp16]
    [--quantize int2..int8|nvfp4|mxfp4|mxfp8] [--quantize-embedding FORMAT|none] [--group-size N]
    [--max-seq-len N] [--kv-cache int8|int4] [--split-mlps N] -o model.pte
python -m mlx_delegate.llm generate model.pte --tokenizer DIR --prompt "..."
    [--max-new-tokens N] [--temperature T] [--top-p P] [--seed S] [--device cpu|gpu:0]

A model exported with --split-mlps 2 runs on a device group: --device gpu:0,gpu:1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

from .. import _quiet
from ..ops.quantized import GROUP_SIZES
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
        "--split-mlps",
        type=int,
        default=0,
        metavar="N",
        help="split every MLP over N devices (tensor-parallel); run on a group of N devices",
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
        help="cpu, gpu, gpu:N, or a group gpu:0,gpu:1 for a split model (default: the best)",
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
        split_mlps=args.split_mlps,
    )
    print(result.report())
    return 0


def _generate(args) -> int:
    from .generate import PREFILL_CHUNK, Program, TextStream, Timings, generate_ids, load_tokenizer

    tokenizer = load_tokenizer(args.tokenizer)
    program = Program(args.pte, device=args.device)
    prompt = tokenizer.encode(args.prompt).ids
    # Prints the prompt as the tokenizer decodes it (see TextStream).
    stream = TextStream(lambda ids: tokenizer.decode(ids), prompt)
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
    print()
    if args.ids:
        print("ids:", " ".join(map(str, stream.ids)))
    print(timings.report())
    return 0


def main(argv=None) -> int:
    _quiet.install()
    args = _parser().parse_args(argv)
    try:
        return _export(args) if args.command == "export" else _generate(args)
    # What a user gave is wrong (UnsupportedCheckpoint, ProgramLoadError, a prompt
    # too long...): one line says what, no traceback.
    except (ValueError, FileNotFoundError) as e:
        print(f"python -m mlx_delegate.llm {args.command}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
