"""python -m testbench.cuda_suite {export,run} ... (see __init__.py).

Imports no torch: `run` must work on a machine without it; `export` imports
its module (torch, ExecuTorch) only when asked for."""

from __future__ import annotations

import sys

USAGE = """usage: python -m testbench.cuda_suite export DIR [-j N] [--dtypes fp32,bf16,fp16] [NAMES...]
       python3 -m testbench.cuda_suite run DIR|DIR.tar.gz --runner PATH/mlxd-run [--device gpu:0]
(each command's --help tells more)"""


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("export", "run"):
        print(USAGE, file=sys.stderr if argv[:1] not in (["-h"], ["--help"]) else sys.stdout)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    if argv[0] == "export":
        from .export import main as command
    else:
        from .run import main as command
    return command(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
