"""Fresh processes without a fresh import of torch each time.

A scenario that runs a `.pte` needs `executorch.runtime`, whose import pulls in
torch and most of `executorch.exir`: about five seconds, more than the scenario
itself. A `ForkServer` is one process that has made those imports; each
scenario is a child forked from it, so it still starts with nothing of ours
loaded (no host library, no plugin, no registered delegate), sees only its own
environment and working directory, and a crash kills only the child, reported
as its exit status (minus the signal, as `subprocess` does).

The server reads one JSON request per line on stdin ({"code", "env", "cwd",
"stdout", "stderr", "timeout"}), runs the code in a forked child with its
standard output and error written to the named files, and answers one JSON
line ({"returncode", "timed_out"}) on stdout once the child has ended."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

SERVER = r"""
import ctypes, json, os, signal, sys, time, traceback
for module in PRELOAD:
    __import__(module)
libc = ctypes.CDLL(None)
answers = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # stray output of the server's own
for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # the requests are the server's
            for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
                os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
            exec(compile(request["code"], "<scenario>", "exec"), {"__name__": "__main__"})
            status = 0
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            libc.fflush(None)  # C and C++ output of the libraries loaded
            os._exit(status)
    deadline, timed_out = time.monotonic() + request["timeout"], False
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            timed_out = True
            break
        time.sleep(0.005)
    returncode = os.waitstatus_to_exitcode(status)
    answers.write(json.dumps({"returncode": returncode, "timed_out": timed_out}) + "\n")
    answers.flush()
"""


class ForkServer:
    """Started on first use; one request at a time (a lock), like `subprocess.run`."""

    def __init__(self, preload: list[str], env: dict, cwd: Path, log: Path):
        """`log` takes the server's own standard error (the preloaded modules'
        noise, and why it died if it does)."""
        self._preload, self._env, self._cwd, self._log = preload, env, cwd, log
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()

    def run(self, code: str, env: dict, cwd: Path, scratch: Path, timeout: float):
        """Runs `code` in a forked child: a `subprocess.CompletedProcess`-like
        result (returncode, stdout, stderr); TimeoutExpired past `timeout`."""
        scratch.mkdir(parents=True, exist_ok=True)
        out, err = scratch / "stdout", scratch / "stderr"
        request = {
            "code": code,
            "env": env,
            "cwd": str(cwd),
            "stdout": str(out),
            "stderr": str(err),
            "timeout": timeout,
        }
        with self._lock:
            server = self._started()
            server.stdin.write(json.dumps(request) + "\n")
            server.stdin.flush()
            line = server.stdout.readline()
        if not line:
            raise RuntimeError(
                f"the fork server died (rc {server.wait()}):\n{self._log.read_text()[-4000:]}"
            )
        answer = json.loads(line)
        result = SimpleNamespace(
            returncode=answer["returncode"],
            stdout=out.read_text(errors="replace"),
            stderr=err.read_text(errors="replace"),
        )
        if answer["timed_out"]:
            raise subprocess.TimeoutExpired(["<scenario>"], timeout, result.stdout, result.stderr)
        return result

    def _started(self) -> subprocess.Popen:
        if self._process is None or self._process.poll() is not None:
            code = f"PRELOAD = {self._preload!r}\n" + SERVER
            with open(self._log, "w") as log:
                self._process = subprocess.Popen(
                    [sys.executable, "-c", code],
                    cwd=self._cwd,
                    env=self._env,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    text=True,
                )
        return self._process

    def close(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
