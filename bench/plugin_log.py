"""What the plugin's debug log (MLX_DELEGATE_LOG=debug) says of each call, for the
benchmarks that split a call's time (llm_size.py, models.py): the "execute: ..."
line of runtime_cpp/src/plugin/program.cpp, and the census of a call's graph."""

from __future__ import annotations

import re

_EXECUTE = re.compile(
    r"execute: graph built in ([\d.]+) ms(?: \(by the last call\))?, the next call's ahead "
    r"in ([\d.]+) ms \(built ([\d.]+), started ([\d.]+)\), evaluated in ([\d.]+) ms, "
    r"outputs copied in ([\d.]+) ms"
)
# a call's ms: its graph built, the next call's built ahead (of which built and
# started), its outputs evaluated (waited for), copied out
FIELDS = ("built", "ahead", "ahead built", "ahead started", "evaluated", "copied out")


def calls(log: str) -> list[tuple[float, ...]]:
    """Each call's ms, in FIELDS' order."""
    return [tuple(map(float, call)) for call in _EXECUTE.findall(log)]


def census(log: str) -> str:
    """The primitives of a call's graph as the plugin reported them: a call built
    ahead's when there is one, else one built in place."""
    found = re.search(r"a call built ahead: (.*)", log) or re.search(
        r"a call built in place: (.*)", log
    )
    return found[1] if found else "not reported"
