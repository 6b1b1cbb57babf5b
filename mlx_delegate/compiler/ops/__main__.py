"""python -m mlx_delegate.compiler.ops --coverage: the ATen targets the compiler lowers,
by category (the handler module that registers them), and their count."""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from . import default_registry


def coverage() -> dict[str, list[str]]:
    """Category -> sorted target names; kept-whole targets are marked with `*`."""
    registry = default_registry()
    kept = {str(t) for t in registry.keep_whole_keys()}
    by_category: dict[str, list[str]] = defaultdict(list)
    for key, handler in registry.handlers().items():
        module = getattr(getattr(handler, "func", handler), "__module__", "")
        name = str(key) + (" *" if str(key) in kept else "")
        by_category[module.rsplit(".", 1)[-1]].append(name)
    return {category: sorted(names) for category, names in sorted(by_category.items())}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mlx_delegate.compiler.ops", description=__doc__
    )
    parser.add_argument("--coverage", action="store_true", help="print the lowered targets")
    args = parser.parse_args(argv)
    if not args.coverage:
        parser.print_help()
        return 2
    table = coverage()
    for category, names in table.items():
        print(f"{category} ({len(names)})")
        for name in names:
            print(f"  {name}")
    total = sum(len(names) for names in table.values())
    kept = len(default_registry().keep_whole_keys())
    print(f"{total} targets registered ({kept} kept whole, marked *)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
