"""Every op of the generated dispatch has its exec_* function; a missing one
fails the build at configure time with a message naming it."""

import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHECK = REPO / "runtime_cpp" / "cmake" / "check_exec_functions.cmake"
CMAKE = shutil.which("cmake", path=str(REPO / ".venv" / "bin")) or "cmake"


def check(op_sources: list[Path]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            CMAKE,
            f"-DMLXD_DISPATCH_HEADER={REPO / 'generated' / 'cpp' / 'mlx_dispatch.h'}",
            f"-DMLXD_OP_SOURCES={';'.join(map(str, op_sources))}",
            "-P",
            str(CHECK),
        ],
        capture_output=True,
        text=True,
    )


def op_sources() -> list[Path]:
    """The hand-written exec_* functions, and the generated ones of declared ops."""
    hand_written = sorted((REPO / "runtime_cpp" / "src" / "ops").glob("*.cpp"))
    return hand_written + [REPO / "generated" / "cpp" / "mlx_declared_ops.cpp"]


def test_every_op_has_an_exec_function():
    result = check(op_sources())
    assert result.returncode == 0, result.stderr


def test_a_missing_exec_function_is_named(tmp_path: Path):
    copies = []
    for source in op_sources():
        copy = tmp_path / source.name
        copy.write_text(source.read_text().replace("exec_softmax", "exec_renamed"))
        copies.append(copy)
    result = check(copies)
    assert result.returncode != 0
    assert "op SoftmaxNode has no implementation" in result.stderr
    assert "void exec_softmax(const SoftmaxNode& node" in result.stderr
