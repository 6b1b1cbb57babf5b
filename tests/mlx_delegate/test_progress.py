"""Progress bars: drawn on a terminal only, and gone when the work ends (mlx_delegate/_progress.py)."""

from __future__ import annotations

import io

from mlx_delegate._progress import progress, steps


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_and_none_on_a_pipe():
    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        with progress(total=3, description="op tests", unit="config", file=stream) as bar:
            for _ in range(3):
                bar.update()
            bar.write("PASS relu[float32]", file=stream)
    assert pipe.getvalue() == "PASS relu[float32]\n"
    drawn = terminal.getvalue()
    assert "op tests" in drawn and "3/3" in drawn and "PASS relu[float32]\n" in drawn
    assert drawn.endswith("\r")  # cleared: what is printed next starts a clean line


def test_an_iterable_passes_through_either_way():
    for stream in (Terminal(), io.StringIO()):
        assert list(progress(range(4), file=stream)) == [0, 1, 2, 3]


def test_steps_show_the_running_step(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with steps("export ckpt", ["load", "lower", "serialize"]) as step:
        step("load")
        step("lower")
        assert "1/3" in terminal.getvalue().rsplit("\r", 1)[-1]
        assert "lower" in terminal.getvalue().rsplit("\r", 1)[-1]
        step("serialize")
    assert "3/3" in terminal.getvalue()
