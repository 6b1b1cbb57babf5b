"""Progress bars for long work (the op suite, the model zoo, an LLM export).

A bar goes to stderr and is drawn only when stderr is a terminal: logs, pipes and CI get no
carriage returns. It is cleared when the work ends, so what the command prints last (a
table, a summary) reads the same with or without it.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, Optional, Sequence, TextIO

from tqdm import tqdm


def progress(
    iterable: Optional[Iterable] = None,
    *,
    total: Optional[int] = None,
    description: str = "",
    unit: str = "it",
    file: Optional[TextIO] = None,
    bar_format: Optional[str] = None,
) -> tqdm:
    """A tqdm bar on `file` (default stderr), disabled unless `file` is a terminal. Lines
    written with its `write` method go above the bar, and are written when it is off too."""
    stream = file or sys.stderr
    return tqdm(
        iterable,
        total=total,
        desc=description,
        unit=unit,
        file=stream,
        disable=not _is_terminal(stream),
        leave=False,
        dynamic_ncols=True,
        bar_format=bar_format,
    )


@contextmanager
def steps(description: str, names: Sequence[str]) -> Iterator[Callable[[str], None]]:
    """A bar over the named steps of one long job, in order: calling `step(name)` shows that
    the step `name` is running and the ones before it are done."""
    # Steps take seconds to minutes each: a rate would say nothing, the time so far does.
    layout = "{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]"
    with progress(total=len(names), description=description, bar_format=layout) as bar:

        def step(name: str) -> None:
            bar.n = names.index(name)
            bar.set_postfix_str(name)  # redraws the bar

        yield step
        bar.n = len(names)
        bar.refresh()


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())
