"""python -m mlx_delegate.compiler.ops --coverage lists every registered target once, by category."""

from mlx_delegate.compiler.ops import default_registry
from mlx_delegate.compiler.ops.__main__ import coverage, main


def test_every_target_is_listed_once_under_its_handler_module():
    table = coverage()
    listed = [name.removesuffix(" *") for names in table.values() for name in names]
    assert sorted(listed) == sorted(str(t) for t in default_registry().targets())
    assert "aten::sin" in table["declared"]
    assert "aten::scaled_dot_product_attention *" in table["nn"]


def test_the_command_prints_the_count(capsys):
    assert main(["--coverage"]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith(f"{len(default_registry().targets())} targets registered")
