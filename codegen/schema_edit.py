"""Edits of a schema's text that keep everything else as written: a new
declaration placed before another one (before its doc comment), a new member
appended to a union in the layout of the members before it. Places come from
the syntax tree's spans (codegen.syntax.Span), so comments, strings and
layout never confuse them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from . import syntax as s


@dataclass(frozen=True)
class Insertion:
    offset: int  # in the original text
    text: str


def apply(text: str, insertions: Iterable[Insertion]) -> str:
    """The text with every insertion made; two at one offset keep their order."""
    ordered = sorted(enumerate(insertions), key=lambda x: (x[1].offset, x[0]), reverse=True)
    for _, insertion in ordered:
        text = text[: insertion.offset] + insertion.text + text[insertion.offset :]
    return text


def before_declaration(text: str, decl: s.DeclarationSyntax, block: str) -> Insertion:
    """`block` (whole lines) placed before `decl` and its doc comment, with a
    blank line between them."""
    start = decl.span.start
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip():  # something else ends on that line
        return Insertion(start, "\n" + block + "\n")
    return Insertion(line_start, block + "\n")


def union_member(text: str, union: s.UnionSyntax, member: str) -> Insertion:
    """`member` appended to the union, separated from the last member as that
    one is from the member before it (its own line, same indent), with a
    trailing comma where the last member has one."""
    members = union.members
    if not members:
        close = union.span.end - 1  # the closing brace
        return Insertion(close, f"\n  {member},\n")
    last = members[-1]
    separator = _blank_before(text, last.span.start) or " "
    if "\n" in separator:
        separator = separator[separator.rindex("\n") :]
    comma = _comma_after(text, last.span.end, union.span.end - 1)
    if comma is None:
        return Insertion(last.span.end, f",{separator}{member}")
    return Insertion(_after_line_comment(text, comma + 1), f"{separator}{member},")


def _after_line_comment(text: str, offset: int) -> int:
    """Past a `//` comment that ends the line at `offset` (it belongs to what
    precedes it), else `offset`."""
    match = re.compile(r"[ \t]*//[^\r\n]*").match(text, offset)
    return match.end() if match else offset


def _blank_before(text: str, offset: int) -> str:
    start = offset
    while start > 0 and text[start - 1] in " \t\r\n":
        start -= 1
    return text[start:offset]


def _comma_after(text: str, start: int, end: int) -> int | None:
    """The offset of the comma between `start` and `end` (past the last union
    member: blanks, comments and at most that comma), or None."""
    i = start
    while i < end:
        if text.startswith("//", i):  # to the end of the line: LF or CR, as flatc
            line_end = re.compile(r"[\r\n]").search(text, i)
            i = line_end.start() if line_end else end
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        elif text[i] == ",":
            return i
        else:
            i += 1
    return None
