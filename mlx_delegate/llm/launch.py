"""One process per device for a tensor-parallel program: `generate --tp N`.

A process that finds the standard MLX variables set (MLX_RANK, with
MLX_WORLD_SIZE or MLX_HOSTFILE) is a rank already, started by `mlx.launch`,
a multi-host launcher or `start_ranks`: it joins its group and runs. Otherwise
`start_ranks` starts N copies of the command, one a rank, on this host:
- the `ring` backend on the CPU (MLX's collectives over local sockets,
  a hostfile of free local ports);
- `nccl` on CUDA, one GPU a rank (CUDA_VISIBLE_DEVICES), the group met at a
  free local port.
Only rank 0 prints (the others' standard output is dropped; their errors
still show). A rank that dies ends the others, with a message: the others
would wait in their next collective forever."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional, Sequence

BACKENDS = ("ring", "nccl")
POLL_S = 0.05  # how often the launcher looks at its ranks
GRACE_S = 5.0  # how long a rank has to end after SIGTERM before SIGKILL


def rank_of_environment() -> Optional[tuple[int, int]]:
    """(rank, ranks) when the standard MLX variables make this process a rank."""
    rank = os.environ.get("MLX_RANK")
    if rank is None:
        return None
    if "MLX_WORLD_SIZE" in os.environ:
        ranks = int(os.environ["MLX_WORLD_SIZE"])
    elif "MLX_HOSTFILE" in os.environ:
        ranks = len(json.loads(Path(os.environ["MLX_HOSTFILE"]).read_text()))
    else:
        raise ValueError("MLX_RANK is set without MLX_WORLD_SIZE or MLX_HOSTFILE")
    if not 0 <= int(rank) < ranks:
        raise ValueError(f"MLX_RANK={rank} is not a rank of a group of {ranks}")
    return int(rank), ranks


def default_backend(device: Optional[str]) -> str:
    """nccl where the ranks run on GPUs, ring on the CPU."""
    if device is not None:
        return "nccl" if device.startswith("gpu") else "ring"
    from ..host import backends

    return "nccl" if backends.is_available("gpu") else "ring"


def start_ranks(command: Sequence[str], ranks: int, backend: str) -> int:
    """Runs `command` as `ranks` processes, one a rank of a group of `backend`,
    until all end; returns 0 when all succeeded, else 1, having ended the
    others as soon as one failed."""
    if backend not in BACKENDS:
        raise ValueError(f"backend {backend!r}: one of {', '.join(BACKENDS)}")
    with tempfile.TemporaryDirectory(prefix="mlxd-ranks-") as scratch:
        group = _group_environment(backend, ranks, Path(scratch))
        processes = [_start(command, rank, ranks, group) for rank in range(ranks)]
        try:
            return _supervise(processes)
        finally:
            _end(processes)


def _group_environment(backend: str, ranks: int, scratch: Path) -> dict[str, str]:
    env = {"MLX_WORLD_SIZE": str(ranks), "MLX_DELEGATE_DISTRIBUTED_BACKEND": backend}
    if backend == "ring":
        hostfile = scratch / "hosts.json"
        hostfile.write_text(json.dumps([[f"127.0.0.1:{_free_port()}"] for _ in range(ranks)]))
        env["MLX_HOSTFILE"] = str(hostfile)
    else:
        env.update(NCCL_HOST_IP="127.0.0.1", NCCL_PORT=str(_free_port()))
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(command, rank: int, ranks: int, group: dict[str, str]) -> subprocess.Popen:
    env = {**os.environ, **group, "MLX_RANK": str(rank)}
    if group["MLX_DELEGATE_DISTRIBUTED_BACKEND"] == "nccl":
        env["CUDA_VISIBLE_DEVICES"] = str(rank)  # a GPU a rank, its gpu:0
    stdout = None if rank == 0 else subprocess.DEVNULL
    return subprocess.Popen(list(command), env=env, stdout=stdout)


def _supervise(processes: list[subprocess.Popen]) -> int:
    while True:
        codes = [p.poll() for p in processes]
        for rank, code in enumerate(codes):
            if code not in (None, 0):
                print(
                    f"rank {rank} of {len(processes)} ended with {_status(code)}: "
                    "ending the other ranks",
                    file=sys.stderr,
                )
                return 1
        if all(code == 0 for code in codes):
            return 0
        time.sleep(POLL_S)


def _status(code: int) -> str:
    if code < 0:
        return f"signal {signal.Signals(-code).name}"
    return f"exit status {code}"


def _end(processes: list[subprocess.Popen]) -> None:
    """Ends the ranks still running: SIGTERM, then SIGKILL after a grace."""
    running = [p for p in processes if p.poll() is None]
    for p in running:
        p.terminate()
    deadline = time.monotonic() + GRACE_S
    for p in running:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
