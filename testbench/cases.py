"""Every op test: the CASES of each testbench module named `op_cases` or
`op_cases_*`, found by listing the package (a new module, such as the one
`python -m codegen add-op` writes, is collected without editing any file)."""

from __future__ import annotations

import functools
import importlib
import pkgutil

from .framework import OpTestCase

CASE_MODULE = "op_cases"  # and every module named op_cases_*


def case_modules() -> list[str]:
    """The names of the modules that hold op cases, in order."""
    package = __name__.rpartition(".")[0]
    names = [m.name for m in pkgutil.iter_modules(importlib.import_module(package).__path__)]
    return sorted(
        f"{package}.{name}"
        for name in names
        if name == CASE_MODULE or name.startswith(CASE_MODULE + "_")
    )


@functools.cache
def all_cases() -> dict[str, OpTestCase]:
    """Every op test by name. A module without CASES, or two tests of one
    name, is refused with the module names."""
    cases: dict[str, OpTestCase] = {}
    where: dict[str, str] = {}
    for module_name in case_modules():
        module = importlib.import_module(module_name)
        listed = getattr(module, "CASES", None)
        if listed is None:
            raise ValueError(f"{module_name} lists no op tests: it needs a module-level CASES")
        for case in listed:
            if not isinstance(case, OpTestCase) or not case.name:
                raise ValueError(f"{module_name}.CASES: {case!r} is not a named OpTestCase")
            if case.name in cases:
                raise ValueError(
                    f"op test {case.name!r} is in {where[case.name]} and in {module_name}: "
                    f"each name once"
                )
            cases[case.name] = case
            where[case.name] = module_name
    return cases
