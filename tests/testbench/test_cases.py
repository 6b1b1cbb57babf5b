"""testbench/cases.py: the op tests are the CASES of the op_cases modules,
found by listing the package; importing a module registers nothing."""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path

import pytest

import testbench
from testbench import cases
from testbench.op_spec import C, Cases, T

TESTBENCH = Path(testbench.__file__).parent


def test_every_op_cases_module_is_collected():
    on_disk = sorted(
        f"testbench.{p.stem}"
        for p in TESTBENCH.glob("op_cases*.py")
        if p.stem == "op_cases" or p.stem.startswith("op_cases_")
    )
    assert cases.case_modules() == on_disk
    collected = cases.all_cases()
    for name in on_disk:
        for case in sys.modules[name].CASES:
            assert collected[case.name] is case


def test_a_module_builds_its_cases_without_registering_them():
    listed = Cases()
    made = listed.add("twice", [C("float32", lambda x: x * 2, T((2, 2)))])
    assert list(listed) == [made] and made.name == "twice"
    assert "twice" not in cases.all_cases()


def _with_modules(monkeypatch, **modules: list) -> None:
    """Fake op_cases modules (name -> CASES or None for none) listed by cases.py."""
    cases.all_cases.cache_clear()
    monkeypatch.setattr(cases, "case_modules", lambda: [f"fake.{n}" for n in modules])
    for name, listed in modules.items():
        module = types.ModuleType(f"fake.{name}")
        if listed is not None:
            module.CASES = listed
        monkeypatch.setitem(sys.modules, f"fake.{name}", module)


@pytest.fixture
def fresh_cases():
    yield
    cases.all_cases.cache_clear()


def test_a_name_in_two_modules_is_refused(monkeypatch, fresh_cases):
    first, second = Cases(), Cases()
    first.add("same", [C("a", abs, T())])
    second.add("same", [C("b", abs, T())])
    _with_modules(monkeypatch, op_cases_a=first, op_cases_b=second)
    with pytest.raises(ValueError, match="'same' is in fake.op_cases_a and in fake.op_cases_b"):
        cases.all_cases()


def test_a_module_without_cases_is_refused(monkeypatch, fresh_cases):
    _with_modules(monkeypatch, op_cases_empty=None)
    with pytest.raises(ValueError, match="fake.op_cases_empty lists no op tests"):
        cases.all_cases()


def _relative_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names |= {node.module} if node.module else {a.name for a in node.names}
    return names


def test_no_import_loops_in_the_bench():
    """The framework and the spec helpers import no cases; no two modules import each other."""
    graph = {p.stem: _relative_imports(p) for p in TESTBENCH.glob("*.py")}
    for module in ("framework", "op_spec", "tolerance"):
        assert not any(n.startswith("op_cases") or n == "cases" for n in graph[module]), module

    def reaches(start: str, goal: str, seen: set) -> bool:
        for n in graph.get(start, ()):
            if n == goal or (n not in seen and reaches(n, goal, seen | {n})):
                return True
        return False

    assert [m for m in graph if reaches(m, m, set())] == []
