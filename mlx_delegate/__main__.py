"""python -m mlx_delegate COMMAND [ARGUMENTS...]

Each command is the `main()` of one module, given the arguments unchanged:
`python -m mlx_delegate inspect model.pte` is `python -m mlx_delegate.tools.inspector model.pte`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass

from . import _quiet


@dataclass(frozen=True)
class Command:
    module: str  # whose main(argv) runs the command
    summary: str


COMMANDS = {
    "demo": Command(
        "mlx_delegate.tools.demo",
        "export a small transformer, run it on the best plugin and compare with PyTorch",
    ),
    "inspect": Command(
        "mlx_delegate.tools.inspector",
        "print the MLX delegates of a .pte: slots, instructions, constants",
    ),
    "llm": Command(
        "mlx_delegate.llm.__main__",
        "export a local LLM checkpoint to a .pte (llm export), or generate text (llm generate)",
    ),
    "precompile-jit": Command(
        "mlx_delegate.tools.mlx_jit",
        "precompile the header MLX's CPU JIT includes in every kernel (5x faster kernel builds)",
    ),
}


def _parser() -> argparse.ArgumentParser:
    listing = "\n".join(f"  {name:<12}{c.summary}" for name, c in COMMANDS.items())
    parser = argparse.ArgumentParser(
        prog="python -m mlx_delegate",
        description="Compile PyTorch models into an MLX op-graph and run them through ExecuTorch.",
        epilog=f"commands:\n{listing}\n\n`python -m mlx_delegate COMMAND --help` shows its options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "command", choices=COMMANDS, metavar="COMMAND", help="one of the commands below"
    )
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="the command's arguments")
    return parser


def main(argv=None) -> int:
    _quiet.install()
    parser = _parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:  # argparse would name the arguments missing; the list of commands helps more
        parser.print_help(sys.stderr)
        return 2
    args = parser.parse_args(argv)
    command = importlib.import_module(COMMANDS[args.command].module)
    return command.main(args.arguments)


if __name__ == "__main__":
    sys.exit(main())
