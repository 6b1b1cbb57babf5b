"""Test inputs made once per test run (an export, a checkpoint): under xdist
the first worker to ask makes it and the others wait for it (a file lock), so
a session fixture costs one export, not one a worker."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable


def made_once(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """`root / name`, where root is the run's temporary folder (all workers'),
    after `make(root / name)` has run once and returned."""
    from filelock import FileLock

    base = tmp_path_factory.getbasetemp()
    root = base.parent if "PYTEST_XDIST_WORKER" in os.environ else base
    made = root / f"{name}.made"
    with FileLock(str(root / f"{name}.lock")):
        if not made.is_file():
            make(root / name)
            made.touch()  # after `make` returned: a failed one is made again by the next to ask
    return root / name
