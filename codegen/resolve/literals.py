"""Numbers and other literals as flatc reads them (shared by every phase)."""

from __future__ import annotations

import math
import re
from typing import Optional

from .. import syntax as s
from ..diagnostics import SchemaError

DECIMAL_INT = re.compile(r"[+-]?[0-9]+\Z")
HEX_INT = re.compile(r"[+-]?0[xX][0-9a-fA-F]+\Z")
# An integer as C's strtoll reads a whole string (flatc's reading of numbers in
# string constants, such as `id: " 3"`): leading blanks, a sign, decimal or 0x-hex.
C_INTEGER = re.compile(r"[ \t\n\v\f\r]*([+-]?)(?:0[xX]([0-9a-fA-F]+)|([0-9]+))\Z")
SPECIAL_FLOAT = re.compile(r"[+-]?(nan|inf|infinity)\Z")
MASK64 = (1 << 64) - 1


def parse_integer(text: str) -> Optional[int]:
    """Decimal or hexadecimal integer with optional sign, else None."""
    if DECIMAL_INT.match(text):
        return int(text, 10)
    if HEX_INT.match(text):
        sign = -1 if text.startswith("-") else 1
        return sign * int(text.lstrip("+-")[2:], 16)
    return None


def parse_c_integer(text: str, low: int, high: int) -> Optional[int]:
    """An integer in [low; high] as flatc reads one from a string constant: C's
    whole-string strtoll (leading blanks, sign, decimal or 0x-hex); an
    unsigned target takes no minus sign but -0."""
    match = C_INTEGER.match(text)
    if match is None:
        return None
    sign, hex_digits, digits = match.groups()
    value = int(hex_digits, 16) if hex_digits else int(digits)
    if sign == "-":
        if low >= 0 and value != 0:
            return None
        value = -value
    return value if low <= value <= high else None


def parse_float(text: str) -> Optional[float]:
    """A float default: decimal, hex float with exponent, nan/inf, else None."""
    lowered = text.lower()
    if "_" in lowered:
        return None  # Python's float() takes digit separators, flatc does not
    if SPECIAL_FLOAT.match(lowered):
        value = math.nan if "nan" in lowered else math.inf
        return -value if lowered.startswith("-") else value
    if lowered.lstrip("+-").startswith("0x"):
        if "p" not in lowered:
            return None  # flatc requires the binary exponent of hex floats
        try:
            return float.fromhex(lowered)
        except ValueError:
            return None
        except OverflowError:  # C's strtod gives infinity, which flatc takes
            return -math.inf if lowered.startswith("-") else math.inf
    try:
        return float(text)
    except ValueError:
        return None


def integer_literal(literal: s.Literal, what: str) -> int:
    """A literal that must be a plain integer (an enum or union value)."""
    value = parse_integer(literal.text)
    if value is None:
        raise SchemaError.at(literal.location, f"{what} must be an integer, not {shown(literal)}")
    return value


def range_text(low: int, high: int) -> str:
    return f"[{low}; {high}]"


def as_signed(bits: int) -> int:
    """A 64-bit pattern as int64."""
    return bits - (1 << 64) if bits >> 63 else bits


def shown(literal: s.Literal) -> str:
    """A literal for a message: a string constant in quotes (it may be empty)."""
    return f'"{literal.text}"' if literal.kind == "string" else literal.text


def starts_like_name(text: str) -> bool:
    return text[:1].isascii() and (text[:1].isalpha() or text[:1] == "_")


def is_null(literal: s.Literal) -> bool:
    return literal.kind == "ident" and literal.text == "null"
