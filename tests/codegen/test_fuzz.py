"""The differential fuzzer (codegen/fuzz.py): its generator, its mutations, its
verdicts, and a fixed-seed run against flatc within a time budget.

The two fuzzing tests run on separate pytest-xdist workers; together they take
about FUZZ_SECONDS * 2 of machine time (CODEGEN_FUZZ_SECONDS overrides it).
A longer run, by command: `python -m codegen.fuzz --seconds 600`.
"""

from __future__ import annotations

import os
import random
import re

import pytest

from codegen import cli, fuzz
from codegen.fuzz import (
    Case,
    Finding,
    Oracles,
    Verdict,
    check,
    generated_case,
    make_case,
    minimize,
    mutate,
    mutated_case,
)

SEED = 13
FUZZ_SECONDS = float(os.environ.get("CODEGEN_FUZZ_SECONDS", "25"))


@pytest.fixture(scope="module")
def oracles():
    with Oracles() as running:
        yield running


# ---------------------------------------------------------------- against flatc


@pytest.mark.parametrize("source", ["generated", "mutated"])
def test_fuzzed_schemas_get_flatcs_decision_and_located_errors(source, oracles):
    summary = fuzz.fuzz([source], SEED, FUZZ_SECONDS, oracles)
    print(summary.line())
    assert summary.compared >= 10, summary.line()
    reports = "\n\n".join(finding.report() for finding in summary.findings[:5])
    assert not summary.findings, f"{summary.line()}\n\n{reports}"


# ---------------------------------------------------------------- the generator


GENERATED = [generated_case(SEED, i) for i in range(300)]


def test_cases_are_reproducible_from_their_id():
    assert make_case(f"generated:{SEED}:7") == GENERATED[7]
    bases = fuzz.mutation_bases()
    assert mutated_case(SEED, 7, bases) == make_case(f"mutated:{SEED}:7", bases)


@pytest.mark.parametrize(
    "construct, pattern",
    [
        ("include", r"^include ['\"]inc/lib\d\.fbs['\"];"),
        ("namespace", r"^namespace \w+(\.\w+)*;"),
        ("attribute declaration", r"^attribute "),
        ("user attribute in use", r"\((my_attr|priority|lib_attr)"),
        ("union", r"^union \w+ \{"),
        ("union member alias", r"^  \w+: \w[\w.]*(,| =|$)"),
        ("struct with an array", r"\[\w[\w.]*:(\d+|0x\d+|\+\d+)\];"),
        ("force_align", r"force_align: "),
        ("enum with bit_flags", r"\(bit_flags\)"),
        ("rpc_service", r"^rpc_service "),
        ("root_type", r"^root_type "),
        ("file_identifier", r"^file_identifier "),
        ("id attributes", r"\(id: \d+"),
        ("nested_flatbuffer", r"nested_flatbuffer: "),
        ("integer default", r"= -?\d+[;( ]"),
        ("hex default", r"= 0x[0-9a-fA-F]+"),
        ("float default", r"= -?\d*\.\d+"),
        ("exponent default", r"= -?\d+(\.\d*)?[eE]"),
        ("hex float default", r"= -?0x[\d.]+p"),
        ("nan / inf default", r"= [+-]?(nan|inf)"),
        ("conversion function default", r"= (cos|deg|sin|rad|atan)\("),
        ("bool default", r"= (true|false)"),
        ("quoted default", r"= \"[^\"]*\""),
        ("single-quoted string", r"'[^'\n]*'"),
        ("null default", r"= null"),
        ("enum value default", r": \w[\w.]* = [A-Z]\w*"),
        ("doc comment", r"^ *///"),
        (
            "keyword as a declaration name",
            r"^(table|struct|enum|union) (table|struct|enum|union|namespace|include|attribute|root_type)\b",
        ),
        (
            "keyword as a field name",
            r"^  (table|struct|enum|union|namespace|include|attribute|root_type|rpc_service): ",
        ),
    ],
)
def test_generator_covers(construct, pattern):
    texts = [text for case in GENERATED for text in case.files.values()]
    assert any(re.search(pattern, text, re.M) for text in texts), construct


def test_generated_schemas_include_their_helper_files():
    with_includes = [case for case in GENERATED if len(case.files) > 1]
    assert with_includes
    for case in with_includes:
        for path in case.files:
            assert path == fuzz.ROOT_FILE or path.startswith("inc/")


# ---------------------------------------------------------------- mutations


def test_mutations_change_the_text_reproducibly():
    text = "table T { a: int = 1; s: string; }\nroot_type T;\n"
    first = [mutate(text, random.Random(i)) for i in range(50)]
    assert first == [mutate(text, random.Random(i)) for i in range(50)]
    assert sum(new != text for new, _ in first) > 40
    assert {note.split()[0] for _, note in first} >= {"delete", "insert", "replace", "truncate"}


def test_mutated_cases_keep_their_base_helper_files():
    case = next(
        make_case(f"mutated:{SEED}:{i}")
        for i in range(200)
        if "include" in make_case(f"mutated:{SEED}:{i}").note.split(":")[0]
    )
    assert len(case.files) > 1 and case.note


# ---------------------------------------------------------------- verdicts


class _FixedOracles:
    """decide() by rule, for testing what becomes a finding."""

    def __init__(self, decide):
        self.decide = decide


def _case(text: str) -> Case:
    return Case("test:0:0", {fuzz.ROOT_FILE: text})


def test_disagreement_crash_and_unlocated_refusal_are_findings():
    def decide(case):
        flatc = Verdict("flatc-ok" in case.root, "")
        ours = Verdict("ours-ok" in case.root, "")
        problem = "crash" if "boom" in case.root else "unlocated" if "bare" in case.root else None
        return flatc, ours, problem

    oracles = _FixedOracles(decide)
    assert check(_case("flatc-ok ours-ok"), oracles) is None
    assert check(_case("neither"), oracles) is None
    assert check(_case("flatc-ok"), oracles).kind == "disagreement"
    assert check(_case("ours-ok boom flatc-ok"), oracles).kind == "crash"
    assert check(_case("bare"), oracles).kind == "unlocated"


def test_our_verdict_flags_a_traceback_and_an_unlocated_error(tmp_path, monkeypatch):
    schema = tmp_path / "s.fbs"
    schema.write_text("table T {}\n")

    def crash(argv):
        raise KeyError("boom")

    monkeypatch.setattr(cli, "main", crash)
    verdict, problem = fuzz.run_ours(schema, tmp_path / "out", tmp_path / "cache")
    assert problem == "crash" and "KeyError" in verdict.output

    def bare_error(argv):
        print("error: something", file=__import__("sys").stderr)
        return 2

    monkeypatch.setattr(cli, "main", bare_error)
    assert fuzz.run_ours(schema, tmp_path / "out", tmp_path / "cache")[1] == "unlocated"


def test_a_located_error_with_source_line_and_caret_is_well_formed(tmp_path):
    schema = tmp_path / "s.fbs"
    schema.write_text("table T {\n  a: nope;\n}\n")
    verdict, problem = fuzz.run_ours(schema, tmp_path / "out", tmp_path / "cache")
    assert not verdict.accepted and problem is None
    assert verdict.output.splitlines()[1:3] == ["  a: nope;", "     ^"]


def test_minimize_keeps_the_finding_and_shrinks_the_schema():
    def decide(case):  # "disagree" whenever the text still has both markers
        both = "MARK1" in case.root and "MARK2" in case.root
        return Verdict(both, ""), Verdict(False, ""), None

    oracles = _FixedOracles(decide)
    text = "table A {}\ntable MARK1 {}\ntable B { x: int; }\nroot_type MARK2;\n"
    found = check(_case(text), oracles)
    smaller = minimize(found, oracles, budget=10)
    assert smaller.kind == "disagreement"
    assert "MARK1" in smaller.case.root and "MARK2" in smaller.case.root
    assert len(smaller.case.root) < len(text) / 2


def test_replay_prints_the_case_and_both_verdicts(capsys):
    status = fuzz.main(["--replay", f"generated:{SEED}:0"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "flatc: " in out and "ours: " in out and f"--- {fuzz.ROOT_FILE}" in out


def test_report_shows_the_files_of_a_finding():
    finding = Finding(
        "disagreement",
        Case("generated:1:2", {fuzz.ROOT_FILE: "table T {}\n", "inc/a.fbs": "table A {}\n"}),
        Verdict(True, ""),
        Verdict(False, "x.fbs:1:1: error: no"),
    )
    report = finding.report()
    assert report.index("--- schema.fbs") < report.index("--- inc/a.fbs")
    assert "flatc: accepts" in report and "ours:  refuses" in report
